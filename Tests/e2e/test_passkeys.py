"""Passkeys end to end: Chromium with WebDriver's virtual authenticator (CTAP2, resident keys, user verification) on a
stack whose public_url is http://localhost:<port> (a secure context over http, and the RP ID `localhost`): add a
passkey on the settings page, sign out, sign in with the button and no address typed, rename, remove; the answer of a
sign-in posted a second time is refused. Without a browser, a software authenticator (soft_authenticator.py) lies on
purpose: a credential made for another RP ID, another origin, or without user verification is refused, and the same
authenticator telling the truth is accepted.
"""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions

from chromium_driver import make_chromium, page_wait
from http_client import Browser
from look import PASSWORD, loaded, sign_up, submit
from mails import outbox_newest_first, read_mail
from soft_authenticator import SoftAuthenticator
from stack import Stack, running
from test_gate import upstream  # noqa: F401  (a fixture: the protected app)
from waits import wait_for

# Records the body of every POST to passkeys/sign_in in localStorage (kept across the page change that follows it).
CAPTURE = """
const realFetch = window.fetch;
window.fetch = function (url, options) {
  if (String(url).endsWith("/passkeys/sign_in") && options && options.body) {
    localStorage.setItem("captured", String(options.body));
  }
  return realFetch.apply(this, arguments);
};
"""


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    yield from running(Stack(tmp_path_factory.mktemp("passkeys"), {"confirmation.required": "false", "mail.transport": "outbox"},
                             host="localhost"))


# The virtual authenticator answers an autofill (conditional) request at once, as if the person had picked the passkey
# in the address field: tests of the button turn autofill off first, so the button is what signs in.
NO_AUTOFILL = "PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);"


def another_authenticator(chromium):
    """A new virtual authenticator in place of the one there was (one authenticator holds one passkey per account:
    the registration's exclude list makes it refuse a second)."""
    if chromium.virtual_authenticator_id:
        chromium.remove_virtual_authenticator()
    chromium.add_virtual_authenticator(VirtualAuthenticatorOptions(
        protocol=Protocol.CTAP2, transport=Transport.INTERNAL, has_resident_key=True, has_user_verification=True,
        is_user_verified=True, is_user_consenting=True))


def chromium_with_authenticator(autofill):
    chromium = make_chromium()
    if not autofill:
        chromium.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NO_AUTOFILL})
    another_authenticator(chromium)
    return chromium


@pytest.fixture
def driver():
    chromium = chromium_with_authenticator(autofill=False)
    yield chromium
    chromium.quit()


@pytest.fixture
def autofill_driver():
    chromium = chromium_with_authenticator(autofill=True)
    yield chromium
    chromium.quit()


def mailed(stack, email, subject):
    """Waits for a mail to `email` whose subject holds `subject`."""
    def found():
        return any(email in path.read_text(errors="replace") and subject in str(read_mail(path.read_bytes())["Subject"])
                   for path in outbox_newest_first(stack))
    return wait_for(found, what=f"a mail '{subject}' to {email}")


def account_id(stack, email):
    return stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email.lower())[0][0]


def passkey_names(driver):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".passkey .passkey-name")]


def flash(driver):
    return " ".join(e.text for e in driver.find_elements(By.CSS_SELECTOR, ".flash"))


def add_passkey(driver, stack, name):
    driver.get(stack.base + "/settings/passkeys")
    loaded(driver)
    form = page_wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "form[data-passkey=register]"))
    page_wait(driver).until(lambda d: form.is_displayed())
    field = driver.find_element(By.ID, "passkey_name")
    field.clear()
    field.send_keys(name)
    before = len(passkey_names(driver))
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    page_wait(driver).until(lambda d: len(passkey_names(d)) == before + 1)
    assert "The passkey was added" in flash(driver)


def sign_out(driver, stack):
    driver.get(stack.base + "/sign_out")
    submit(driver)
    assert not driver.find_elements(By.CSS_SELECTOR, ".whoami")


def sign_in_with_the_button(driver, stack, load=True):
    if load:
        driver.get(stack.base + "/sign_in")
        loaded(driver)
    button = page_wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "form[data-passkey=sign_in] button"))
    page_wait(driver).until(lambda d: button.is_displayed())
    button.click()
    page_wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".whoami"))


