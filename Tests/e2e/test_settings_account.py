"""Settings through nginx: change the password, see and sign out sessions, delete the account (helper B).

Uses the `stack` fixture (confirmation off, mail to an outbox folder): a sign-up signs in at once, with a fresh
password entry, so re-authentication is needed only where a test makes it stale.
"""
import os
import re
import time

from http_client import Browser
from users import unique_email
from waits import wait_for

PASSWORD = "correct horse battery"
NEW_PASSWORD = "staple battery horse"
CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0"
HANDLE = re.compile(r'name="handle" value="([0-9a-f]{32})"')


def signed_up(stack, email=None, user_agent=None):
    """A Browser signed in to a new account; returns (browser, email)."""
    email = email or unique_email("acct")
    browser = Browser(stack)
    if user_agent:
        browser.session.headers["User-Agent"] = user_agent
    response = browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert response.status_code == 303, response.text
    return browser, email


def signed_in(stack, email, password=PASSWORD, user_agent=None, remember=False):
    browser = Browser(stack)
    if user_agent:
        browser.session.headers["User-Agent"] = user_agent
    response = browser.post("/sign_in", {"email": email, "password": password, **({"remember_me": "1"} if remember else {})})
    assert response.status_code == 303, response.text
    return browser


def is_signed_in(browser):
    response = browser.get("/")
    if response.status_code == 200:
        return True
    assert response.status_code == 302 and response.headers["Location"].startswith("/account/sign_in"), response.headers
    return False


def sign_in_works(stack, email, password):
    return Browser(stack).post("/sign_in", {"email": email, "password": password}).status_code == 303


def account_id(stack, email):
    return stack.query("SELECT accountId FROM emailAddress WHERE address = ?", email)[0][0]


def password_hash(stack, email):
    return stack.query("SELECT a.passwordHash FROM account a JOIN emailAddress e ON e.accountId = a.id WHERE e.address = ?", email)[0][0]


def make_stale(stack, email):
    """The account's sessions entered the password long ago: sensitive changes ask for it again."""
    stack.query("UPDATE session SET authenticatedAt = 0 WHERE accountId = ?", account_id(stack, email))


def outbox_mail(stack, to, containing):
    """The text of an outbox mail to `to` that contains `containing` (waiting for the sender to write it)."""
    def find():
        if not stack.outbox.exists():
            return None
        for path in stack.outbox.glob("*.eml"):
            text = path.read_text()
            if to in text and containing in text:
                return text
        return None
    return wait_for(find, what=f"mail to {to} containing {containing!r}")


# MARK: - Password change

