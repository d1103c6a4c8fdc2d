"""Two requests racing through nginx for the same thing: one wins, the other gets its usual answer, nothing is
half-written (the unique indexes decide, not only the checks in code). frontdoor runs 4 workers here.

Races: one address added by two accounts, two sign-ups with one address or one unique username, one password-reset
link or one confirmation link redeemed by two requests at once, and a session revoked (from another session of the
account) while it keeps making requests. Each repeats ROUNDS times: FAULT_ROUNDS from the environment, else 5.

What is asserted holds whichever request wins and however the two overlap (fully, partly, or not at all): the
outcome is checked for the winner and the loser as the answers name them, never for a given one.
"""
import threading
import time

import pytest

from api_client import token_handle
from http_client import Browser
from stack import new_stack
from users import unique_email
from waits import wait_for
from faults import Figures, gate, mailed_token, rounds, sign_up, signs_in
from test_profile import PROFILE_YAML

PASSWORD = "correct horse battery"
ROUNDS = rounds(5)
TOKEN_ROUNDS = rounds(3)  # the reset, confirmation and revoke races (each round costs a few password hashes)


def at_once(*calls):
    """Runs the calls on threads released together; returns their results in order (a call's exception is raised)."""
    barrier, results, errors = threading.Barrier(len(calls)), [None] * len(calls), []

    def run(index, call):
        try:
            barrier.wait(60)
            results[index] = call()
        except BaseException as error:  # noqa: B036 - handed to the test's thread
            errors.append(error)
    threads = [threading.Thread(target=run, args=(i, c), daemon=True) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads), "a racing request did not finish"
    if errors:
        raise errors[0]
    return results


def signed_in(stack):
    email, browser = unique_email("racer"), Browser(stack)
    assert browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    return browser


def test_two_accounts_adding_one_address_at_once_leave_it_with_one(stack):
    for round_ in range(ROUNDS):
        if round_ % 4 == 0:  # new accounts now and then: an account holds a limited number of addresses
            ann, bob = signed_in(stack), signed_in(stack)
        address = unique_email("contested")
        # Both forms are fetched first, so the two POSTs are all that race.
        tokens = [browser.token("/settings/emails") for browser in (ann, bob)]
        answers = at_once(*[lambda b=browser, t=token: b.post("/settings/emails", {"email": address, "csrf_token": t})
                            for browser, token in zip((ann, bob), tokens)])
        assert all(answer.status_code in (200, 303) for answer in answers), [a.status_code for a in answers]
        assert sorted(answer.status_code for answer in answers) == [200, 303], "one added it, the other was refused"
        assert "can&#39;t be added to your account" in next(a for a in answers if a.status_code == 200).text \
            or "can't be added to your account" in next(a for a in answers if a.status_code == 200).text
        assert stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", address) == [(1,)]
        assert stack.query("SELECT COUNT(*) FROM accountToken t JOIN emailAddress e ON e.id = t.emailAddressId "
                           "WHERE e.normalizedAddress = ?", address) == [(1,)], "one verification link, for the winner"


def test_two_sign_ups_with_one_address_at_once_make_one_account(stack):
    for _ in range(ROUNDS):
        address = unique_email("twin")
        browsers = [Browser(stack), Browser(stack)]
        tokens = [browser.token("/sign_up") for browser in browsers]
        form = {"email": address, "password": PASSWORD, "password_confirmation": PASSWORD}
        answers = at_once(*[lambda b=b, t=t: b.post("/sign_up", {**form, "csrf_token": t}) for b, t in zip(browsers, tokens)])
        assert sorted(answer.status_code for answer in answers) == [200, 303]
        assert "has already been taken" in next(a for a in answers if a.status_code == 200).text
        assert stack.query("SELECT COUNT(*) FROM account a JOIN emailAddress e ON e.accountId = a.id "
                           "WHERE e.normalizedAddress = ?", address) == [(1,)]
        assert stack.query("SELECT COUNT(*) FROM account WHERE id NOT IN (SELECT accountId FROM emailAddress)") == [(0,)], \
            "no account without its address"