def test_add_a_passkey_sign_out_and_sign_in_with_the_button_and_no_address(stack, driver):
    email = sign_up(driver, stack)
    add_passkey(driver, stack, "Work laptop")
    assert passkey_names(driver) == ["Work laptop"]
    credentials = driver.get_credentials()
    assert len(credentials) == 1 and credentials[0].is_resident_credential and credentials[0].rp_id == "localhost"
    owner = account_id(stack, email)
    assert stack.query("SELECT name, algorithm FROM passkey WHERE accountId = ?", owner) == [("Work laptop", -7)]
    mailed(stack, email, "A passkey was added")

    sign_out(driver, stack)
    sign_in_with_the_button(driver, stack)
    assert driver.find_element(By.CSS_SELECTOR, ".whoami").text == email
    assert stack.query("SELECT detail FROM audit WHERE accountId = ? AND event = 'sign_in' ORDER BY id DESC LIMIT 1", owner) \
        == [("passkey",)]
    driver.get(stack.base + "/settings/passkeys")
    assert driver.find_element(By.CSS_SELECTOR, ".passkey time[datetime]") is not None
    assert stack.query("SELECT lastUsedAt IS NOT NULL FROM passkey WHERE accountId = ?", owner)[0][0] in (1, True)


def test_the_address_field_offers_passkeys_in_its_autofill(stack, autofill_driver):
    """With conditional mediation the sign-in page asks for a passkey as it loads, quietly; the virtual authenticator
    picks its one passkey as a person would in the address field's autofill, and the page signs in."""
    driver = autofill_driver
    email = sign_up(driver, stack)
    add_passkey(driver, stack, "Autofill")
    assert 'autocomplete="username webauthn"' in Browser(stack).get("/sign_in").text
    driver.delete_all_cookies()
    driver.get(stack.base + "/sign_in")
    page_wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".whoami"))
    assert driver.find_element(By.CSS_SELECTOR, ".whoami").text == email
    owner = account_id(stack, email)
    assert stack.query("SELECT detail FROM audit WHERE accountId = ? AND event = 'sign_in' ORDER BY id DESC LIMIT 1", owner) \
        == [("passkey",)]


def test_the_same_authenticator_is_not_added_twice(stack, driver):
    sign_up(driver, stack)
    add_passkey(driver, stack, "Once")
    form = driver.find_element(By.CSS_SELECTOR, "form[data-passkey=register]")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    message = form.find_element(By.CSS_SELECTOR, "[data-passkey-message]")
    page_wait(driver).until(lambda d: message.is_displayed())
    assert message.text == "This passkey is already registered."
    assert passkey_names(driver) == ["Once"]


def test_rename_and_remove_a_passkey(stack, driver):
    email = sign_up(driver, stack)
    add_passkey(driver, stack, "Phone")
    item = driver.find_element(By.CSS_SELECTOR, ".passkey")
    field = item.find_element(By.CSS_SELECTOR, "input[name=name]")
    field.clear()
    field.send_keys("Old phone")
    submit(driver, ".passkey .passkey-rename button[type=submit]")
    assert passkey_names(driver) == ["Old phone"]
    assert "renamed" in flash(driver)

    submit(driver, ".passkey button[data-remove]")
    assert passkey_names(driver) == []
    assert "removed" in flash(driver)
    owner = account_id(stack, email)
    assert stack.query("SELECT COUNT(*) FROM passkey WHERE accountId = ?", owner)[0][0] == 0
    events = [row[0] for row in stack.query("SELECT event FROM audit WHERE accountId = ? ORDER BY id", owner)]
    assert [e for e in events if e.startswith("passkey_")] == ["passkey_added", "passkey_renamed", "passkey_removed"]
    mailed(stack, email, "A passkey was removed")