def test_password_change_shows_every_problem_and_never_the_passwords(stack):
    browser, email = signed_up(stack)
    before = password_hash(stack, email)
    page = browser.get("/settings/password")
    assert page.status_code == 200 and 'aria-current="page"' in page.text and "Change your password" in page.text

    wrong = browser.post("/settings/password", {"current_password": "not my password", "password": "short",
                                                "password_confirmation": "shirt"})
    assert wrong.status_code == 200
    assert '<p class="field-error" id="current_password-error">Current password is not correct</p>' in wrong.text
    assert '<p class="field-error" id="password-error">New password is too short (minimum is 12 characters)</p>' in wrong.text
    assert 'id="password_confirmation-error">Password confirmation doesn&#39;t match New password</p>' in wrong.text
    for typed in ("not my password", "short", "shirt"):
        assert f'value="{typed}"' not in wrong.text
    assert "Please correct the problems below." in wrong.text

    mismatch = browser.post("/settings/password", {"current_password": PASSWORD, "password": NEW_PASSWORD,
                                                   "password_confirmation": NEW_PASSWORD + "!"})
    assert mismatch.status_code == 200
    assert 'id="password_confirmation-error"' in mismatch.text and 'id="current_password-error"' not in mismatch.text
    assert 'id="password-error"' not in mismatch.text

    same = browser.post("/settings/password", {"current_password": PASSWORD, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert "New password must be different from your current password" in same.text

    assert password_hash(stack, email) == before
    assert sign_in_works(stack, email, PASSWORD)
    assert stack.query("SELECT COUNT(*) FROM mailQueue WHERE kind = 'password_changed' AND recipient = ?", email) == [(0,)]


def test_password_change_signs_out_the_other_browsers_keeps_this_one_and_mails(stack):
    browser, email = signed_up(stack)
    other = signed_in(stack, email)
    assert is_signed_in(other)

    response = browser.post("/settings/password", {"current_password": PASSWORD, "password": NEW_PASSWORD,
                                                   "password_confirmation": NEW_PASSWORD})
    assert response.status_code == 303 and response.headers["Location"] == "/account/settings/password"
    page = browser.get("/settings/password")
    assert page.status_code == 200 and "Your password was changed. Every other session was signed out." in page.text
    assert is_signed_in(browser), "this browser stays signed in"
    assert not is_signed_in(other), "the other browser is signed out"

    assert stack.query("SELECT COUNT(*) FROM mailQueue WHERE kind = 'password_changed' AND recipient = ?", email) == [(1,)]
    outbox_mail(stack, email, "password was changed")
    assert not sign_in_works(stack, email, PASSWORD)
    assert sign_in_works(stack, email, NEW_PASSWORD)
    detail = stack.query("SELECT detail FROM audit WHERE event = 'password_changed' AND accountId = ?", account_id(stack, email))
    assert detail == [("by its owner; 1 other session(s) ended",)]


def test_password_change_needs_a_recent_password_entry_and_the_csrf_token(stack):
    browser, email = signed_up(stack)
    before = password_hash(stack, email)
    assert browser.post("/settings/password", {"current_password": PASSWORD, "password": NEW_PASSWORD,
                                               "password_confirmation": NEW_PASSWORD}, csrf=False).status_code == 403
    make_stale(stack, email)
    shown = browser.get("/settings/password")
    assert shown.status_code == 302
    assert shown.headers["Location"] == "/account/settings/reauthenticate?rd=%2Faccount%2Fsettings%2Fpassword"
    posted = browser.post("/settings/password", {"current_password": PASSWORD, "password": NEW_PASSWORD,
                                                 "password_confirmation": NEW_PASSWORD})
    assert posted.status_code == 303
    assert posted.headers["Location"] == "/account/settings/reauthenticate?rd=%2Faccount%2Fsettings%2Fpassword"
    assert password_hash(stack, email) == before
    assert Browser(stack).get("/settings/password").headers["Location"].startswith("/account/sign_in"), "signed out: sign in first"


# MARK: - Sessions

def test_sessions_list_both_browsers_and_revoking_one_signs_it_out(stack):
    browser, email = signed_up(stack, user_agent=CHROME)
    other = signed_in(stack, email, user_agent=FIREFOX, remember=True)
    make_stale(stack, email)   # the list does not ask for the password again; signing another session out does

    page = browser.get("/settings/sessions")
    assert page.status_code == 200
    assert re.search(r"<strong>Chrome 120 on Linux</strong> <span class=\"session-this\">\(This browser\)</span>", page.text)
    assert "<strong>Firefox 121 on Windows</strong></p>" in page.text
    assert page.text.count("This browser") == 1
    # The list is ordered by when each session was last seen, which a slow run can change (a request more than a minute
    # after the last one refreshes it): each session is found by its browser, not by its place in the list.
    entries = {re.search(r"<strong>([^<]*)</strong>", item).group(1): item
               for item in re.findall(r'<li class="session[^"]*">(.*?)</li>', page.text, re.S)}
    assert sorted(entries) == ["Chrome 120 on Linux", "Firefox 121 on Windows"], sorted(entries)
    assert "Remembered on this device" in entries["Firefox 121 on Windows"], "the remembered one says so"
    assert "Remembered on this device" not in entries["Chrome 120 on Linux"]
    assert "127.0.0.1" in page.text and " UTC</time>" in page.text
    handles = HANDLE.findall(page.text)
    assert len(handles) == 1, "a sign-out button for the other session only"
    (mine,) = [digest[:16].hex() for digest, agent in stack.query("SELECT digest, userAgent FROM session WHERE accountId = ?",
                                                                  account_id(stack, email)) if agent == CHROME]
    assert handles[0] != mine

    # Another account's session cannot be named
    stranger, _ = signed_up(stack)
    assert stranger.post("/settings/sessions/revoke", {"handle": handles[0]}).status_code == 303
    assert is_signed_in(other)
    assert browser.post("/settings/sessions/revoke", {"handle": handles[0]}, csrf=False).status_code == 403
    assert is_signed_in(other)

    stale = browser.post("/settings/sessions/revoke", {"handle": handles[0]})
    assert stale.headers["Location"] == "/account/settings/reauthenticate?rd=%2Faccount%2Fsettings%2Fsessions"
    assert is_signed_in(other)
    assert browser.post("/settings/reauthenticate", {"password": PASSWORD, "rd": "/account/settings/sessions"}).status_code == 303
    revoked = browser.post("/settings/sessions/revoke", {"handle": handles[0]})
    assert revoked.status_code == 303 and revoked.headers["Location"] == "/account/settings/sessions"
    after = browser.get("/settings/sessions")
    assert "That session was signed out." in after.text and "Firefox" not in after.text
    assert "No other browser is signed in to your account." in after.text
    gone = other.get("/")
    assert gone.status_code == 302 and gone.headers["Location"].startswith("/account/sign_in"), "its next request is signed out"
    assert is_signed_in(browser)


def test_revoking_this_browsers_own_session_signs_it_out(stack):
    browser, email = signed_up(stack)
    ((digest,),) = stack.query("SELECT digest FROM session WHERE accountId = ?", account_id(stack, email))
    response = browser.post("/settings/sessions/revoke", {"handle": digest[:16].hex()})
    assert response.status_code == 303 and response.headers["Location"] == "/account/sign_in"
    assert not is_signed_in(browser)
    assert stack.query("SELECT COUNT(*) FROM session WHERE accountId = ?", account_id(stack, email)) == [(0,)]


def test_sign_out_everywhere_else(stack):
    browser, email = signed_up(stack)
    others = [signed_in(stack, email) for _ in range(3)]
    bystander, _ = signed_up(stack)
    assert len(HANDLE.findall(browser.get("/settings/sessions").text)) == 3
    response = browser.post("/settings/sessions/revoke_others", {})
    assert response.status_code == 303 and response.headers["Location"] == "/account/settings/sessions"
    assert "Every other session was signed out." in browser.get("/settings/sessions").text
    assert not any(is_signed_in(other) for other in others)
    assert is_signed_in(browser) and is_signed_in(bystander)
    assert stack.query("SELECT COUNT(*) FROM session WHERE accountId = ?", account_id(stack, email)) == [(1,)]
    assert browser.post("/settings/sessions/revoke_others", {}, csrf=False).status_code == 403


# MARK: - Deletion

def test_deletion_with_a_wrong_password_keeps_the_account(stack):
    browser, email = signed_up(stack)
    page = browser.get("/settings/delete")
    assert page.status_code == 200 and "Delete your account" in page.text and 'name="password"' in page.text
    wrong = browser.post("/settings/delete", {"password": "not my password"})
    assert wrong.status_code == 200
    assert '<p class="field-error" id="password-error">Password is not correct</p>' in wrong.text
    assert 'value="not my password"' not in wrong.text
    assert stack.query("SELECT COUNT(*) FROM emailAddress WHERE address = ?", email) == [(1,)]
    assert is_signed_in(browser) and sign_in_works(stack, email, PASSWORD)
    assert browser.post("/settings/delete", {"password": PASSWORD}, csrf=False).status_code == 403
    assert stack.query("SELECT COUNT(*) FROM emailAddress WHERE address = ?", email) == [(1,)]


def test_deletion_removes_everything_signs_out_and_says_goodbye(stack):
    browser, email = signed_up(stack)
    other = signed_in(stack, email)
    ident = account_id(stack, email)
    now = time.time()
    stack.query("INSERT INTO accountToken (digest, purpose, accountId, createdAt, expiresAt) VALUES (?, 'reset', ?, ?, ?)",
                os.urandom(32), ident, now, now + 3600)   # an outstanding reset link
    stack.query("INSERT INTO mailQueue (kind, sender, recipient, recipientKey, subject, message, messageId, createdAt, nextAttemptAt) "
                "VALUES ('sign_up_attempt', 'no-reply@frontdoor.test', ?, ?, 'held back', 'x', ?, ?, ?)",
                email, email.lower(), f"held-{time.time_ns()}", now, now + 3600)
    assert stack.query("SELECT COUNT(*) FROM audit WHERE accountId = ? AND email IS NOT NULL", ident)[0][0] >= 2

    response = browser.post("/settings/delete", {"password": PASSWORD})
    assert response.status_code == 303 and response.headers["Location"] == "/account/sign_in"
    cleared = [c for c in response.raw.headers.getlist("Set-Cookie") if c.startswith("frontdoor_session=")]
    assert cleared and cleared[0].startswith("frontdoor_session=;") and "Max-Age=0" in cleared[0]
    landing = browser.get("/sign_in")
    assert landing.status_code == 200 and "Your account was deleted. Goodbye, and thank you." in landing.text
    assert not is_signed_in(browser) and not is_signed_in(other)
    assert not sign_in_works(stack, email, PASSWORD)

    assert stack.query("SELECT COUNT(*) FROM account WHERE id = ?", ident) == [(0,)]
    for table in ("emailAddress", "session", "accountToken", "profileValue", "signInFailure"):
        assert stack.query(f"SELECT COUNT(*) FROM {table} WHERE accountId = ?", ident) == [(0,)], table
    assert stack.query("SELECT COUNT(*) FROM mailQueue WHERE subject = 'held back' AND recipientKey = ?", email.lower()) == [(0,)]
    assert stack.query("SELECT COUNT(*) FROM audit WHERE accountId = ? AND email IS NOT NULL", ident) == [(0,)]
    # (the failed sign-in after the deletion is a new row, naming only what was typed)
    assert stack.query("SELECT COUNT(*) FROM audit WHERE lower(email) = lower(?) AND id < "
                       "(SELECT id FROM audit WHERE event = 'account_deleted' AND accountId = ?)", email, ident) == [(0,)]
    assert stack.query("SELECT event, email, detail FROM audit WHERE accountId = ? ORDER BY id DESC LIMIT 1", ident) == \
        [("account_deleted", None, "by its owner")]
    assert stack.query("SELECT COUNT(*) FROM mailQueue WHERE kind = 'account_deleted' AND recipient = ?", email) == [(1,)]
    outbox_mail(stack, email, "account was deleted")

    # The address is free again: a new account with it is a different one.
    again, _ = signed_up(stack, email=email)
    assert account_id(stack, email) != ident


def test_deletion_needs_a_recent_password_entry(stack):
    browser, email = signed_up(stack)
    make_stale(stack, email)
    shown = browser.get("/settings/delete")
    assert shown.status_code == 302
    assert shown.headers["Location"] == "/account/settings/reauthenticate?rd=%2Faccount%2Fsettings%2Fdelete"
    posted = browser.post("/settings/delete", {"password": PASSWORD})
    assert posted.status_code == 303
    assert posted.headers["Location"] == "/account/settings/reauthenticate?rd=%2Faccount%2Fsettings%2Fdelete"
    assert stack.query("SELECT COUNT(*) FROM emailAddress WHERE address = ?", email) == [(1,)]
    assert is_signed_in(browser)
