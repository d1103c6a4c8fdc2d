"""Groups through nginx (docs/groups.md): `frontdoor group …` and `frontdoor user groups …` as an operator runs them,
and a location whose gate says `FRONTDOOR_ALLOW "group:team"` admitting members only.

- one host (both backends): the CLI's answers and one-line refusals; a member passes, a non-member signed in gets
  403, an anonymous visitor is sent to sign in; the rule's entries combine as "any matches"; a group removed with
  --force shuts its members out;
- two hosts on one PostgreSQL (hosts.py): `frontdoor user groups --add` / `--remove` with A's config, B's gate (through
  nginx, answering from its session cache) follows within a second; the delay is measured over 20 changes (median
  and max printed and added to the run's summary). Only the wait's generous bound is checked.
"""
import statistics
import subprocess
import time

import pytest
import requests

from hosts import Pair, SESSION_COOKIE, confirmed, run_cli, signed_in
from http_client import REQUEST_TIMEOUT, Browser
from mails import MailSink
from fakeserver import serving
from stack import BIN, new_stack, running
from summary import SUMMARY
from users import unique_email
from waits import wait_for

PASSWORD = "correct horse battery"
CHANGES = 20          # membership changes measured across hosts
WAIT_LIMIT = 15.0     # seconds: the wait's bound, far above what the figure is (no timing assertion)
POLL_PAUSE = 0.005
LOCATIONS = {"team": "group:team", "mixed": "boss@example.com group:Ops"}


def group_locations(prefix, socket):
    """nginx text for /team and /mixed: each behind a copy of the rendered gate location with its own allow rule."""
    gate = (prefix / "snippets/frontdoor-gate.conf").read_text()
    text = ""
    for name, rule in LOCATIONS.items():
        check = gate.replace("location = /internal/frontdoor/check {",
                             f'location = /internal/frontdoor/check-{name} {{\n    fastcgi_param FRONTDOOR_ALLOW "{rule}";')
        if socket:
            check = check.replace(f"unix:{socket[0]}", f"unix:{socket[1]}")
        text += check + (f"\nlocation = /{name} {{\n    auth_request /internal/frontdoor/check-{name};\n"
                         f"    default_type text/plain;\n    alias {prefix}/protected.txt;\n}}\n")
    return text


def status(target, token, name):
    """The status of `target`'s location /`name` asked with only the session cookie `token`."""
    cookie = {"Cookie": f"{SESSION_COOKIE}={token}"} if token else {}
    return requests.get(f"{target.origin}/{name}", headers=cookie, allow_redirects=False, timeout=REQUEST_TIMEOUT).status_code


def becomes(target, token, name, expected):
    """Waits until `target`'s location /`name` answers `expected`: a change made by a command reaches a serving host
    on PostgreSQL by notification (a few ms, not at once: the command is a process of its own); on SQLite, at once."""
    wait_for(lambda: status(target, token, name) == expected, what=f"/{name} answering {expected}", timeout=WAIT_LIMIT)
    return True


def cli(host, *args):
    return subprocess.run([BIN, *args, "--config", str(host.config_path)], capture_output=True, text=True, timeout=120,
                          cwd=host.folder)


def ok(result, expected):
    assert result.returncode == 0 and result.stdout.strip().endswith(expected), (result.stdout, result.stderr)


def refused(result, line):
    assert result.returncode == 1 and result.stderr.strip().splitlines()[-1] == line, (result.stdout, result.stderr)


# MARK: - One host


@pytest.fixture(scope="module")
def stack(tmp_path_factory, request):
    def files(stack):
        prefix = stack.folder / "nginx"
        (prefix / "protected.txt").write_text("protected\n")
        return {"groups.conf": group_locations(prefix, None)}
    stack_generator = new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox"}, files)
    stack = next(stack_generator)
    stack.origin = f"http://127.0.0.1:{stack.port}"
    yield stack
    next(stack_generator, None)


def signed_up(stack):
    email = unique_email("groups")
    browser = Browser(stack)
    answer = browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert answer.status_code == 303, answer.text[:300]
    return email, browser.cookie(SESSION_COOKIE)


def test_the_cli_makes_lists_and_refuses_in_one_line(stack):
    ok(cli(stack, "group", "add", "Staff"), "created group Staff")
    ok(cli(stack, "group", "add", "ops"), "created group ops")
    refused(cli(stack, "group", "add", "STAFF"), "frontdoor: group Staff exists already (names compare without case)")
    refused(cli(stack, "group", "add", "two words"),
            "frontdoor: Group name may contain only letters (a–z), digits and - _ . : @ + / (no spaces or commas)")
    refused(cli(stack, "group", "add", "a,b"),
            "frontdoor: Group name may contain only letters (a–z), digits and - _ . : @ + / (no spaces or commas)")
    email, _ = signed_up(stack)
    ok(cli(stack, "user", "groups", email, "--add", "staff", "--add", "OPS"), f"{email} is in ops, Staff")
    ok(cli(stack, "user", "groups", email), f"{email} is in ops, Staff")
    refused(cli(stack, "user", "groups", email, "--add", "nope"), "frontdoor: no group nope (frontdoor group add nope makes it)")
    refused(cli(stack, "user", "groups", "nobody@example.com", "--add", "staff"), "frontdoor: no account nobody@example.com")
    listed = cli(stack, "group", "list")
    assert listed.returncode == 0 and [line.split()[:2] for line in listed.stdout.splitlines()[1:]] == [["ops", "1"], ["Staff", "1"]], listed.stdout
    ok(cli(stack, "user", "groups", email, "--remove", "ops", "--remove", "staff"), f"{email} is in no group")
    events = stack.query("SELECT event FROM audit WHERE accountId = (SELECT accountId FROM emailAddress WHERE normalizedAddress = ?) "
                         "AND event LIKE 'group_%' ORDER BY id", email.lower())
    assert [event for (event,) in events] == ["group_member_added"] * 2 + ["group_member_removed"] * 2