@pytest.fixture(scope="module")
def profile_stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox"},
                         extra_yaml=PROFILE_YAML)


def test_two_sign_ups_with_one_unique_username_at_once_make_one_account(profile_stack):
    for round_ in range(ROUNDS):
        username = f"racer_{round_}"
        browsers = [Browser(profile_stack), Browser(profile_stack)]
        tokens = [browser.token("/sign_up") for browser in browsers]
        forms = [{"email": unique_email("uname"), "username": username, "password": PASSWORD,
                  "password_confirmation": PASSWORD, "csrf_token": token} for token in tokens]
        answers = at_once(*[lambda b=b, f=f: b.post("/sign_up", f) for b, f in zip(browsers, forms)])
        assert sorted(answer.status_code for answer in answers) == [200, 303]
        assert "Username has already been taken" in next(a for a in answers if a.status_code == 200).text
        assert profile_stack.query("SELECT COUNT(*) FROM profileValue WHERE field = 'username' AND value = ?", username) == [(1,)]
        loser = next(f["email"] for f, a in zip(forms, answers) if a.status_code == 200)
        assert profile_stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", loser) == [(0,)], \
            "the losing sign-up left no account behind"


def reset_link(stack):
    """A new account with a confirmed address and a mailed reset link; returns (email, token)."""
    email = unique_email("resetrace")
    assert sign_up(stack, email)[0].status_code == 303
    stack.query("UPDATE emailAddress SET verifiedAt = 1 WHERE normalizedAddress = ?", email.lower())
    assert Browser(stack).post("/password/new", {"email": email}).status_code == 200
    return email, mailed_token(stack, email, "/password/edit?token=")


def test_one_reset_link_redeemed_twice_at_once_sets_one_password(stack):
    figures = Figures("one reset link redeemed twice at once (test_races.py)")
    for _ in range(TOKEN_ROUNDS):
        email, token = reset_link(stack)
        browsers = [Browser(stack), Browser(stack)]
        # Both forms are fetched first (each browser's CSRF token), so the two POSTs are all that race.
        forms = [{"token": token, "password": password, "password_confirmation": password,
                  "csrf_token": browser.token("/password/edit?token=" + token)}
                 for browser, password in zip(browsers, ("first new password", "second new password"))]
        answers = at_once(*[lambda b=b, f=f: b.post("/password/edit", f) for b, f in zip(browsers, forms)])
        assert sorted(answer.status_code for answer in answers) == [200, 303], [a.status_code for a in answers]
        winner = next(i for i, a in enumerate(answers) if a.status_code == 303)
        loser = 1 - winner
        assert "The password reset link is invalid, was already used or has expired." in answers[loser].text
        assert browsers[loser].cookie("frontdoor_session") is None, "the refused reset signed no one in"
        assert gate(stack, browsers[winner].cookie("frontdoor_session")).status_code == 200
        assert signs_in(stack, email, forms[winner]["password"]), "the winner's password is the account's"
        assert not signs_in(stack, email, forms[loser]["password"])
        account = stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email.lower())[0][0]
        assert stack.query("SELECT COUNT(*) FROM audit WHERE event = 'password_reset' AND accountId = ?", account) == [(1,)]
        assert stack.query("SELECT COUNT(*) FROM mailQueue WHERE recipientKey = ? AND kind = 'password_changed'",
                           email.lower()) == [(1,)], "one 'password changed' mail"
    figures.add("rounds, each with one 303 and one invalid-link page, the winner's password set", TOKEN_ROUNDS)
    figures.emit()


