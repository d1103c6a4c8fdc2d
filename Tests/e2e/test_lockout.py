"""Lockout and the audit trail through nginx: failed sign-ins lock the account (same message, even with the right
password), the owner is mailed a reset link, locks expire, a blocked client address, reminders held back meanwhile.
The stacks trust 127.0.0.1 as a proxy, so each test picks its client address with X-Forwarded-For.

Locks on lock_stack last an hour, so what a test checks while an account is locked cannot outlive the lock however
slow the run; the one test that waits for a lock to end has a stack of its own with a two-second lock."""
import itertools
import re
import time

import pytest

from http_client import Browser
from mails import outbox_link
from stack import new_stack
from users import unique_email
from waits import wait_for

PASSWORD = "correct horse battery"
FAILED = "Invalid email or password."
ADDRESSES = (f"10.0.{n // 250}.{n % 250 + 1}" for n in itertools.count())


LOCK_SETTINGS = {"confirmation.required": "true", "mail.transport": "outbox", "client.trusted_proxies": "127.0.0.1",
                 "lockout.address_max_failures": "8", "lockout.address_duration": "1h", "mail.throttle": "0s"}


@pytest.fixture(scope="module")
def lock_stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {**LOCK_SETTINGS, "lockout.duration": "1h"})


@pytest.fixture(scope="module")
def short_lock_stack(tmp_path_factory, request):
    """Locks end two seconds after they start: for the test that waits for one to end by itself."""
    yield from new_stack(tmp_path_factory, request, {**LOCK_SETTINGS, "lockout.duration": "2s"})


class Client(Browser):
    """A browser at its own client address (X-Forwarded-For, believed because nginx's address is a trusted proxy)."""

    def __init__(self, stack, address=None):
        super().__init__(stack)
        self.address = address or next(ADDRESSES)
        self.session.headers["X-Forwarded-For"] = self.address
        self.session.headers["User-Agent"] = "lockout-test/1.0"


def new_account(stack, prefix="lock", client=None):
    """A confirmed account (signed up, link followed), signed out; returns (email, account id)."""
    email = unique_email(prefix)
    client = client or Client(stack)
    assert client.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 200
    assert client.get(outbox_link(stack, email, "/confirm?token=")).status_code == 302
    account_id = stack.query("SELECT accountId FROM emailAddress WHERE address = ?", email)[0][0]
    return email, account_id


def sign_in(client, email, password):
    response = client.post("/sign_in", {"email": email, "password": password})
    if response.status_code == 200:
        assert response.text.count(FAILED) == 1
        assert client.cookie("frontdoor_session") is None
    return response.status_code


def audit(stack, account_id, event):
    return stack.query("SELECT detail, remoteAddress, userAgent FROM audit WHERE accountId = ? AND event = ? ORDER BY id",
                       account_id, event)


def locked_until(stack, account_id):
    return stack.query("SELECT lockedUntil FROM account WHERE id = ?", account_id)[0][0]


def lock_out(stack):
    """A new account and five wrong passwords for it from one client; returns (email, account id, that client, the
    wall-clock times between which the fifth failure was answered)."""
    email, account_id = new_account(stack)
    attacker = Client(stack)
    for _ in range(4):
        assert sign_in(attacker, email, "wrong password!") == 200
    started = time.time()
    assert sign_in(attacker, email, "wrong password!") == 200
    return email, account_id, attacker, started, time.time()


def test_five_failures_lock_the_account(lock_stack):
    stack = lock_stack
    email, account_id, attacker, started, ended = lock_out(stack)
    assert sign_in(attacker, email, "wrong again!!") == 200  # the 6th: same message
    owner = Client(stack)
    assert sign_in(owner, email, PASSWORD) == 200, "the right password fails while the lock lasts"
    failures = audit(stack, account_id, "sign_in_failed")
    assert [row[0] for row in failures][:5] == ["wrong password"] * 5
    assert failures[-1] == ("account locked", owner.address, "lockout-test/1.0")
    assert len(audit(stack, account_id, "lockout")) == 1
    # The fifth failure locked it for lockout.duration (an hour), counted from that failure.
    assert started + 3600 <= locked_until(stack, account_id) <= ended + 3600
    # The lock mail carries a reset link.
    assert "/password/edit?token=" in outbox_link(stack, email, "/password/edit?token=")


def test_a_lock_ends_by_itself_and_the_right_password_works_again(short_lock_stack):
    stack = short_lock_stack
    email, account_id, _, started, ended = lock_out(stack)
    assert len(audit(stack, account_id, "lockout")) == 1
    lock_end = locked_until(stack, account_id)
    assert started + 2 <= lock_end <= ended + 2
    # The right password is refused until the lock's end and works after it (lockout.duration 2s; the 60 s are only
    # a safety bound).
    wait_for(lambda: sign_in(Client(stack), email, PASSWORD) == 303, timeout=60, what="the lock to expire")
    (signed_in_at,) = stack.query("SELECT createdAt FROM audit WHERE accountId = ? AND event = 'sign_in' ORDER BY id", account_id)
    assert signed_in_at[0] >= lock_end, "no sign-in got through while the lock lasted"
    refused = [row[0] for row in audit(stack, account_id, "sign_in_failed")][5:]
    assert set(refused) <= {"account locked"}, refused
    assert audit(stack, account_id, "sign_in")[-1][0] == ""