def test_a_sign_in_answer_posted_again_is_refused(stack, driver):
    email = sign_up(driver, stack)
    add_passkey(driver, stack, "Key")
    sign_out(driver, stack)
    driver.get(stack.base + "/sign_in")
    loaded(driver)
    driver.execute_script(CAPTURE)
    sign_in_with_the_button(driver, stack, load=False)
    captured = driver.execute_script("return localStorage.getItem('captured')")
    assert captured and "credential=" in captured
    sign_ins = stack.query("SELECT COUNT(*) FROM audit WHERE accountId = ? AND event = 'sign_in'", account_id(stack, email))[0][0]

    # The same body again, from the signed-in browser (its cookies, and its session's form token).
    browser = Browser(stack)
    for cookie in driver.get_cookies():
        browser.session.cookies.set(cookie["name"], cookie["value"], path=cookie.get("path", "/"))
    fields = dict(pair.split("=", 1) for pair in captured.split("&"))
    from urllib.parse import unquote_plus
    fields = {name: unquote_plus(value) for name, value in fields.items()}
    fields["csrf_token"] = browser.token("/settings/passkeys")
    answer = browser.post("/passkeys/sign_in", fields, csrf=False)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "passkey_challenge_invalid"
    assert stack.query("SELECT COUNT(*) FROM audit WHERE accountId = ? AND event = 'sign_in'", account_id(stack, email))[0][0] \
        == sign_ins


# Without a browser: the software authenticator.

def signed_in_browser(stack):
    from users import unique_email
    email = unique_email("soft")
    browser = Browser(stack)
    assert browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    return browser, email


def options(browser, path, token):
    answer = browser.post(path, {"csrf_token": token}, csrf=False)
    assert answer.status_code == 200, answer.text
    return answer.json()["publicKey"]


def register(browser, authenticator, **lie):
    token = browser.token("/settings/passkeys")
    answer = browser.post("/passkeys/register", {"csrf_token": token, "name": "soft",
                                                 "credential": authenticator.create(options(browser, "/passkeys/register/options", token), **lie)},
                          csrf=False)
    return answer


def sign_in(stack, authenticator, **lie):
    browser = Browser(stack)
    token = browser.token("/sign_in")
    answer = browser.post("/passkeys/sign_in", {"csrf_token": token,
                                                "credential": authenticator.get(options(browser, "/passkeys/sign_in/options", token), **lie)},
                          csrf=False)
    return answer, browser


def origin(stack):
    return stack.base.rsplit("/account", 1)[0]


@pytest.mark.parametrize("lie", [{"rp_id": "example.com"}, {"origin": "http://localhost:1"}, {"flags": 0x01}],
                         ids=["another RP ID", "another origin", "no user verification"])
def test_a_registration_that_lies_is_refused_and_the_truth_is_accepted(stack, lie):
    browser, email = signed_in_browser(stack)
    authenticator = SoftAuthenticator(origin(stack), "localhost")
    refused = register(browser, authenticator, **lie)
    assert refused.status_code == 400 and refused.json()["error"] == "passkey_invalid", refused.text
    assert stack.query("SELECT COUNT(*) FROM passkey WHERE accountId = ?", account_id(stack, email))[0][0] == 0
    accepted = register(browser, authenticator)
    assert accepted.status_code == 200 and accepted.json()["redirect"].endswith("/settings/passkeys"), accepted.text


@pytest.mark.parametrize("lie", [{"rp_id": "example.com"}, {"origin": "http://localhost:1"}, {"flags": 0x01}],
                         ids=["another RP ID", "another origin", "no user verification"])
def test_a_sign_in_that_lies_is_refused_and_the_truth_is_accepted(stack, lie):
    browser, email = signed_in_browser(stack)
    authenticator = SoftAuthenticator(origin(stack), "localhost")
    assert register(browser, authenticator).status_code == 200
    refused, _ = sign_in(stack, authenticator, **lie)
    assert refused.status_code == 400 and refused.json()["error"] == "passkey_invalid", refused.text
    accepted, signed_in = sign_in(stack, authenticator)
    assert accepted.status_code == 200, accepted.text
    assert email in signed_in.get("/settings").text
    failures = stack.query("SELECT detail FROM audit WHERE accountId = ? AND event = 'sign_in_failed'", account_id(stack, email))
    assert len(failures) == 1 and failures[0][0].startswith("passkey (sign_in): ")