def test_one_confirmation_link_followed_twice_at_once_confirms_once(stack):
    figures = Figures("one confirmation link followed twice at once (test_races.py)")
    # This stack does not require confirmation, but an unconfirmed address can still ask for a link (confirmation/new).
    for _ in range(TOKEN_ROUNDS):
        email = unique_email("confirmrace")
        assert sign_up(stack, email)[0].status_code == 303
        assert Browser(stack).post("/confirmation/new", {"email": email}).status_code == 200
        token = mailed_token(stack, email, "/confirm?token=")
        browsers = [Browser(stack), Browser(stack)]
        answers = at_once(*[lambda b=b: b.get("/confirm?token=" + token) for b in browsers])
        assert sorted(answer.status_code for answer in answers) == [200, 302], [a.status_code for a in answers]
        confirmed = next(a for a in answers if a.status_code == 302)
        assert confirmed.headers["Location"] == "/account/sign_in"
        refused = next(a for a in answers if a.status_code == 200)
        assert "The confirmation link is invalid, was already used or has expired." in refused.text
        assert stack.query("SELECT verifiedAt IS NOT NULL FROM emailAddress WHERE normalizedAddress = ?", email.lower()) == [(1,)]
        account = stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email.lower())[0][0]
        assert stack.query("SELECT COUNT(*) FROM audit WHERE event = 'email_confirmed' AND accountId = ?", account) == [(1,)]
        assert stack.query("SELECT COUNT(*), COUNT(usedAt) FROM accountToken WHERE accountId = ? AND purpose = 'confirmation'",
                           account) == [(1, 1)], "one link, used once"
        assert signs_in(stack, email, PASSWORD)
    figures.add("rounds, each with one confirmation (302) and one invalid-link page, one audit row", TOKEN_ROUNDS)
    figures.emit()


def test_a_session_revoked_while_in_use_is_signed_out_from_the_next_request(stack):
    """One thread keeps using a session (pages and the gate, the cookie sent by hand) while another session of the
    same account revokes it on the sessions page (one session, or all others, in turns). Every request sent after the
    revoke was answered is signed out; every one answered before it was sent was signed in."""
    figures = Figures("a session revoked while in use (test_races.py)")
    signed_out_after, raced = 0, 0
    for round_ in range(TOKEN_ROUNDS):
        email = unique_email("revoked")
        response, victim = sign_up(stack, email)
        assert response.status_code == 303
        token = victim.cookie("frontdoor_session")
        other = Browser(stack)
        assert other.post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303
        log, stop, failures = [], threading.Event(), []

        def use():
            paths = ("/auth/check", "/", "/settings", "/settings/sessions")
            try:
                while not stop.is_set():
                    path = paths[len(log) % len(paths)]
                    sent = time.monotonic()
                    answer = gate(stack, token, path)
                    log.append((sent, time.monotonic(), path, answer.status_code, answer.headers.get("Location", "")))
            except BaseException as error:  # noqa: B036 - reported by the test's thread
                failures.append(error)
        user = threading.Thread(target=use, daemon=True)
        user.start()
        wait_for(lambda: len(log) >= 4 or failures, what="the session in use")
        assert not failures, failures
        csrf = other.token("/settings/sessions")
        revoke_sent = time.monotonic()
        if round_ % 2 == 0:
            answer = other.post("/settings/sessions/revoke", {"handle": token_handle(token), "csrf_token": csrf})
        else:
            answer = other.post("/settings/sessions/revoke_others", {"csrf_token": csrf})
        revoked = time.monotonic()
        assert answer.status_code == 303 and answer.headers["Location"] == "/account/settings/sessions"
        wait_for(lambda: sum(1 for entry in log if entry[0] > revoked) >= 4 or failures, what="requests after the revoke")
        stop.set()
        user.join(120)
        assert not user.is_alive() and not failures, failures
        entries = list(log)
        for sent, answered, path, status, location in entries:
            if answered < revoke_sent:
                assert status == 200, ("signed in before the revoke", path, status, location)
            elif sent > revoked:
                signed_out = status == 401 if path == "/auth/check" else \
                    status == 302 and location.startswith("/account/sign_in")
                assert signed_out, ("still signed in after the revoke was answered", path, status, location)
                signed_out_after += 1
            else:
                raced += 1
        assert gate(stack, other.cookie("frontdoor_session")).status_code == 200, "the revoking session goes on"
        assert gate(stack, token).status_code == 401
    figures.add("rounds (revoke one / revoke all others in turns)", TOKEN_ROUNDS)
    figures.add("requests after the revoke, all signed out", signed_out_after)
    figures.add("requests in flight during the revoke (either answer is right)", raced)
    figures.emit()