def test_a_group_location_admits_members_only(stack):
    cli(stack, "group", "add", "team")
    cli(stack, "group", "add", "ops")
    member, member_token = signed_up(stack)
    _, other_token = signed_up(stack)
    assert status(stack, None, "team") == 401, "anonymous: sign in first (the protect snippet turns it into a redirect)"
    assert status(stack, member_token, "team") == 403 and status(stack, other_token, "team") == 403
    ok(cli(stack, "user", "groups", member, "--add", "team"), f"{member} is in team")
    assert becomes(stack, member_token, "team", 200), "a member, although the address is unproven (membership counts)"
    assert status(stack, other_token, "team") == 403
    assert status(stack, member_token, "mixed") == 403, "mixed admits boss@example.com and group Ops"
    ok(cli(stack, "user", "groups", member, "--add", "ops"), f"{member} is in ops, team")
    assert becomes(stack, member_token, "mixed", 200)
    refused(cli(stack, "group", "remove", "team"), "frontdoor: group team has 1 member(s), who would lose every location "
            "that admits group:team at once; add --force to remove it and its memberships")
    assert status(stack, member_token, "team") == 200
    ok(cli(stack, "group", "remove", "TEAM", "--force"), "removed group team and its 1 membership(s)")
    assert becomes(stack, member_token, "team", 403)


# MARK: - Two hosts on one PostgreSQL


class GroupPair(Pair):
    """hosts.py's Pair with /team and /mixed on A's and on B's own server (each asking its own host)."""

    def write_nginx_config(self):
        super().write_nginx_config()
        prefix = self.prefix
        (prefix / "server.d" / "groups.conf").write_text(group_locations(prefix, None))
        with open(prefix / "frontdoor-b.conf", "a") as site:
            site.write(group_locations(prefix, (str(self.a.socket), str(self.b.socket))))


@pytest.fixture(scope="module")
def sink():
    yield from serving(MailSink())


@pytest.fixture(scope="module")
def pair(tmp_path_factory, sink):
    folder = tmp_path_factory.mktemp("group-hosts")
    settings = {"confirmation.required": "true", **sink.settings(), "mail.throttle": "0s",
                "social.token_key_file": str(folder / "social-tokens.key"),   # one key for both hosts, as an operator copies it
                "database.session_cache_max_age": "5m"}   # only a notification can make B read a membership again
    yield from running(GroupPair(folder, settings))


def cache_hits(target):
    text = requests.get(target.base + "/metrics", timeout=30).text
    return next(float(line.split()[1]) for line in text.splitlines() if line.startswith("frontdoor_session_cache_hits_total "))


@pytest.mark.postgresql_only("two hosts share one PostgreSQL database")
def test_a_membership_change_on_a_reaches_bs_gate_within_a_second(pair, sink):
    assert cli(pair.a, "group", "add", "team").returncode == 0
    email = confirmed(pair, sink)
    token = signed_in(pair.a, email).cookie(SESSION_COOKIE)
    poller = requests.Session()
    after_return, whole = [], []
    for change in range(CHANGES):
        joining = change % 2 == 0
        before, after = (403, 200) if joining else (200, 403)
        hits = cache_hits(pair.b)
        assert status(pair.b, token, "team") == before and status(pair.b, token, "team") == before
        assert cache_hits(pair.b) > hits, "B answers from its own cache, so the change must reach it by NOTIFY"
        started = time.monotonic()
        ok(cli(pair.a, "user", "groups", email, "--add" if joining else "--remove", "team"),
           f"{email} is in team" if joining else f"{email} is in no group")
        returned = time.monotonic()
        while True:
            got = poller.get(f"{pair.b.origin}/team", headers={"Cookie": f"{SESSION_COOKIE}={token}"}, allow_redirects=False,
                             timeout=REQUEST_TIMEOUT).status_code
            now = time.monotonic()
            if got == after:
                break
            assert got == before, f"B's gate answered {got}"
            assert now - returned < WAIT_LIMIT, f"B's gate still answered {got} {now - returned:.1f} s after the change"
            time.sleep(POLL_PAUSE)
        after_return.append(now - returned)
        whole.append(now - started)
        assert becomes(pair.a, token, "team", after), "A's server follows too (the command was a process of its own)"
    line = (f"group membership change on A → B's gate (through nginx, {CHANGES} changes): after the command returned median "
            f"{statistics.median(after_return) * 1000:.0f} ms, max {max(after_return) * 1000:.0f} ms; from the command's start "
            f"median {statistics.median(whole) * 1000:.0f} ms, max {max(whole) * 1000:.0f} ms")
    SUMMARY.append(line)
    print("\n" + line)
