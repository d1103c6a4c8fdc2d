"""docs/openid-connect.md's Apache example, pasted: Debian's apache2 with libapache2-mod-auth-openidc (apache.py) runs
the doc's mod_auth_openidc block, and Frontdoor's config gets the doc's client entry, with only the addresses, the
secret and the passphrase put in (each placeholder must be in the doc's text, as recipes.py does for the recipes).

A person in Chromium opens the protected page, is sent to Frontdoor's sign-in page, signs in (with the password; in
the second test with a passkey, through WebDriver's virtual authenticator: the stack is `localhost`, as WebAuthn
needs), allows the app, and lands on the page with the claims mod_auth_openidc passes (email, preferred_username,
groups, acr). mod_auth_openidc's logout URL ends the Frontdoor session through its end_session endpoint and comes
back to the registered page; signing out of Frontdoor itself ends the Apache session through back-channel logout.
"""
import re
import secrets
from urllib.parse import quote

import pytest
import requests
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By

from apache import Apache, claims
from chromium_driver import page_wait
from look import PASSWORD, fill, loaded, sign_up, submit
from oidc import authorize, in_group, new_person, oidc_stack
from stack import ROOT, STACKS
from test_passkeys import add_passkey, chromium_with_authenticator, sign_out
from waits import wait_for

DOC = ROOT / "docs/openid-connect.md"
ISSUER, APP = "https://id.example.com/account", "https://app.example.com"
SECRET, PASSPHRASE = '"the secret in apache.secret"', '"a long random text: openssl rand -base64 32"'


def doc_block(marker):
    """The fenced block right after `<!-- test: marker -->` in docs/openid-connect.md."""
    found = re.search(rf"<!-- test: {marker} -->\n```[a-z]*\n(.*?)```", DOC.read_text(), re.S)
    assert found, f"docs/openid-connect.md has no block marked <!-- test: {marker} -->"
    return found.group(1)


def put_in(text, replacements):
    for old, new in replacements.items():
        assert old in text, f"{old} is not in the doc's block"
        text = text.replace(old, new)
    return text


@pytest.fixture(scope="module")
def apache():
    with Apache() as server:
        STACKS.append(server)   # a failing test's report shows its error log with the stacks' logs
        yield server
        STACKS.remove(server)


@pytest.fixture(scope="module")
def stack(tmp_path_factory, apache):
    secret = secrets.token_urlsafe(32)

    def doc_client(folder):
        (folder / "apache.secret").write_text(secret + "\n")   # the doc's relative secret_file: the config's folder
        (folder / "apache.secret").chmod(0o600)
        return put_in(doc_block("apache-client"), {APP: apache.origin})

    for stack in oidc_stack(tmp_path_factory, [], host="localhost", more_clients=doc_client):
        apache.start(put_in(doc_block("apache-openidc"), {ISSUER: stack.issuer, APP: apache.origin,
                                                          SECRET: f'"{secret}"', PASSPHRASE: secrets.token_hex(16)}))
        yield stack


@pytest.fixture
def driver():
    chromium = chromium_with_authenticator(autofill=False)   # the passkey button signs in, not the address field's autofill
    yield chromium
    chromium.quit()


def protected(apache):
    return apache.origin + "/private/claims.shtml"


def on_the_claims_page(driver, apache):
    page_wait(driver).until(lambda d: d.current_url.startswith(protected(apache)) and d.find_elements(By.ID, "claims"))
    return claims(driver.find_element(By.ID, "claims").get_attribute("textContent"))


def allow_if_asked(driver, apache):
    """Frontdoor's consent page, the first time this person signs in to the app: Allow."""
    try:
        page_wait(driver).until(lambda d: d.current_url.startswith(apache.origin)
                                or d.find_elements(By.CSS_SELECTOR, "form[action*='oidc/consent']"))
    except TimeoutException:
        raise AssertionError(f"neither the app nor the consent page: {driver.current_url}\n"
                             f"{driver.find_element(By.TAG_NAME, 'body').text[:600]}")
    if not driver.current_url.startswith(apache.origin):
        buttons = driver.find_elements(By.CSS_SELECTOR, "form[action*='oidc/consent'] button")
        allow = [b for b in buttons if re.search("allow|approve", (b.get_attribute("value") or "") + b.text, re.I)]
        old = driver.find_element(By.TAG_NAME, "html")
        (allow or buttons)[0].click()
        try:
            page_wait(driver).until(lambda d: d.find_element(By.TAG_NAME, "html") != old)
        except TimeoutException:   # e.g. the page's CSP form-action refused the redirect to the app: Chromium says so
            raise AssertionError(f"Allow led nowhere: {driver.get_log('browser')}")


def apache_session_cookie(driver, apache):
    return {c["name"]: c["value"] for c in driver.get_cookies() if c["name"].startswith("mod_auth_openidc_session")}


def apache_lets_in(apache, cookies):
    answer = requests.get(protected(apache), cookies=cookies, allow_redirects=False, timeout=30)
    return answer.status_code == 200


