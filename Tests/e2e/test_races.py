"""Two requests racing through nginx for the same thing: one wins, the other gets its usual answer, nothing is
half-written (the unique indexes decide, not only the checks in code). frontdoor runs 4 workers here."""
import threading

import pytest

from conftest import Browser, _stack, unique_email
from test_profile import PROFILE_YAML

PASSWORD = "correct horse battery"
ROUNDS = 5


def at_once(*calls):
    """Runs the calls on threads released together; returns their results in order."""
    barrier, results = threading.Barrier(len(calls)), [None] * len(calls)

    def run(index, call):
        barrier.wait()
        results[index] = call()
    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def signed_in(stack):
    email, browser = unique_email("racer"), Browser(stack)
    assert browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    return browser


def test_two_accounts_adding_one_address_at_once_leave_it_with_one(stack):
    ann, bob = signed_in(stack), signed_in(stack)
    for _ in range(ROUNDS):
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
    yield from _stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox"},
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
