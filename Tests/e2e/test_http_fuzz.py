"""HTTP-level fuzz through nginx: hostile requests to every route and method of one frontdoor stack.

One stack (API on, confirmation off, mail to an outbox folder; lockout by client address set very high so the
fuzz's failed sign-ins from 127.0.0.1 do not lock the final check out) gets HTTP_FUZZ_REQUESTS requests (default
3 000, the smoke in `make e2e`; `make http-fuzz` sends 100 000) from a seeded generator (HTTP_FUZZ_SEED, else 1 for the
smoke and a random one, printed, for the long run), sent over raw sockets by 4 threads: every route and method plus junk methods and paths,
anonymous and signed in (real, mutated and forged session, CSRF and API credentials), valid forms and JSON bodies
(with real CSRF tokens so the handlers go deep) mutated, multipart and other content types, huge, empty and invalid
UTF-8 values, odd framing, garbage headers and query strings. See httpfuzz.py for the generator.

It asserts: no answer is 500 (or 502/503/504, which would mean frontdoor died or hung behind nginx), every request
that was framed completely got an answer, frontdoor's process is alive with the same PID at the end, its RSS after
warm-up stays under 1.5x the RSS at 10 % of the run, and a normal sign-in still works. nginx's own 400/413/414/494
answers are fine. The figures (markdown) are printed and written to bench/results/http-fuzz.md.

REGRESSIONS are fixed requests that must never answer 500: any request the fuzz finds answering 500 goes there.
"""
import os
import random
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from http_client import Browser
from stack import ROOT, new_stack
from users import unique_email
from httpfuzz import BAD_STATUSES, PASSWORD, ROUTE_METHODS, Generator, Material, Tally, Wire, describe, rss_kib, send

REQUESTS = int(os.environ.get("HTTP_FUZZ_REQUESTS") or 3000)
CHUNK = 100  # requests between checks of the process, RSS samples and renewals of the signed-in material
THREADS = 4
RSS_GROWTH_LIMIT = 1.5
RESULTS = ROOT / "bench/results/http-fuzz.md"


@pytest.fixture(scope="module")
def fuzz_stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {
        "confirmation.required": "false", "mail.transport": "outbox", "api.enabled": "true", "mail.throttle": "0s",
        "lockout.address_max_failures": "1000000"})


# MARK: - Fixed regression requests

def raw(method, target, headers=(), body=b""):
    """A fixed request as bytes (Host and Connection: close added)."""
    head = method + b" " + target + b" HTTP/1.1\r\nHost: fuzz.test\r\n" + b"".join(h + b"\r\n" for h in headers)
    return head + b"Connection: close\r\n\r\n" + body


def json_post(target, body, extra=()):
    return raw(b"POST", target, [b"Content-Type: application/json", b"Content-Length: %d" % len(body), *extra], body)


def form_post(target, body, extra=()):
    return raw(b"POST", target, [b"Content-Type: application/x-www-form-urlencoded", b"Content-Length: %d" % len(body),
                                 *extra], body)


