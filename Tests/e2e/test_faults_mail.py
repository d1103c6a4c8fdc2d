"""The mail server down for a while: the queue grows, pages answer as usual, and everything is delivered once when it
is back.

A stack sends through SMTP to this module's own sink (aiosmtpd on a loopback port from ports.free_port: outside
the ephemeral range and held by this process, so nothing else takes it while the sink is stopped) with a short retry backoff
(`mail.retry_base` 0.2s, `mail.send_interval` 0.1s). Each round takes the sink away, in turns by stopping it (the port
refuses connections) and by making it answer 451 to every message; then causes N mails (sign-ups, which mail a
confirmation link, and password reminders for confirmed accounts) and checks: the queue holds exactly those N unsent
(the table and `frontdoor mail list --json` agree), the sender has tried each of them more than once, and pages answer
normally and quickly. Then the sink comes back on the same port, and every one of the N arrives exactly once (by
Message-ID), the queue is empty, and the mailed confirmation links work.

FAULT_ROUNDS (default 2) outages; the figures are printed (and kept in bench/results/faults.md by `make faults`).
"""
import json
import os
import re
import subprocess
import time
from collections import Counter

import pytest

from fakeserver import serving
from http_client import Browser
from mails import MailSink
from stack import BIN, new_stack
from users import unique_email
from waits import wait_for
from faults import PASSWORD, Figures, mailed_token, rounds, sign_up, signs_in

ROUNDS = rounds(2)
SIGN_UPS = 4        # per outage: each mails a confirmation link
REMINDERS = 4       # per outage: each mails a reset link to a confirmed account
# The sender must have failed this often on every queued mail before the server comes back (retries after 0.2 s,
# 0.4 s, 0.8 s, 1.6 s: an outage of about 1 s in the smoke, 3 s in the long run).
FAILED_TRIES = 4 if os.environ.get("FAULT_ROUNDS") else 3
MESSAGE_ID = re.compile(r"^Message-ID: <([^@>]+)@", re.MULTILINE)  # the queue keeps the part before the @


class FlakySink(MailSink):
    """mails.MailSink (stop() and start() again keep its port) that can also refuse every message with a 451."""

    def __init__(self):
        super().__init__()
        self.refusing = False
        self.refused = 0

    async def handle_DATA(self, server, session, envelope):
        if self.refusing:
            with self.lock:
                self.refused += 1
            return "451 4.3.0 Try again later"
        return await super().handle_DATA(server, session, envelope)

    def ids(self):
        with self.lock:
            return [MESSAGE_ID.search(m["data"]).group(1) for m in self.messages]


@pytest.fixture(scope="module")
def sink():
    yield from serving(FlakySink())


@pytest.fixture(scope="module")
def flaky_mail_stack(tmp_path_factory, request, sink):
    """Confirmation on, SMTP to the module's sink, retries after 0.2 s, 0.4 s, ..., no per-address throttle."""
    yield from new_stack(tmp_path_factory, request, {
        **sink.settings(), "mail.retry_base": "0.2s", "mail.send_interval": "0.1s",
        "mail.throttle": "0s", "lockout.address_max_failures": "100000"})


def unsent(stack):
    return stack.query("SELECT COUNT(*) FROM mailQueue WHERE sentAt IS NULL")[0][0]


def cli_unsent(stack):
    """The unsent messages as `frontdoor mail list --json` shows them."""
    result = subprocess.run([BIN, "mail", "list", "--json", "--limit", "10000", "--config", str(stack.config_path)],
                            capture_output=True, text=True, timeout=300, cwd=stack.folder)
    assert result.returncode == 0, result.stdout + result.stderr
    return [mail for mail in json.loads(result.stdout) if mail["sentAt"] is None]


def confirmed_account(stack, sink):
    """A new account whose address is confirmed through the delivered link; returns its address."""
    email = unique_email("mailfault")
    assert sign_up(stack, email)[0].status_code == 200
    token = mailed_token(stack, email, "/confirm?token=")
    sink.wait_for_mail(email, token)
    assert Browser(stack).get("/confirm?token=" + token).status_code == 302
    return email


def timed(call):
    started = time.monotonic()
    result = call()
    return result, time.monotonic() - started


