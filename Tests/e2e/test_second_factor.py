"""The second step of a sign-in through nginx, in a plain HTTP client, on the run's backend (FRONTDOOR_E2E_BACKEND):
an account enrolled on settings/two_step (two_step.enrol; pyotp computes the codes from the key the page shows) signs
in with its password, then a code on sign_in/second_factor, and gets a two-factor session; a code used already is
refused, one step ahead accepted and two steps either way refused; a recovery code works once; wrong codes lock the
account as wrong passwords do; a password reset keeps the codes and still asks one; with `second_factor: required` a
person without codes is led to the enrolment and can use nothing else until the session has two factors; the
operator's `frontdoor user 2fa reset` takes lost codes away (audited as frontdoor-cli).
The server's clock is the real one: the drift cases are chosen so that a step passing while the test runs cannot turn a
refused code into an accepted one or the reverse (one ahead stays within ±1, two behind or three ahead stay out).
"""
import subprocess
import time
from urllib.parse import quote

import pyotp
import pytest

from http_client import Browser, page_text
from stack import BIN, new_stack
from mails import outbox_link
from test_settings_account import PASSWORD, signed_up
from two_step import enrol

STEP = "/sign_in/second_factor"


def factors(stack, email):
    """The factors of the account's sessions, oldest first."""
    return [row[0] for row in stack.query("SELECT s.factors FROM session s JOIN emailAddress e ON e.accountId = s.accountId "
                                          "WHERE e.address = ? ORDER BY s.createdAt", email)]


def enrolled_account(stack):
    """A new account with codes on (its enrolling browser signed out); returns (email, enrolment). The enrolment's
    confirming code used up the current step: the first sign-in uses the next step's code (one ahead, within drift)."""
    browser, email = signed_up(stack)
    enrolment = enrol(browser)
    assert browser.post("/sign_out", {}).status_code in (302, 303)
    return email, enrolment


def password_step(stack, email, rd=None):
    """A new browser past the password: it is sent to the second step (and not signed in yet)."""
    browser = Browser(stack)
    form = {"email": email, "password": PASSWORD, **({"rd": rd} if rd else {})}
    answer = browser.post("/sign_in", form)
    assert answer.status_code == 303, answer.text
    location = answer.headers["Location"]
    assert location.startswith("/account" + STEP), location
    return browser, location


def code_answer(browser, code, rd=None):
    return browser.post(STEP, {"code": code, **({"rd": rd} if rd else {})})


def test_a_password_then_a_code_signs_in_with_two_factors_and_returns(stack):
    email, enrolment = enrolled_account(stack)
    before = len(factors(stack, email))
    browser, location = password_step(stack, email, rd="/account/settings")
    assert "rd=" in location
    assert len(factors(stack, email)) == before, "no session after the password alone"
    assert browser.get("/settings").status_code in (302, 303), "not signed in yet"
    form = browser.get(STEP + "?rd=" + quote("/account/settings", safe=""))
    assert form.status_code == 200
    assert 'autocomplete="one-time-code"' in form.text and 'inputmode="numeric"' not in form.text
    challenge = [c for c in browser.session.cookies if c.name.endswith("frontdoor_second_factor")]
    assert len(challenge) == 1 and challenge[0].value not in form.text, "the challenge is a cookie, never in the page"
    assert challenge[0].has_nonstandard_attr("HttpOnly")

    done = code_answer(browser, enrolment.code(offset=30), rd="/account/settings")
    assert done.status_code == 303 and done.headers["Location"] == "/account/settings", done.text
    assert browser.get("/settings").status_code == 200
    assert factors(stack, email)[-1] == 2


def test_a_code_used_already_and_codes_two_steps_off_are_refused(stack):
    email, enrolment = enrolled_account(stack)
    first, _ = password_step(stack, email)
    ahead = enrolment.code(offset=30)
    assert code_answer(first, ahead).status_code == 303, "one step ahead is within the drift"

    second, _ = password_step(stack, email)
    refused = code_answer(second, ahead)
    assert refused.status_code == 422 and 'aria-invalid="true"' in refused.text
    assert "Code is not right, or was used already" in page_text(refused)
    for offset in (-60, 90):   # two behind (or three, once a step passed); three ahead (or two)
        assert code_answer(second, pyotp.TOTP(enrolment.secret).at(time.time() + offset)).status_code == 422, offset
    assert factors(stack, email) == [2], "only the first browser signed in"


def test_a_recovery_code_signs_in_once(stack):
    email, enrolment = enrolled_account(stack)
    recovery = enrolment.recovery_codes[0]
    browser, _ = password_step(stack, email)
    assert code_answer(browser, recovery.upper()).status_code == 303, "as typed, upper case"
    other, _ = password_step(stack, email)
    assert code_answer(other, recovery).status_code == 422, "a recovery code works once"


def test_wrong_codes_lock_the_account_like_wrong_passwords(stack):
    email, enrolment = enrolled_account(stack)
    browser, _ = password_step(stack, email)
    right = enrolment.code(offset=30)
    wrong = "000000" if right != "000000" else "111111"
    for _ in range(5):   # lockout.max_failures
        assert code_answer(browser, wrong).status_code == 422
    locked = code_answer(browser, right)
    assert locked.status_code == 422, "locked: the right code gets the same answer"
    assert Browser(stack).post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 200, "and the password too"
    reasons = [row[0] for row in stack.query("SELECT detail FROM audit WHERE event = 'sign_in_failed' AND email = ?", email)]
    assert reasons.count("second factor: wrong code") == 5 and "second factor: account locked" in reasons
    assert factors(stack, email) == []


