"""Session expiry at the gate: nginx's auth_request to auth/check refuses a session idle past `session.idle_timeout`
and a session past its absolute `session.lifetime`, on SQLite and on PostgreSQL; with two hosts on one PostgreSQL
database, each host's cached copy of the session (database.session_cache_max_age) is what decides, and both refuse
the idle session while their cached rows are still fresh.

Time is real: the stacks' lifetimes are a few seconds (the configuration takes any positive duration), and a test
waits, polling the clock, until the deadline stored in the session's row (lastSeenAt + idle timeout, or expiresAt)
has passed on the clock frontdoor also reads, then asks once. Nothing in the server is faked or moved. A remembered
session (no idle timeout, its own `remember_lifetime`) on the same stack passes the gate after the plain one is
refused, so the refusal is that session's expiry and not a stack that refuses everything.

Note: a request refreshes the stored lastSeenAt at most once a minute (SessionPolicy.touchInterval), so with an idle
timeout of seconds a session counts as idle from its last stored touch; the tests use each session only right after
signing in, before the wait, so the stored lastSeenAt is the moment of the sign-in.
"""
import time

import pytest
import requests

from hosts import Pair, gate, on
from http_client import Browser
from stack import new_stack, running
from users import unique_email
from waits import wait_for

PASSWORD = "correct horse battery"
SHORT = 3.0   # seconds: the idle timeout or the lifetime under test
PLAIN = {"confirmation.required": "false", "mail.transport": "outbox"}


def protected_location(stack):
    """`/protected`: a file behind auth_request to the stack's gate location, as hosts.py adds to its servers."""
    prefix = stack.folder / "nginx"
    (prefix / "protected.txt").write_text("protected\n")
    stack.origin = f"http://127.0.0.1:{stack.port}"
    return {"protected.conf": f"location = /protected {{\n    auth_request /internal/frontdoor/check;\n"
                              f"    default_type text/plain;\n    alias {prefix}/protected.txt;\n}}\n"}


@pytest.fixture(scope="module")
def idle_stack(tmp_path_factory, request):
    """Sessions end after SHORT seconds unused; their absolute lifetime is an hour."""
    yield from new_stack(tmp_path_factory, request, {**PLAIN, "session.idle_timeout": f"{SHORT}s", "session.lifetime": "1h"},
                         protected_location)


@pytest.fixture(scope="module")
def lifetime_stack(tmp_path_factory, request):
    """Sessions live SHORT seconds however used; the idle timeout and the remembered lifetime are an hour."""
    yield from new_stack(tmp_path_factory, request, {**PLAIN, "session.lifetime": f"{SHORT}s", "session.idle_timeout": "1h",
                                                     "session.remember_lifetime": "1h"}, protected_location)


def signed_up(target):
    """A new account signed up on `target` (confirmation off: signed in at once); returns (browser, address)."""
    browser, email = Browser(target), unique_email("expiry")
    answer = browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert answer.status_code == 303, answer.text[:500]
    return browser, email


def remembered(target):
    """A session with "remember me" of a new account (signed up on `target`, then signed in again there)."""
    _, email = signed_up(target)
    browser = Browser(target)
    assert browser.post("/sign_in", {"email": email, "password": PASSWORD, "remember_me": "1"}).status_code == 303
    return browser.cookie("frontdoor_session")


def session_row(store, email):
    """The (only) session of the account of `email`: lastSeenAt, expiresAt, rememberMe (seconds since 1970)."""
    [row] = store.records("SELECT s.lastSeenAt, s.expiresAt, s.rememberMe FROM session s JOIN emailAddress e "
                          "ON e.accountId = s.accountId WHERE e.normalizedAddress = ?", email.lower())
    return row


def wait_until(deadline, what):
    """Polls the wall clock (the one frontdoor reads) until it is past `deadline` (seconds since 1970)."""
    wait_for(lambda: time.time() > deadline + 0.01, timeout=SHORT + 60, what=what)