def test_mail_waits_out_an_smtp_outage_and_is_delivered_once(flaky_mail_stack, sink):
    stack, figures = flaky_mail_stack, Figures("SMTP server down for a while (test_faults_mail.py)")
    queued_total, slowest_page, outage_times, drain_times, max_attempts = 0, 0.0, [], [], 0
    for round_ in range(ROUNDS):
        confirmed = [confirmed_account(stack, sink) for _ in range(REMINDERS)]
        wait_for(lambda: unsent(stack) == 0, what="the queue to be empty before the outage")
        first_id = stack.query("SELECT COALESCE(MAX(id), 0) + 1 FROM mailQueue")[0][0]
        received_before = len(sink.ids())
        mode = "stopped" if round_ % 2 == 0 else "answering 451"
        if mode == "stopped":
            sink.stop()
        else:
            sink.refusing = True
        down = time.monotonic()

        new_addresses = [unique_email("queued") for _ in range(SIGN_UPS)]
        for email in new_addresses:
            page, seconds = timed(lambda: sign_up(stack, email)[0])
            assert page.status_code == 200 and "Check your email" in page.text
            slowest_page = max(slowest_page, seconds)
        for email in confirmed:
            page, seconds = timed(lambda: Browser(stack).post("/password/new", {"email": email}))
            assert page.status_code == 200 and "If that address has an account" in page.text
            slowest_page = max(slowest_page, seconds)
        expected = {(email.lower(), "confirmation") for email in new_addresses} | \
                   {(email.lower(), "password_reset") for email in confirmed}
        queued = stack.query("SELECT recipientKey, kind, messageId FROM mailQueue WHERE id >= ?", first_id)
        assert {(r, k) for r, k, _ in queued} == expected and len(queued) == len(expected)
        assert unsent(stack) == len(expected), "the queue holds exactly the mails caused during the outage"
        assert sorted(m["recipient"].lower() for m in cli_unsent(stack)) == sorted(r for r, _ in expected)

        # The sender keeps trying and failing; meanwhile pages answer as usual.
        wait_for(lambda: stack.query("SELECT MIN(attempts) FROM mailQueue WHERE id >= ?", first_id)[0][0] >= FAILED_TRIES,
                 what=f"{FAILED_TRIES} failed tries of every queued mail")
        assert all(error for (error,) in stack.query("SELECT lastError FROM mailQueue WHERE id >= ?", first_id))
        for call, status in ((lambda: Browser(stack).get("/sign_in"), 200),
                             (lambda: Browser(stack).post("/sign_in", {"email": confirmed[0], "password": PASSWORD}), 303)):
            page, seconds = timed(call)
            assert page.status_code == status
            slowest_page = max(slowest_page, seconds)
        assert len(sink.ids()) == received_before, "nothing arrived while the server was down"
        assert unsent(stack) == len(expected)

        if mode == "stopped":
            sink.start()  # the same port as before
        else:
            sink.refusing = False
        back = time.monotonic()
        outage_times.append(back - down)
        ids = {message_id for _, _, message_id in queued}
        wait_for(lambda: ids <= set(sink.ids()) and unsent(stack) == 0, what="every queued mail delivered")
        drain_times.append(time.monotonic() - back)
        max_attempts = max(max_attempts, stack.query("SELECT MAX(attempts) FROM mailQueue WHERE id >= ?", first_id)[0][0])
        queued_total += len(expected)

        for email in new_addresses:  # the delivered links work
            token = re.search(r"/confirm\?token=([\w-]+)", sink.wait_for_mail(email, "/confirm?token=")["text"]).group(1)
            assert Browser(stack).get("/confirm?token=" + token).status_code == 302
            assert signs_in(stack, email, PASSWORD)

    # Nothing lost, nothing twice: every message the server sent arrived once, and each queued row was sent.
    wait_for(lambda: unsent(stack) == 0, what="the queue to be empty")
    counts = Counter(sink.ids())
    assert [i for i, n in counts.items() if n > 1] == [], "a mail was delivered more than once"
    rows = stack.query("SELECT messageId FROM mailQueue")
    assert sorted(counts) == sorted(message_id for (message_id,) in rows), "the sink got exactly the queued mails"

    figures.add("outages (stopped server and 451 answers in turns)", ROUNDS)
    figures.add("mails queued while down", f"{queued_total} ({SIGN_UPS} confirmations + {REMINDERS} reset links per outage)")
    figures.add("delivered after the outages", f"{queued_total} of {queued_total}, duplicates 0, lost 0")
    figures.add("mails in all (incl. the confirmations before each outage)", f"queued {len(rows)}, received {sum(counts.values())}")
    figures.add("451 answers given", sink.refused)
    figures.add("failed tries awaited on every mail before the server came back", FAILED_TRIES)
    figures.add("most tries of one mail", max_attempts)
    figures.add("outage length", f"max {max(outage_times):.1f} s")
    figures.add("server back until the queue was empty", f"max {max(drain_times):.1f} s, mean {sum(drain_times) / len(drain_times):.1f} s")
    figures.add("slowest page while the server was down", f"{slowest_page * 1000:.0f} ms")
    figures.emit()