def test_a_challenge_is_bound_to_its_browser_and_expires(stack):
    email, enrolment = enrolled_account(stack)
    browser, _ = password_step(stack, email)
    cookie = next(c for c in browser.session.cookies if c.name.endswith("frontdoor_second_factor"))
    thief = Browser(stack)
    thief.session.cookies.set(cookie.name, cookie.value, path=cookie.path)
    stolen = thief.get(STEP)
    assert stolen.status_code == 302 and STEP not in stolen.headers["Location"] and "/sign_in" in stolen.headers["Location"], \
        "the challenge alone, without the browser it began in, is nothing"
    stack.query("UPDATE secondFactorChallenge SET expiresAt = 0")
    # The form's token from a page that still has one (the second step now sends this browser to sign in).
    late = browser.post(STEP, {"code": enrolment.code(offset=30), "csrf_token": browser.token("/sign_in")})
    assert late.status_code == 303 and STEP not in late.headers["Location"] and "/sign_in" in late.headers["Location"]
    assert "That sign-in took too long. Please sign in again." in page_text(browser.get("/sign_in"))
    assert factors(stack, email) == []


def test_a_password_reset_keeps_the_codes_and_asks_one(stack):
    email, enrolment = enrolled_account(stack)
    browser = Browser(stack)
    assert browser.post("/confirmation/new", {"email": email}).status_code == 200   # reminders go to confirmed addresses
    assert browser.get(outbox_link(stack, email, "/confirm?token=")).status_code in (302, 303)
    assert browser.post("/password/new", {"email": email}).status_code in (200, 303)
    link = outbox_link(stack, email, "/password/edit?token=")
    new = "another horse battery"
    answer = browser.post(link, {"token": link.split("token=", 1)[1], "password": new, "password_confirmation": new})
    assert answer.status_code == 303 and answer.headers["Location"].startswith("/account" + STEP), answer.text
    assert browser.get("/settings").status_code in (302, 303), "the mailed link alone signs nobody in"
    assert code_answer(browser, enrolment.code(offset=30)).status_code == 303
    assert factors(stack, email) == [2]


@pytest.fixture(scope="module")
def required_stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox",
                                                     "second_factor": "required"})


def test_required_leads_to_the_enrolment_and_nothing_else_until_two_factors(required_stack):
    stack = required_stack
    browser, email = signed_up(stack)
    home = browser.get("/")
    assert home.status_code == 302 and STEP in home.headers["Location"]
    for page in ("/settings", "/settings/emails", "/settings/sessions"):
        assert browser.get(page).status_code == 302, page
    assert browser.post("/settings", {"display_name": "Mallory", "csrf_token": browser.token(STEP)}).status_code == 303
    assert stack.query("SELECT displayName FROM account a JOIN emailAddress e ON e.accountId = a.id WHERE e.address = ?",
                       email)[0][0] in (None, ""), "no change went through"
    step = browser.get(home.headers["Location"].removeprefix("/account"))
    assert step.status_code == 200 and "/settings/two_step" in step.text, "the way out: set up the codes"
    enrolment = enrol(browser)
    assert browser.get("/settings").status_code == 200, "the confirming code raised this session to two factors"
    assert browser.post("/sign_out", {}).status_code in (302, 303)
    again, _ = password_step(stack, email)
    assert again.get("/settings").status_code in (302, 303), "after the password alone: nothing yet"
    assert code_answer(again, enrolment.code(offset=30), rd="/account/settings").status_code == 303
    assert again.get("/settings").status_code == 200


def test_the_operator_resets_a_lost_second_factor_audited_and_mailed(stack):
    email, enrolment = enrolled_account(stack)
    run = lambda *args: subprocess.run([BIN, "user", "2fa", "reset", *args, "--config", str(stack.config_path)],  # noqa: E731
                                       capture_output=True, text=True, timeout=60)
    show = lambda: subprocess.run([BIN, "user", "show", email, "--config", str(stack.config_path)],  # noqa: E731
                                  capture_output=True, text=True, timeout=60).stdout
    assert "signs in with password; second factor: one-time codes\n" in show()
    done = run(email)
    assert "signs in with password; second factor: none\n" in show()
    assert done.returncode == 0 and done.stdout == \
        f"second factor of {email} removed; it signs in with its password alone until it sets one up\n", done
    again = run(email)
    assert again.returncode == 0 and again.stdout == f"{email} has no second factor; nothing removed\n"
    unknown = run("nobody@example.com")
    assert unknown.returncode == 1 and unknown.stdout == "" and len(unknown.stderr.splitlines()) == 1
    [(detail, agent)] = stack.query("SELECT a.detail, a.userAgent FROM audit a JOIN emailAddress e ON e.accountId = a.accountId "
                                    "WHERE a.event = 'second_factor_removed' AND e.address = ?", email)
    assert (detail, agent) == ("operator reset", "frontdoor-cli")
    assert Browser(stack).post("/sign_in", {"email": email, "password": PASSWORD}).headers["Location"] == "/account/", \
        "the password alone signs in again"
    assert enrolment.recovery_codes, "(the old codes are gone with the rest)"
    assert stack.query("SELECT COUNT(*) FROM recoveryCode r JOIN emailAddress e ON e.accountId = r.accountId WHERE e.address = ?",
                       email)[0][0] == 0
