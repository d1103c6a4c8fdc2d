"""The look and accessibility pass (look.py) for the pages of the OpenID Connect provider (issue 38): the consent
page of an app that is not first party (openid profile email groups), Settings → Connected apps with that app listed
(then disconnected: the notice and the empty list), the account chooser (prompt=select_account with two signed-in
accounts), the error page of an unregistered redirect URI, the device page (the code form, an unknown code, the
confirmation of an app, its approved and denied messages, the refusal of an app whose allow rule leaves the person
out), and the logout an app starts (the confirmation without id_token_hint while signed in, the signed-out page).
English, French and German, 360 px and 1280 px wide, light and dark; and the consent page's buttons with the keyboard
alone.

One stack and one Chromium for the module; each test signs up its own account in its language and walks its pages
through every look (width × scheme), collecting the problems so each look gets its screenshot (as
test_look_two_step.py). Redirect URIs are loopback ports nothing listens on: Chromium shows its own error page there,
and the tests read only the URL.
"""
import base64
import hashlib
import secrets
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from chromium_driver import page_wait
from http_client import Browser
from look import (ALL_LANGS, LANGS, LOOKS, PASSWORD, WIDTHS, check_page, checked, driver, each_look, fill, language_cookie,  # noqa: F401 (driver: a fixture)
                  on_stack, prepare, show, sign_up, submit)
from oidc import Client, callback_uri, discovery, oidc_stack, token_request
from test_keyboard import focused, press, tab_until
from users import unique_email

APP = Client("photos", [callback_uri()], name="Photo Album", post_logout_redirect_uris=[callback_uri("signed-out")])
STAFF = Client("staff-tools", [callback_uri()], name="Staff Tools", allow="group:staff")   # nobody here is staff
SCOPES = "openid profile email groups"


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    yield from oidc_stack(tmp_path_factory, [APP, STAFF], config={"session.reauthenticate_after": "1d"})


def fresh(driver, stack, lang):
    """A browser with no session, speaking `lang` (the stack's cookies go, wherever the last test left the browser)."""
    on_stack(driver, stack)
    driver.delete_all_cookies()
    language_cookie(driver, stack, lang)