REGRESSIONS = {
    "deeply nested JSON array (API)": json_post(b"/account/v1/users", b"[" * 30000 + b"1" + b"]" * 30000),
    "deeply nested JSON object (verify)": json_post(b"/account/verify", b'{"a":' * 20000 + b"1" + b"}" * 20000),
    "JSON number too big for a double": json_post(b"/account/v1/users/sign_in", b'{"user":{"email":1e999999}}'),
    "JSON huge integer as password": json_post(b"/account/v1/users", b'{"user":{"email":"a@b.c","password":' + b"9" * 5000 + b"}}"),
    "JSON lone surrogate": json_post(b"/account/v1/residences", b'{"email":"\\ud800"}'),
    "JSON invalid UTF-8": json_post(b"/account/v1/users/password", b'{"user":{"email":"\xff\xfe"}}'),
    "form with invalid UTF-8 and percent garbage": form_post(b"/account/sign_in", b"email=%ff%fe&password=\xc3&csrf_token=%"),
    "form body one byte over max_body_bytes": form_post(b"/account/sign_up", b"email=" + b"a" * 65531),
    "query with invalid UTF-8": raw(b"GET", b"/account/confirm?token=%ff%c3%28&rd=\xff"),
    "Accept-Language garbage": raw(b"GET", b"/account/sign_in", [b"Accept-Language: xx-YY;q=abc,;;;,en;q=1.5,\xff"]),
    "forged session and garbage cookies": raw(b"GET", b"/account/settings", [b"Cookie: frontdoor_session=" + b"A" * 43
                                                                             + b"; frontdoor_accounts=\xff; =;="]),
    "API token garbage": raw(b"PUT", b"/account/v1/users", [b"X-User-Email: \xff@x", b"X-User-Token: " + b"%" * 100,
                                                            b"Content-Length: 0"]),
    "residence verify with an odd id": json_post(b"/account/v1/residences/%ff%2F../verify", b'{"secret":[]}'),
    "multipart without its boundary": raw(b"POST", b"/account/sign_in", [
        b"Content-Type: multipart/form-data; boundary=", b"Content-Length: 8"], b"--\r\n--\r\n"),
    "junk method": raw(b"PROPFIND", b"/account/settings/emails"),
    # Found by the fuzz (seed 1): the sign-in redirect of a protected page carries the whole URL, re-encoded, in its
    # Location; past ~4 KiB of header nginx says "upstream sent too big header" and answers 502.
    "anonymous protected page with a 4 000-byte query": raw(b"GET", b"/account/settings?state=" + b"a" * 4000),
    "anonymous protected page with 1 000 encoded percent signs": raw(b"GET", b"/account/settings/sessions?state="
                                                                     + b"%25" * 1000),
    "gate with a forged original URL": raw(b"GET", b"/account/auth/check", [b"X-Original-URL: \xff://", b"X-Original-Method: \x00"]),
}


@pytest.mark.parametrize("name", list(REGRESSIONS))
def test_fixed_hostile_requests_do_not_answer_500(fuzz_stack, name):
    answer = send(fuzz_stack.port, Wire(REGRESSIONS[name], name))
    assert isinstance(answer.status, int) and answer.status not in BAD_STATUSES, (name, answer.status, answer.head)
    assert fuzz_stack.app.poll() is None, fuzz_stack.logs()


# MARK: - The random stream

def test_random_hostile_requests_never_answer_500_nor_kill_frontdoor(fuzz_stack):
    # The smoke in `make test` is the same requests every time (seed 1); the long run (`make http-fuzz`) draws one.
    default = random.SystemRandom().randrange(10**9) if os.environ.get("HTTP_FUZZ_REQUESTS") else 1
    seed = int(os.environ.get("HTTP_FUZZ_SEED") or default)
    print(f"\nHTTP fuzz: seed {seed} (rerun with HTTP_FUZZ_SEED={seed}), {REQUESTS} requests")
    check_email = signed_up_check_account(fuzz_stack)
    pid = fuzz_stack.app.pid
    material = Material(fuzz_stack)
    material.refresh()
    generator = Generator(seed, fuzz_stack.port, material)
    tally = Tally()
    tally.rss.append((0, rss_kib(pid)))
    started = time.monotonic()
    died = run(fuzz_stack, generator, material, tally, pid)
    seconds = time.monotonic() - started
    signs_in = not died and normal_sign_in_works(fuzz_stack, check_email)
    warm, peak = rss_after_warm_up(tally)
    errors = logged_errors(fuzz_stack)
    figures = figures_block(seed, seconds, tally, died, pid, warm, peak, errors, material, signs_in)
    print(figures)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(figures)
    assert not died, f"frontdoor died (or was replaced) during the fuzz:\n{fuzz_stack.logs()}"
    assert tally.bad_total == 0, "\n".join(describe(wire, answer) for wire, answer in tally.bad) + "\n" + "\n".join(errors[:20])
    assert fuzz_stack.app.pid == pid and fuzz_stack.app.poll() is None
    assert peak < RSS_GROWTH_LIMIT * warm, f"RSS grew from {warm} kB (10 %) to {peak} kB"
    assert signs_in, "a normal sign-in failed after the fuzz"