def test_the_lock_mail_link_resets_the_password_and_lifts_the_lock(lock_stack):
    stack = lock_stack
    email, account_id = new_account(stack)
    attacker = Client(stack)
    for _ in range(5):
        sign_in(attacker, email, "guess guess guess")
    assert stack.query("SELECT lockedUntil IS NOT NULL FROM account WHERE id = ?", account_id)[0][0] == 1
    owner = Client(stack)
    # A reminder asked for meanwhile is not sent (the lock mail already has a link).
    assert owner.post("/password/new", {"email": email}).status_code == 200
    assert stack.query("SELECT COUNT(*) FROM mailQueue WHERE recipientKey = ? AND kind = 'password_reset'", email.lower())[0][0] == 0
    link = outbox_link(stack, email, "/password/edit?token=")
    token = re.search(r'name="token" value="([^"]+)"', owner.get(link).text).group(1)
    new_password = "a brand new passphrase"
    reset = owner.post("/password/edit", {"token": token, "password": new_password, "password_confirmation": new_password})
    assert reset.status_code == 303
    assert stack.query("SELECT lockedUntil FROM account WHERE id = ?", account_id)[0][0] is None
    assert sign_in(Client(stack), email, new_password) == 303
    assert len(audit(stack, account_id, "password_reset")) == 1
    # Unlocked, a reminder goes out again (so the check above was not vacuous).
    Client(stack).post("/password/new", {"email": email})
    assert stack.query("SELECT COUNT(*) FROM mailQueue WHERE recipientKey = ? AND kind = 'password_reset'", email.lower())[0][0] == 1


def test_failures_from_one_address_block_it_for_every_account(lock_stack):
    stack = lock_stack
    email, account_id = new_account(stack)
    scanner = Client(stack)
    for _ in range(8):  # lockout.address_max_failures: unknown addresses count too
        assert sign_in(scanner, unique_email("nobody"), "password123") == 200
    assert sign_in(scanner, email, PASSWORD) == 200, "a blocked address cannot sign in, even with the right password"
    assert stack.query("SELECT COUNT(*) FROM audit WHERE event = 'address_blocked' AND remoteAddress = ?", scanner.address)[0][0] == 1
    assert audit(stack, account_id, "sign_in_failed")[-1][0] == "client address blocked"
    assert stack.query("SELECT lockedUntil FROM account WHERE id = ?", account_id)[0][0] is None, "the account itself is not locked"
    # Confirmation resends and reminders from that address are held back too.
    scanner.post("/password/new", {"email": email})
    assert stack.query("SELECT COUNT(*) FROM mailQueue WHERE recipientKey = ? AND kind = 'password_reset'", email.lower())[0][0] == 0
    assert sign_in(Client(stack), email, PASSWORD) == 303, "another address is not affected"
    Client(stack).post("/password/new", {"email": email})
    assert stack.query("SELECT COUNT(*) FROM mailQueue WHERE recipientKey = ? AND kind = 'password_reset'", email.lower())[0][0] == 1


def test_ipv6_clients_in_one_slash_64_share_an_address_block(lock_stack):
    """Issue 22: one client holds a whole /64, so a scanner rotating through its own addresses is blocked as one
    client (any spelling, any address of the network), and the next /64 is another client."""
    stack = lock_stack
    email, _ = new_account(stack)
    for n in range(8):  # lockout.address_max_failures, each from another address of 2001:db8:64:1::/64
        assert sign_in(Client(stack, f"2001:db8:64:1::{n + 1:x}"), unique_email("nobody"), "password123") == 200
    assert sign_in(Client(stack, "2001:DB8:64:1:ffff:0:0:1"), email, PASSWORD) == 200, "the whole /64 is blocked"
    blocked = stack.query("SELECT remoteAddress, detail FROM audit WHERE event = 'address_blocked' AND remoteAddress LIKE '2001:db8:64:1:%'")
    assert blocked == [("2001:db8:64:1::8", "8 failures from 2001:db8:64:1::/64 in 600s")]
    assert sign_in(Client(stack, "2001:db8:64:2::1"), email, PASSWORD) == 303, "the next /64 is another client"


def test_the_audit_trail_records_who_did_what_from_where(lock_stack):
    stack = lock_stack
    client = Client(stack)
    email, account_id = new_account(stack, "Audited", client)
    sign_in(client, email, "not my password")
    assert sign_in(client, email, PASSWORD) == 303
    client.post("/sign_out", {})
    rows = stack.query("SELECT event, email, remoteAddress, userAgent, detail FROM audit WHERE accountId = ? ORDER BY id", account_id)
    assert [row[0] for row in rows] == ["sign_up", "email_confirmed", "sign_in_failed", "sign_in", "sign_out"]
    assert all(row[2] == client.address and row[3] == "lockout-test/1.0" for row in rows)
    assert rows[2][4] == "wrong password" and rows[0][1] == email
    assert all(PASSWORD not in str(row) for row in stack.query("SELECT * FROM audit"))
