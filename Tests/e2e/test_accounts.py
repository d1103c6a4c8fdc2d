"""Several accounts in one browser, and re-authentication, through nginx: sign in to another account, switch, sign
out of one or all (requests, and Chromium through selenium); a stale session asked for its password again."""
import hashlib
import base64

from selenium.webdriver.common.by import By

from chromium_driver import page_wait
from http_client import Browser
from users import unique_email

PASSWORD = "correct horse battery"


def new_account(stack, prefix):
    """A confirmed account (confirmation is off in `stack`); its sign-up session is signed out again."""
    email = unique_email(prefix)
    browser = Browser(stack)
    assert browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    browser.post("/sign_out", {})
    return email


def account_of(stack, token):
    """The primary address of the account whose session the cookie value `token` is (None when no live session)."""
    digest = hashlib.sha256(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))).digest()
    rows = stack.query("SELECT e.address FROM session s JOIN emailAddress e ON e.accountId = s.accountId AND e.isPrimary "
                       "WHERE s.digest = ?", digest)
    return rows[0][0] if rows else None


def test_two_accounts_switch_and_sign_out_one_then_all(stack):
    ann, bob = new_account(stack, "ann"), new_account(stack, "bob")
    browser = Browser(stack)
    assert browser.post("/sign_in", {"email": ann, "password": PASSWORD}).status_code == 303
    page = browser.get("/sign_in?add=1")
    assert page.status_code == 200 and 'name="add" value="1"' in page.text
    assert browser.post("/sign_in", {"email": bob, "password": PASSWORD, "add": "1"}).status_code == 303
    assert account_of(stack, browser.cookie("frontdoor_session")) == bob, "the new account is active"
    waiting = browser.cookie("frontdoor_accounts")
    assert waiting and account_of(stack, waiting) == ann, "ann waits in the switcher cookie"

    home = browser.get("/").text
    assert f"Signed in as {bob}" in home and f"Switch to {ann}" in home
    handle = home.split('name="to" value="', 1)[1].split('"', 1)[0]
    assert browser.post("/switch", {"to": handle}).headers["Location"] == "/account/"
    assert account_of(stack, browser.cookie("frontdoor_session")) == ann
    assert f"Signed in as {ann}" in browser.get("/").text

    # Signing out of the active account leaves the other one signed in, and active.
    out = browser.post("/sign_out", {})
    assert out.headers["Location"] == "/account/"
    assert account_of(stack, browser.cookie("frontdoor_session")) == bob
    assert "Signed out of that account." in browser.get("/").text

    assert browser.post("/sign_in", {"email": ann, "password": PASSWORD, "add": "1"}).status_code == 303
    tokens = [browser.cookie("frontdoor_session"), browser.cookie("frontdoor_accounts")]
    everything = browser.post("/sign_out", {"scope": "all"})
    assert everything.headers["Location"] == "/account/sign_in"
    assert all(account_of(stack, token) is None for token in tokens), "both sessions ended on the server"
    assert browser.get("/").status_code == 302


def test_a_stale_session_is_asked_for_its_password_again(stack):
    email = new_account(stack, "stale")
    browser = Browser(stack)
    browser.post("/sign_in", {"email": email, "password": PASSWORD})
    token = browser.cookie("frontdoor_session")
    digest = hashlib.sha256(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))).digest()
    stack.query("UPDATE session SET authenticatedAt = 0 WHERE digest = ?", digest)

    page = browser.get("/settings/reauthenticate?rd=/account/settings/emails")
    assert page.status_code == 200 and 'name="rd" value="/account/settings/emails"' in page.text
    wrong = browser.post("/settings/reauthenticate", {"password": "not the password", "rd": "/account/settings/emails"})
    assert wrong.status_code == 200 and "Password is not correct" in wrong.text
    right = browser.post("/settings/reauthenticate", {"password": PASSWORD, "rd": "/account/settings/emails"})
    assert right.status_code == 303 and right.headers["Location"] == "/account/settings/emails"
    assert stack.query("SELECT authenticatedAt > 0 FROM session WHERE digest = ?", digest) == [(1,)]
    assert stack.query("SELECT COUNT(*) FROM audit WHERE event = 'reauthenticated' AND email = ?", email) == [(1,)]
    assert stack.query("SELECT COUNT(*) FROM audit WHERE event = 'sign_in_failed' AND email = ?", email) == [(1,)]


def test_chromium_signs_in_to_two_accounts_and_switches(stack, chromium):
    ann, bob = new_account(stack, "ann"), new_account(stack, "bob")
    wait = page_wait(chromium)

    def sign_in(url, email):
        chromium.get(url)
        chromium.find_element(By.ID, "email").send_keys(email)
        chromium.find_element(By.ID, "password").send_keys(PASSWORD)
        chromium.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        wait.until(lambda d: "Signed in as" in d.find_element(By.TAG_NAME, "main").text)

    def active():
        return account_of(stack, chromium.get_cookie("frontdoor_session")["value"])

    sign_in(stack.base + "/sign_in", ann)
    assert f"Signed in as {ann}" in chromium.find_element(By.TAG_NAME, "main").text
    chromium.find_element(By.CSS_SELECTOR, ".account-menu summary").click()
    chromium.find_element(By.LINK_TEXT, "Sign in to another account").click()
    wait.until(lambda d: "Sign in to another account" in d.find_element(By.TAG_NAME, "h1").text)
    sign_in(chromium.current_url, bob)
    assert f"Signed in as {bob}" in chromium.find_element(By.TAG_NAME, "main").text and active() == bob

    # The switcher lists ann; choosing her makes her account the active one (the one the gate and BrowserID use).
    chromium.find_element(By.CSS_SELECTOR, ".account-menu summary").click()
    chromium.find_element(By.CSS_SELECTOR, f"button[aria-label='Switch to {ann}']").click()
    wait.until(lambda d: f"Signed in as {ann}" in d.find_element(By.TAG_NAME, "main").text)
    assert active() == ann
    chromium.find_element(By.CSS_SELECTOR, ".account-menu summary").click()
    chromium.find_element(By.CSS_SELECTOR, f"button[aria-label='Switch to {bob}']").click()
    wait.until(lambda d: f"Signed in as {bob}" in d.find_element(By.TAG_NAME, "main").text)
    assert active() == bob

    # Sign out of all: both sessions end.
    chromium.find_element(By.CSS_SELECTOR, ".account-menu summary").click()
    chromium.find_element(By.XPATH, "//button[normalize-space()='Sign out of all accounts']").click()
    wait.until(lambda d: "/sign_in" in d.current_url)
    assert chromium.get_cookie("frontdoor_session") is None or not chromium.get_cookie("frontdoor_session")["value"]
    assert stack.query("SELECT COUNT(*) FROM session s JOIN emailAddress e ON e.accountId = s.accountId "
                       "WHERE e.address IN (?, ?)", ann, bob) == [(0,)]