def run(stack, generator, material, tally, pid):
    """Sends the stream in chunks; after each chunk checks frontdoor is alive, samples its RSS and renews the material.
    Returns True when frontdoor died."""
    with ThreadPoolExecutor(THREADS) as pool:
        while tally.sent < REQUESTS:
            wires = [generator.request() for _ in range(min(CHUNK, REQUESTS - tally.sent))]
            for wire, answer in zip(wires, pool.map(lambda wire: send(stack.port, wire), wires)):
                tally.record(wire, answer)
            if stack.app.poll() is not None or stack.app.pid != pid:
                return True
            tally.rss.append((tally.sent, rss_kib(pid)))
            material.refresh()
    return False


def signed_up_check_account(stack):
    """An account the generator never names, for the sign-in at the end."""
    email = unique_email("fuzzcheck")
    answer = Browser(stack).post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert answer.status_code == 303, answer.text[:300]
    return email


def normal_sign_in_works(stack, email):
    browser = Browser(stack)
    if browser.post("/sign_in", {"email": email, "password": PASSWORD}).status_code != 303:
        return False
    return browser.get("/settings").status_code == 200


def rss_after_warm_up(tally):
    """(RSS at the first sample at or past 10 % of the requests, the highest RSS after it), in kB."""
    warm_index = next(i for i, (sent, _) in enumerate(tally.rss) if sent >= max(1, tally.sent // 10))
    warm = tally.rss[warm_index][1]
    return warm, max(rss for _, rss in tally.rss[warm_index:])


def logged_errors(stack):
    """frontdoor's log lines at level error or above (every 500 is logged as "request failed")."""
    log = Path(stack.folder / "frontdoor.log").read_text(errors="replace")
    return [line for line in log.splitlines() if line.split(" ", 2)[1:2] in (["error"], ["critical"])]


def figures_block(seed, seconds, tally, died, pid, warm, peak, errors, material, signs_in):
    statuses = sorted(tally.statuses.items(), key=lambda item: (not isinstance(item[0], int), str(item[0])))
    rows = "\n".join(f"| {status} | {count} | {tally.status_lines.get(status, b'')!r} |" for status, count in statuses)
    fives = tally.statuses.get(500, 0)
    declared = {f"{method} {route}" for route, methods in ROUTE_METHODS.items() for method in methods}
    missing = declared - {f"{method} {route}" for route, method in tally.reached}
    bare = sorted(str(s) for s, line in tally.status_lines.items() if isinstance(s, int) and line.count(b" ") < 2)
    lines = [
        "## HTTP fuzz through nginx (Tests/e2e/test_http_fuzz.py)", "",
        f"- seed: {seed}; requests sent: {tally.sent} in {seconds:.1f} s ({tally.sent / max(seconds, 1e-9):.0f}/s, "
        f"{THREADS} connections at a time); slowest answer {tally.slowest:.2f} s",
        f"- answers with status 500: {fives}; 502/503/504: {sum(tally.statuses.get(s, 0) for s in (502, 503, 504))}; "
        f"bad answers in all (incl. none to a complete request): {tally.bad_total}",
        f"- process deaths: {1 if died else 0} (PID {pid} throughout: {'no' if died else 'yes'})",
        f"- RSS: start {tally.rss[0][1] / 1024:.1f} MiB, at 10 % {warm / 1024:.1f} MiB, peak after {peak / 1024:.1f} MiB "
        f"(limit {RSS_GROWTH_LIMIT}x = {RSS_GROWTH_LIMIT * warm / 1024:.1f} MiB), end {tally.rss[-1][1] / 1024:.1f} MiB",
        f"- answered by frontdoor: {tally.from_frontdoor}, by nginx itself (400/413/414/494/505 …, static files): "
        f"{tally.sent - tally.from_frontdoor}; declared (route, method) pairs frontdoor answered: "
        f"{len(declared - missing)} of {len(declared)}{' (never: ' + ', '.join(sorted(missing)) + ')' if missing else ''}; "
        f"(route, method) pairs in all, junk included: {len(tally.reached)}",
        f"- status lines without a reason phrase (RFC 9112 wants `HTTP/1.1 415 ` at least): "
        f"{', '.join(bare) or 'none'}",
        f"- frontdoor error log lines: {len(errors)}; signed-in material renewed {material.renewals} times; "
        f"normal sign-in afterwards: {'works' if signs_in else 'FAILED'}", "",
        "| status | count | first status line seen |", "|---|---|---|", rows, "",
    ]
    return "\n".join(lines)