def test_a_challenge_is_for_one_purpose_and_one_browser(stack):
    browser, _ = signed_in_browser(stack)
    authenticator = SoftAuthenticator(origin(stack), "localhost")
    assert register(browser, authenticator).status_code == 200
    # A sign-in challenge answered to the re-authentication endpoint: refused.
    token = browser.token("/settings/passkeys")
    answer = authenticator.get(options(browser, "/passkeys/sign_in/options", token))
    refused = browser.post("/passkeys/reauthenticate", {"csrf_token": token, "credential": answer}, csrf=False)
    assert refused.status_code == 400 and refused.json()["error"] == "passkey_challenge_invalid"
    # A sign-in challenge asked by one browser, answered from another: refused.
    other = Browser(stack)
    challenge = options(browser, "/passkeys/sign_in/options", token)
    other_token = other.token("/sign_in")
    other.session.cookies.set("frontdoor_oauth", "A" * 43)
    refused = other.post("/passkeys/sign_in", {"csrf_token": other_token, "credential": authenticator.get(challenge)}, csrf=False)
    assert refused.status_code == 400 and refused.json()["error"] == "passkey_challenge_invalid"


def test_a_passkey_confirms_it_is_you_before_a_removal(stack, driver):
    """A stale sign-in: removing a passkey leads to "Confirm it's you", where the passkey answers, and back."""
    email = sign_up(driver, stack)
    add_passkey(driver, stack, "First")
    another_authenticator(driver)
    add_passkey(driver, stack, "Second")
    stack.query("UPDATE session SET authenticatedAt = 0 WHERE accountId = ?", account_id(stack, email))
    submit(driver, ".passkey button[data-remove]")
    assert "/settings/reauthenticate" in driver.current_url
    button = page_wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "form[data-passkey=reauthenticate] button"))
    page_wait(driver).until(lambda d: button.is_displayed())
    button.click()
    page_wait(driver).until(lambda d: d.current_url.endswith("/settings/passkeys"))
    submit(driver, ".passkey button[data-remove]")
    assert passkey_names(driver) == ["Second"]
    assert stack.query("SELECT detail FROM audit WHERE accountId = ? AND event = 'reauthenticated'", account_id(stack, email)) == [("passkey",)]


# Two factors: a password then the passkey, and the gate's FRONTDOOR_REQUIRE=2fa.

def test_a_password_sign_in_asks_for_the_passkey_as_the_second_factor(stack, driver):
    email = sign_up(driver, stack)
    add_passkey(driver, stack, "Second factor")
    sign_out(driver, stack)
    driver.get(stack.base + "/sign_in")
    loaded(driver)
    driver.find_element(By.ID, "email").send_keys(email)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    submit(driver, "main form:not([data-passkey]) button[type=submit]")
    assert "/sign_in/second_factor" in driver.current_url
    assert not driver.find_elements(By.CSS_SELECTOR, ".whoami"), "the password alone does not sign in"
    button = page_wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "form[data-passkey=second_factor] button"))
    page_wait(driver).until(lambda d: button.is_displayed())
    button.click()
    page_wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".whoami"))
    owner = account_id(stack, email)
    assert stack.query("SELECT factors FROM session WHERE accountId = ?", owner) == [(2,)]
    assert stack.query("SELECT detail FROM audit WHERE accountId = ? AND event = 'sign_in' ORDER BY id DESC LIMIT 1", owner) \
        == [("second factor",)]


@pytest.fixture(scope="module")
def gated(tmp_path_factory, upstream):  # noqa: F811
    from test_gate_two_factor import server_files
    yield from running(Stack(tmp_path_factory.mktemp("passkeys-gate"), {"confirmation.required": "false", "mail.transport": "outbox"},
                             server_files(upstream), host="localhost"))


def test_a_passkey_session_passes_a_gate_that_requires_two_factors(gated, driver):
    email = sign_up(driver, gated)
    page = f"http://localhost:{gated.port}/secure/report"
    driver.get(page)
    assert "/sign_in/second_factor" in driver.current_url, "a password session has one factor"
    add_passkey(driver, gated, "Gate")
    sign_out(driver, gated)
    sign_in_with_the_button(driver, gated)
    driver.get(page)
    assert "protected page /report" in driver.page_source
    assert gated.query("SELECT factors FROM session WHERE accountId = ?", account_id(gated, email)) == [(2,)]
