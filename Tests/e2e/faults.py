"""Shared helpers of the fault tests (test_faults_kill.py, test_faults_mail.py, test_races.py).

Tokens are read from the mail queue table (the mail is queued in the same transaction that issues the token, so it is
there as soon as the request is answered); sessions are checked through the gate with the cookie value sent by hand,
so what is tested is the server's state, not a cookie jar. Figures of a long run (FAULT_ROUNDS set) are printed and
collected into bench/results/faults.md; a smoke run only prints them.
"""
import os
import re
import signal
import time

import requests

from http_client import REQUEST_TIMEOUT, Browser
from mails import mail_text, read_mail
from stack import ROOT
from waits import wait_for

PASSWORD = "correct horse battery"
SESSION_COOKIE = "frontdoor_session"


def rounds(default):
    """FAULT_ROUNDS from the environment (`make faults` sets it), else `default` for the smoke."""
    return int(os.environ.get("FAULT_ROUNDS") or default)


def mailed_token(stack, address, marker):
    """The token after `marker` (such as "/password/edit?token=") in the newest queued mail to `address`."""
    pattern = re.compile(re.escape(marker) + r"([\w-]+)")

    def find():
        for (message,) in stack.query("SELECT message FROM mailQueue WHERE recipientKey = ? ORDER BY id DESC",
                                      address.lower()):
            match = pattern.search(mail_text(read_mail(message)))
            if match:
                return match.group(1)
        return None
    return wait_for(find, what=f"a mail to {address} with {marker}")


def gate(stack, token, path="/auth/check"):
    """The status of GET `path` sent with only the session cookie `token` (no redirects followed)."""
    return requests.get(stack.base + path, cookies={SESSION_COOKIE: token}, allow_redirects=False, timeout=REQUEST_TIMEOUT)


def signs_in(stack, email, password):
    """True when the sign-in form with `email` and `password` answers 303 (signed in)."""
    return Browser(stack).post("/sign_in", {"email": email, "password": password}).status_code == 303


def sign_up(stack, email, password=PASSWORD):
    """Signs `email` up with a fresh Browser; returns (response, browser)."""
    browser = Browser(stack)
    response = browser.post("/sign_up", {"email": email, "password": password, "password_confirmation": password})
    return response, browser


def integrity(stack):
    """`PRAGMA integrity_check` on the database file, or amcheck on PostgreSQL (backends.py): a list of rows,
    [("ok",)] when sound."""
    return stack.store.integrity()


def half_written(stack):
    """Every sign of a transaction that was only partly applied: dangling foreign keys, accounts without exactly one
    primary address, sessions or tokens of missing accounts, addresses of missing accounts, accounts without the
    'sign_up' audit row their sign-up writes in the same transaction (so: for stacks whose accounts all come from the
    sign-up form). Empty when all is well."""
    problems = []
    fk = stack.store.foreign_key_problems()
    if fk:
        problems.append(f"foreign_key_check: {fk[:10]}")
    checks = {
        "accounts without exactly one primary address":
            "SELECT id FROM account a WHERE (SELECT COUNT(*) FROM emailAddress e WHERE e.accountId = a.id AND e.isPrimary) != 1",
        "accounts without any address":
            "SELECT id FROM account WHERE id NOT IN (SELECT accountId FROM emailAddress)",
        "addresses of no account": "SELECT id FROM emailAddress WHERE accountId NOT IN (SELECT id FROM account)",
        "sessions of no account": "SELECT accountId FROM session WHERE accountId NOT IN (SELECT id FROM account)",
        "tokens of no account": "SELECT accountId FROM accountToken WHERE accountId NOT IN (SELECT id FROM account)",
        "accounts without their sign-up audit row":
            "SELECT id FROM account WHERE id NOT IN (SELECT accountId FROM audit WHERE event = 'sign_up' AND accountId IS NOT NULL)",
    }
    for what, sql in checks.items():
        rows = stack.query(sql)
        if rows:
            problems.append(f"{what}: {rows[:10]}")
    return problems


def kill_app(stack):
    """kill -9 of the frontdoor process (nginx keeps running); waits until it is gone."""
    stack.app.send_signal(signal.SIGKILL)
    stack.app.wait(60)
    assert stack.app.returncode == -signal.SIGKILL, stack.app.returncode


def restart_app(stack):
    """Starts frontdoor again on the same socket and database; returns when a page answers 200 through nginx."""
    stack.socket.unlink(missing_ok=True)  # the killed process left its socket file; start_app waits for a new one
    stack.start_app()
    wait_for(stack.answers, what="frontdoor to answer after the restart")


class Figures:
    """Figures of one test: printed as a short markdown block; with FAULT_ROUNDS set also kept for faults.md."""

    collected = {}  # title -> markdown block, for every test of this pytest process

    def __init__(self, title):
        self.title = title
        self.lines = []
        self.started = time.monotonic()

    def add(self, label, value):
        self.lines.append(f"- {label}: {value}")

    def emit(self):
        self.add("wall time", f"{time.monotonic() - self.started:.1f} s")
        block = f"### {self.title}\n\n" + "\n".join(self.lines) + "\n"
        print("\n" + block)
        if os.environ.get("FAULT_ROUNDS"):
            Figures.collected[self.title] = block
            write_results()


def write_results():
    """bench/results/faults.md: every block collected so far in this run (rewritten as each test ends)."""
    folder = ROOT / "bench/results"
    folder.mkdir(parents=True, exist_ok=True)
    binary = os.environ.get("FRONTDOOR_BIN", str(ROOT / ".build/debug/frontdoor"))
    head = (f"## Faults (make faults)\n\nFAULT_ROUNDS={os.environ.get('FAULT_ROUNDS')}, binary {binary}, "
            f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {os.cpu_count()} cores\n\n")
    (folder / "faults.md").write_text(head + "\n".join(Figures.collected.values()))