def test_a_session_idle_past_the_idle_timeout_is_refused(idle_stack):
    kept = remembered(idle_stack)
    browser, email = signed_up(idle_stack)
    token = browser.cookie("frontdoor_session")
    assert gate(idle_stack, token) == 200 and gate(idle_stack, kept) == 200
    row = session_row(idle_stack.store, email)
    assert not row["rememberMe"] and row["expiresAt"] - row["lastSeenAt"] == pytest.approx(3600), "an hour's lifetime"
    wait_until(row["lastSeenAt"] + SHORT, "the idle timeout")
    assert gate(idle_stack, token) == 401, "idle past session.idle_timeout"
    assert "Signed in as" not in browser.get("/").text, "the pages see no session either"
    assert gate(idle_stack, kept) == 200, "a remembered session has no idle timeout"


def test_a_session_past_its_absolute_lifetime_is_refused_though_in_use(lifetime_stack):
    browser, email = signed_up(lifetime_stack)
    token = browser.cookie("frontdoor_session")
    assert gate(lifetime_stack, token) == 200
    row = session_row(lifetime_stack.store, email)
    assert row["expiresAt"] - row["lastSeenAt"] == pytest.approx(SHORT), "the session lives session.lifetime"
    wait_until(row["lastSeenAt"] + SHORT / 2, "half the lifetime")
    assert gate(lifetime_stack, token) == 200, "in use, not idle, not yet expired"
    kept_for_an_hour = remembered(lifetime_stack)
    wait_until(row["expiresAt"], "the absolute lifetime")
    assert gate(lifetime_stack, token) == 401, "past session.lifetime"
    assert gate(lifetime_stack, kept_for_an_hour) == 200, "a remembered session lives session.remember_lifetime"


# MARK: - Two hosts on one PostgreSQL database: the cached row decides


def cache_hits(host):
    """`frontdoor_session_cache_hits_total` of `host` (its /metrics, asked from loopback)."""
    text = requests.get(host.base + "/metrics", timeout=30).text
    return next(float(line.split()[1]) for line in text.splitlines() if line.startswith("frontdoor_session_cache_hits_total "))


@pytest.fixture(scope="module")
def idle_hosts(tmp_path_factory):
    """Hosts A and B (hosts.Pair) with the idle stack's sessions and a session cache far older than the test lasts,
    so each host still holds the row it read when the idle timeout passes."""
    folder = tmp_path_factory.mktemp("idle-hosts")
    settings = {**PLAIN, "session.idle_timeout": f"{SHORT}s", "session.lifetime": "1h",
                "database.session_cache_max_age": "5m", "social.token_key_file": str(folder / "social-tokens.key")}
    yield from running(Pair(folder, settings))


@pytest.mark.postgresql_only("two hosts share one PostgreSQL database, each with its own session cache")
def test_every_host_refuses_a_session_idle_past_the_timeout_from_its_cached_row(idle_hosts):
    pair = idle_hosts
    kept = remembered(pair.b)
    browser, email = signed_up(pair.a)
    token = browser.cookie("frontdoor_session")
    for host in (pair.a, pair.b):
        assert gate(host, token) == 200 and gate(host, kept) == 200, host.name   # each host reads and keeps both rows
        hits = cache_hits(host)
        assert gate(host, token) == 200 and cache_hits(host) > hits, f"{host.name} answers from its cache"
    row = session_row(pair.store, email)
    wait_until(row["lastSeenAt"] + SHORT, "the idle timeout")
    for host in (pair.a, pair.b):
        hits = cache_hits(host)
        assert gate(host, token) == 401, f"{host.name} refuses the idle session"
        assert cache_hits(host) > hits, f"{host.name} decided on its cached row"
    assert gate(pair.front, token) == 401
    assert session_row(pair.store, email)["lastSeenAt"] == row["lastSeenAt"], "the row itself is unchanged: no " \
        "deletion or notification ended the session, each host's own check of its cached row did"
    for host in (pair.a, pair.b, pair.front):
        assert gate(host, kept) == 200, f"{host.name}: the remembered session still passes"
    assert "Signed in as" not in on(browser, pair.b).get("/").text