def test_the_docs_blocks_sign_in_and_out_without_a_browser(stack, apache):
    """The same path with an http_client.Browser (requests: cookies, no script, no CSP): Apache sends the visitor to
    Frontdoor, oidc.authorize() signs in and allows, mod_auth_openidc redeems the code and shows the claims; its
    logout URL goes through Frontdoor's end_session and back; a second sign-in ends when the person signs out of
    Frontdoor (back-channel logout)."""
    person = new_person(stack, prefix="apache", signed_in=False)
    in_group(stack, person, "staff")
    jar = person.browser.session   # one cookie jar for Apache (127.0.0.1) and Frontdoor (localhost), as a browser has

    def sign_in_at_apache():
        sent = jar.get(protected(apache), allow_redirects=False, timeout=30)
        assert sent.status_code == 302 and sent.headers["Location"].startswith(stack.issuer + "/oidc/authorize?"), sent.text
        outcome = authorize(person, sent.headers["Location"])
        assert outcome.location and outcome.location.startswith(apache.origin + "/private/redirect_uri?"), outcome
        landed = jar.get(outcome.location, timeout=30)   # mod_auth_openidc redeems the code, then the page it protects
        assert landed.status_code == 200 and landed.url == protected(apache), (landed.status_code, landed.text[:300])
        return claims(landed.text)

    seen = sign_in_at_apache()
    assert seen["OIDC_CLAIM_email"] == person.email and seen["OIDC_CLAIM_groups"] == "staff"
    assert seen["OIDC_CLAIM_preferred_username"] == person.username == seen["REMOTE_USER"]
    assert seen["OIDC_CLAIM_iss"] == stack.issuer and seen["OIDC_CLAIM_acr"] == "urn:frontdoor:1fa"

    back = apache.origin + "/loggedout.html"
    out = jar.get(apache.origin + "/private/redirect_uri?logout=" + quote(back, safe=""), allow_redirects=False, timeout=30)
    assert out.status_code == 302 and out.headers["Location"].startswith(stack.issuer + "/oidc/logout?")
    ended = person.browser.get(out.headers["Location"])
    assert ended.status_code in (302, 303) and ended.headers["Location"] == back
    assert person.browser.get("/settings").status_code in (302, 303), "signed out of Frontdoor"
    assert jar.get(protected(apache), allow_redirects=False, timeout=30).status_code == 302, "and of the app"

    sign_in_at_apache()
    cookies = {c.name: c.value for c in jar.cookies if c.name.startswith("mod_auth_openidc_session")}
    assert cookies and apache_lets_in(apache, cookies)
    person.sign_out()
    wait_for(lambda: not apache_lets_in(apache, cookies), what="the back-channel logout to end the Apache session")


def test_a_password_sign_in_lands_with_the_claims_and_logout_ends_both_sessions(stack, apache, driver):
    person = new_person(stack, prefix="apache", signed_in=False)
    in_group(stack, person, "staff")
    driver.get(protected(apache))
    page_wait(driver).until(lambda d: d.current_url.startswith(stack.base + "/sign_in"))
    loaded(driver)
    fill(driver, email=person.email, password=PASSWORD)
    submit(driver)
    allow_if_asked(driver, apache)
    seen = on_the_claims_page(driver, apache)
    assert seen["OIDC_CLAIM_email"] == person.email
    assert seen["OIDC_CLAIM_preferred_username"] == person.username == seen["REMOTE_USER"]
    assert seen["OIDC_CLAIM_groups"] == "staff"
    assert seen["OIDC_CLAIM_iss"] == stack.issuer and seen["OIDC_CLAIM_aud"] == "apache"
    assert seen["OIDC_CLAIM_acr"] == "urn:frontdoor:1fa"

    back = apache.origin + "/loggedout.html"
    driver.get(apache.origin + "/private/redirect_uri?logout=" + quote(back, safe=""))
    page_wait(driver).until(lambda d: d.current_url.startswith(back) and d.find_elements(By.ID, "out"))
    driver.get(stack.base + "/settings")
    page_wait(driver).until(lambda d: "/sign_in" in d.current_url)   # signed out of Frontdoor too
    driver.get(protected(apache))
    page_wait(driver).until(lambda d: d.current_url.startswith(stack.base + "/sign_in"))


def test_a_passkey_sign_in_lands_with_two_factors_and_signing_out_of_frontdoor_ends_the_apache_session(
        stack, apache, driver):
    email = sign_up(driver, stack)
    add_passkey(driver, stack, "Laptop")
    sign_out(driver, stack)
    driver.get(protected(apache))
    page_wait(driver).until(lambda d: d.current_url.startswith(stack.base + "/sign_in"))
    loaded(driver)
    button = page_wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "form[data-passkey=sign_in] button"))
    page_wait(driver).until(lambda d: button.is_displayed())
    button.click()
    allow_if_asked(driver, apache)
    seen = on_the_claims_page(driver, apache)
    assert seen["OIDC_CLAIM_email"] == email
    assert seen["OIDC_CLAIM_acr"] == "urn:frontdoor:2fa" and seen["OIDC_CLAIM_amr"] == "mfa"

    cookies = apache_session_cookie(driver, apache)
    assert cookies and apache_lets_in(apache, cookies)
    sign_out(driver, stack)   # on Frontdoor's own page: mod_auth_openidc hears it on the back channel
    wait_for(lambda: not apache_lets_in(apache, cookies), what="the back-channel logout to end the Apache session")
