"""The JSON API's second step through nginx, for an account whose person turned one-time codes on in the settings
(two_step.enrol, codes from pyotp): `POST v1/users/sign_in` answers 401 second_factor_required with a challenge and
no token; `POST v1/users/sign_in/second_factor` with a right code issues a two-factor token; a wrong code is the one
401 and counts toward the lockout; a used, unknown or browser challenge says start over; a recovery code works once.

Stack: api_stack (confirmation off, three failed sign-ins lock an account for an hour).
"""
import time

import pyotp

from api_client import ISO_MILLIS, Api, token_digest
from devise_api import PASSWORD, account_id, audit, check_unauthorized, check_user, works
from http_client import Browser
from two_step import enrol
from users import unique_email

ASKED = "Enter the code from your authenticator app (or a recovery code) to finish signing in."
WRONG = "Invalid code."
EXPIRED = "This sign-in has expired or was already finished. Sign in again."


def enrolled(stack):
    """A new account with codes on; returns (email, Enrolment). The code its enrolment used is spent."""
    email, browser = unique_email("twostep"), Browser(stack)
    answer = browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert answer.status_code == 303, answer.text
    return email, enrol(browser)


def asked(stack, email):
    """Signs in with the right password; checks the 401 that asks for the second step and returns its challenge."""
    response = Api(stack).post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}})
    assert response.status_code == 401, response.text
    body = response.json()
    assert set(body) == {"error", "reason", "challenge", "challengeExpiresAt"}, body
    assert body["error"] == ASKED and body["reason"] == "second_factor_required"
    assert ISO_MILLIS.fullmatch(body["challengeExpiresAt"]), body
    return body["challenge"]


def second_step(stack, challenge, code):
    return Api(stack).post("/users/sign_in/second_factor", {"user": {"challenge": challenge, "code": code}})


def wrong_code(enrolment):
    """A six-digit code that is none of the steps the server accepts now."""
    near = {enrolment.code(offset) for offset in (-60, -30, 0, 30, 60)}
    return next(code for code in (f"{n:06d}" for n in range(0, 1000000, 7919)) if code not in near)


def factors(stack, token):
    return stack.query("SELECT factors FROM session WHERE digest = ?", token_digest(token))[0][0]


def test_the_password_asks_for_the_code_and_the_code_issues_a_two_factor_token(api_stack):
    email, enrolment = enrolled(api_stack)
    tokens = api_stack.query("SELECT COUNT(*) FROM session WHERE kind = 'api'")
    challenge = asked(api_stack, email)
    assert api_stack.query("SELECT COUNT(*) FROM session WHERE kind = 'api'") == tokens, "no token before the code"
    body = check_user(second_step(api_stack, challenge, enrolment.code(30)), 201, email)
    token = body["user"]["authenticationToken"]
    assert works(Api(api_stack, email, token))
    assert factors(api_stack, token) == 2
    assert "second factor; api" in audit(api_stack, account_id(api_stack, email), "sign_in")


def test_a_wrong_code_is_one_401_and_counts_toward_the_lockout(api_stack):
    email, enrolment = enrolled(api_stack)
    challenge = asked(api_stack, email)
    for code in (wrong_code(enrolment), "", "not a code"):
        check_unauthorized(second_step(api_stack, challenge, code), WRONG)
    # Three failures lock the account (api_stack): the right code is refused with the same answer now.
    check_unauthorized(second_step(api_stack, challenge, enrolment.code(30)), WRONG)
    assert api_stack.query("SELECT COUNT(*) FROM session WHERE kind = 'api' AND accountId = ?", account_id(api_stack, email)) == [(0,)]


def test_the_same_challenge_may_be_tried_again_after_a_wrong_code(api_stack):
    email, enrolment = enrolled(api_stack)
    challenge = asked(api_stack, email)
    check_unauthorized(second_step(api_stack, challenge, wrong_code(enrolment)), WRONG)
    check_user(second_step(api_stack, challenge, enrolment.code(30)), 201, email)


def test_a_used_unknown_or_browser_challenge_says_start_over(api_stack):
    email, enrolment = enrolled(api_stack)
    challenge = asked(api_stack, email)
    check_user(second_step(api_stack, challenge, enrolment.code(30)), 201, email)
    # The browser's challenge (the sign-in page's cookie) is bound to that browser: the API never finishes it.
    browser = Browser(api_stack)
    page = browser.post("/sign_in", {"email": email, "password": PASSWORD})
    assert page.status_code == 303 and "/sign_in/second_factor" in page.headers["Location"], page.headers
    browser_challenge = browser.session.cookies.get("frontdoor_second_factor") or browser.session.cookies.get("__Host-frontdoor_second_factor")
    assert browser_challenge
    for used in (challenge, browser_challenge, "A" * 43, ""):
        response = second_step(api_stack, used, enrolment.recovery_codes[0])
        assert response.status_code == 401, response.text
        assert response.json() == {"error": EXPIRED, "reason": "second_factor_expired"}
    assert api_stack.query("SELECT COUNT(*) FROM recoveryCode WHERE usedAt IS NOT NULL AND accountId = ?",
                           account_id(api_stack, email)) == [(0,)], "no code spent on a challenge that cannot finish"


def test_a_recovery_code_finishes_once(api_stack):
    email, enrolment = enrolled(api_stack)
    code = enrolment.recovery_codes[3]
    body = check_user(second_step(api_stack, asked(api_stack, email), code.upper()), 201, email)
    assert factors(api_stack, body["user"]["authenticationToken"]) == 2
    check_unauthorized(second_step(api_stack, asked(api_stack, email), code), WRONG)


def test_an_account_without_codes_signs_in_in_one_step(api_stack):
    email = unique_email("onestep")
    check_user(Api(api_stack).post("/users", {"user": {"email": email, "password": PASSWORD}}), 201, email)
    body = check_user(Api(api_stack).post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}}), 201, email)
    assert factors(api_stack, body["user"]["authenticationToken"]) == 1