def authorization(stack, redirect_uri=None, **params):
    """An authorization request of the app (code flow, PKCE S256, state and nonce)."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = {"client_id": APP.id, "response_type": "code", "scope": SCOPES, "redirect_uri": redirect_uri or APP.redirect_uri,
             "state": secrets.token_urlsafe(12), "nonce": secrets.token_urlsafe(12), "code_challenge": challenge,
             "code_challenge_method": "S256", **params}
    return discovery(stack)["authorization_endpoint"] + "?" + urlencode(query)


def at(path):
    """An `arrived` check: the browser ended on `path` (under the base)."""
    def check(driver):
        assert urlsplit(driver.current_url).path.endswith(path), driver.current_url
    return check


def on_consent(driver):
    at("/oidc/consent")(driver)
    assert len(driver.find_elements(By.CSS_SELECTOR, "main .consent-scopes li")) == 4, "one line per scope"


# MARK: - Consent and connected apps


@pytest.mark.parametrize("lang", ALL_LANGS)
def test_the_consent_page_and_the_connected_app(stack, driver, lang):
    fresh(driver, stack, lang)
    sign_up(driver, stack)
    url = authorization(stack)
    failures = each_look(driver, url, "oidc_consent", lang, on_consent)

    submit(driver, "main form button[value=allow]")
    assert driver.current_url.startswith(APP.redirect_uri + "?") and "code=" in driver.current_url, driver.current_url

    def listed(d):
        at("/settings/apps")(d)
        assert [e.get_attribute("data-client") for e in d.find_elements(By.CSS_SELECTOR, "main .connection")] == [APP.id]
    failures += each_look(driver, stack.base + "/settings/apps", "settings_apps", lang, listed)

    prepare(driver, WIDTHS[-1])
    submit(driver, f"main button[data-revoke='{APP.id}']")   # Disconnect: the notice, then the empty list
    assert driver.find_elements(By.CSS_SELECTOR, "main .flash-notice"), "the disconnection's notice"
    failures += checked(driver, "settings_apps_revoked", WIDTHS[-1], lang)

    def empty(d):
        at("/settings/apps")(d)
        assert not d.find_elements(By.CSS_SELECTOR, "main .connection")
    failures += each_look(driver, stack.base + "/settings/apps", "settings_apps_empty", lang, empty)
    assert failures == [], "\n".join(failures)


@pytest.mark.parametrize("width", WIDTHS)
def test_allow_and_dont_allow_are_reached_by_tab_with_a_visible_focus(stack, driver, width):
    fresh(driver, stack, "en")
    sign_up(driver, stack)
    show(driver, authorization(stack), width)
    on_consent(driver)
    seen = tab_until(driver, lambda f: f["name"] == "decision" and f["value"] == "allow")
    press(driver, Keys.TAB)
    seen.append(focused(driver))
    assert (seen[-1]["name"], seen[-1]["value"]) == ("decision", "deny"), seen[-1]
    for button in seen[-2:]:
        assert button["outline"] != "none" and button["focusVisible"], f"no focus ring on {button}"
        assert button["inside"], f"{button['text']} scrolled into view when focused"
    press(driver, Keys.ENTER)   # Don't allow: the app hears access_denied
    page_wait(driver).until(lambda d: d.current_url.startswith(APP.redirect_uri + "?"))
    assert parse_qs(urlsplit(driver.current_url).query)["error"] == ["access_denied"]


# MARK: - The account chooser


def second_account(stack, lang):
    """An account made with a plain HTTP client in `lang`, signed out again: (email, password)."""
    email, browser = unique_email("second"), Browser(stack)
    browser.session.cookies.set("frontdoor_lang", lang)
    answer = browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert answer.status_code == 303, answer.text[:300]
    return email


@pytest.mark.parametrize("lang", ALL_LANGS)
def test_the_account_chooser_with_two_signed_in_accounts(stack, driver, lang):
    fresh(driver, stack, lang)
    first = sign_up(driver, stack)
    second = second_account(stack, lang)
    driver.get(stack.base + "/sign_in?add=1")
    fill(driver, email=second, password=PASSWORD)
    submit(driver)

    def chooser(d):
        at("/oidc/select_account")(d)
        assert second in d.find_element(By.CSS_SELECTOR, "main .account-choices a[data-account=current]").text
        assert [first in b.text for b in d.find_elements(By.CSS_SELECTOR, "main .account-choices button")] == [True]
    failures = each_look(driver, authorization(stack, prompt="select_account"), "oidc_select_account", lang, chooser)
    assert failures == [], "\n".join(failures)


# MARK: - An unregistered redirect URI


@pytest.mark.parametrize("lang", LANGS)
def test_the_error_page_of_an_unregistered_redirect_uri(stack, driver, lang):
    fresh(driver, stack, lang)
    wrong = callback_uri("unregistered")

    def error(d):
        at("/oidc/authorize")(d)
        assert d.find_elements(By.CSS_SELECTOR, "main h1") and wrong not in d.page_source
    failures = each_look(driver, authorization(stack, redirect_uri=wrong), "oidc_error_redirect_uri", lang, error)
    assert failures == [], "\n".join(failures)


# MARK: - The device page


def device_code(stack, client=APP):
    """The user code of a new device authorization of `client`."""
    answer = token_request(stack, client, {"scope": SCOPES, "_endpoint": discovery(stack)["device_authorization_endpoint"]})
    assert answer.status_code == 200, answer.text
    return answer.json()["user_code"]


def confirming(driver):
    at("/device")(driver)
    assert driver.find_elements(By.CSS_SELECTOR, "main button#approve"), "the confirmation of the app"


@pytest.mark.parametrize("lang", ALL_LANGS)
def test_the_device_pages(stack, driver, lang):
    fresh(driver, stack, lang)
    sign_up(driver, stack)
    page = stack.base + "/device"
    failures = each_look(driver, page, "oidc_device", lang, lambda d: d.find_element(By.ID, "user_code"))
    failures += each_look(driver, page + "?user_code=ZZZZ-ZZZZ", "oidc_device_unknown", lang,
                          lambda d: d.find_element(By.CSS_SELECTOR, "main .form-error"))

    def refused(d):
        assert not d.find_elements(By.CSS_SELECTOR, "main button#approve"), "no confirmation for an app refused"
    failures += each_look(driver, page + "?user_code=" + device_code(stack, STAFF), "oidc_device_refused", lang, refused)

    (width, dark), *_ = LOOKS
    show(driver, page, width, dark)
    fill(driver, user_code=device_code(stack).lower().replace("-", " "))   # as a person may type it
    submit(driver)
    confirming(driver)
    for outcome in ("approve", "deny"):
        for width, dark in LOOKS:
            show(driver, page + "?user_code=" + device_code(stack), width, dark)
            confirming(driver)
            if outcome == "approve":
                failures += checked(driver, "oidc_device_confirm", width, lang, dark)
            submit(driver, f"main button#{outcome}")
            assert not driver.find_elements(By.CSS_SELECTOR, "main button#approve"), f"{outcome}: {driver.current_url}"
            link = driver.find_element(By.CSS_SELECTOR, "main .links a").get_attribute("href")
            assert "/sign_in" not in link, f"signed in, the message leads home, not to sign-in: {link}"
            failures += checked(driver, {"approve": "oidc_device_approved", "deny": "oidc_device_denied"}[outcome], width, lang, dark)
    assert failures == [], "\n".join(failures)


# MARK: - Logout


@pytest.mark.parametrize("lang", LANGS)
def test_the_logout_confirmation_and_the_signed_out_page(stack, driver, lang):
    fresh(driver, stack, lang)
    email = sign_up(driver, stack)
    logout = discovery(stack)["end_session_endpoint"] + "?" + urlencode({"client_id": APP.id})

    def confirmation(d):
        at("/oidc/logout")(d)
        assert d.find_elements(By.CSS_SELECTOR, "main form button[type=submit]"), "the confirmation"
    failures = each_look(driver, logout, "oidc_logout_confirm", lang, confirmation)
    submit(driver)
    assert stack.query("SELECT COUNT(*) FROM session s JOIN emailAddress e ON e.accountId = s.accountId "
                       "WHERE e.address = ?", email) == [(0,)], "signed out"

    def signed_out(d):
        assert not d.find_elements(By.CSS_SELECTOR, "main form button[type=submit]"), "the signed-out page"
    failures += each_look(driver, logout, "oidc_logout_done", lang, signed_out)
    assert failures == [], "\n".join(failures)
