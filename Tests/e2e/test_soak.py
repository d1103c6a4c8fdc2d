"""The soak of issue 11: mixed gate checks, page views and sign-ins through nginx for SOAK_SECONDS (smoke: 30 s;
`make soak`: 600 s with the release build), with 0 errors, frontdoor alive under the same PID, and its RSS and open
file descriptors flat after the warm-up. The figures are printed and written to bench/results/soak.md.

Load: one wrk per kind of request, all at once, each answer checked by bench/soak.lua (status, and body text where
given): the gate `GET /account/auth/check` with a signed-in session cookie (200), the anonymous sign-in page, the
signed-in home and settings pages (200), and `POST /account/sign_in` with the right password and a reused CSRF
cookie + token (303), on one connection per core since each costs an argon2id hash. frontdoor runs with its default
workers (64), as in production; lockout is off since every request comes from 127.0.0.1.

Measure: frontdoor's VmRSS, open fds, threads and the sessions in the database are read every second. The warm-up
ends at a stated condition (warm_up_end): the first sample at least WARM_UP (20 % of the run, at least 5 s) into the
load, at least SETTLE (10 s) after a sign-in of the load was answered (its session is in the database), whose last
SETTLE seconds of RSS lie within SETTLE_BAND (1 %); at the latest at half the run, so a leak that never settles is
still measured. Growth = the highest sample after the warm-up against the last sample of the warm-up, with the
trend after it reported too. The hashing memory is resident before the warm-up even starts: prepare() signs up and
in (two hashes) before the load, and the argon2 pool gives every one of its threads (one per core) its 19 MiB block
before the first hash runs (HashingPool's setUp), so no block becomes resident later by chance of which thread
takes which hash.

The fds asserted on leave out the FastCGI connections in flight (unix sockets other than the listening one): nginx
opens one per request (no fastcgi_keep_conn), so their number at a sample is load, not a leak. They count the
database's files at their bound rather than as many as are open at the sample: the writer, up to GRDB_READERS readers
(opened as reads happen to overlap) and one session-lookup connection per worker (opened by its first signed-in
request), each with its -wal, and the process's one -shm. How many of those are open by the warm-up's end depends on
scheduling; that they never exceed the bound is asserted instead. So the growth asserted is that of everything else
(log, std streams, listening socket, epoll), against what frontdoor holds with its pools full. The raw counts are
reported too. On PostgreSQL (FRONTDOOR_E2E_BACKEND) the database's connections are its pool's sockets, counted by the
server (pg_stat_activity) and bounded by database.pool_size plus the session listener's one; the size reported is pg_database_size (no WAL of its own).
"""
import datetime
import json
import os
import re
import subprocess
import threading
import time
from collections import namedtuple
from urllib.parse import urlencode

import pytest
import requests

from http_client import CSRF, Browser
from stack import BIN, ROOT, Stack, running
from users import unique_email

PASSWORD = "soak horse battery staple"
SECONDS = int(os.environ.get("SOAK_SECONDS") or 30)
WARM_UP = max(0.2 * SECONDS, 5.0)   # the least warm-up; it lasts on while RSS is still settling (warm_up_end)
SETTLE = 10.0           # RSS settled: within SETTLE_BAND over the last SETTLE seconds
SETTLE_BAND = 0.01
INTERVAL = 1.0          # seconds between two samples of RSS and fds
GROWTH_LIMIT = 0.10
HASHERS = os.cpu_count() or 1  # frontdoor hashes on one thread per core, each keeping its argon2 block
GRDB_READERS = 8        # the database pool's most readers (AppDatabase.makeConfiguration, maximumReaderCount)


@pytest.fixture(scope="module")
def soak_stack(tmp_path_factory):
    """Fit for load: lockout off (everything comes from 127.0.0.1), confirmation off, mail to an outbox, warnings
    and worse in frontdoor's log, no nginx access log (millions of lines in a long run)."""
    config = {"confirmation.required": "false", "mail.transport": "outbox", "lockout.max_failures": "0",
              "lockout.address_max_failures": "0", "log.level": "warning"}
    # frontdoor with its default number of workers (fastcgi.workers, 64) as in production, not the suite's 4:
    # what is soaked is what operators run.
    yield from running(Stack(tmp_path_factory.mktemp("stack"), config, workers=None,
                             server_files=lambda stack: {"soak.conf": "access_log off;\n"}))


def prepare(stack):
    """An account signed in by sign-up (its session cookie), and an anonymous CSRF cookie + token, each checked once."""
    email = unique_email("soak")
    user = Browser(stack)
    user.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    session = user.cookie("frontdoor_session")
    assert session, "sign-up did not sign in (confirmation should be off)"
    cookie = f"frontdoor_session={session}"
    assert requests.get(stack.base + "/auth/check", headers={"Cookie": cookie}, timeout=10).status_code == 200
    for path in ("/", "/settings"):
        page = requests.get(stack.base + path, headers={"Cookie": cookie}, timeout=10, allow_redirects=False)
        assert page.status_code == 200 and email in page.text, (path, page.status_code)

    anonymous = requests.get(stack.base + "/sign_in", timeout=10)
    token, binding = CSRF.search(anonymous.text), anonymous.cookies.get("frontdoor_csrf")
    assert anonymous.status_code == 200 and token and binding
    body = urlencode({"email": email, "password": PASSWORD, "csrf_token": token.group(1)})
    signed_in = requests.post(stack.base + "/sign_in", data=body, timeout=30, allow_redirects=False,
                              headers={"Cookie": f"frontdoor_csrf={binding}",
                                       "Content-Type": "application/x-www-form-urlencoded"})
    assert signed_in.status_code == 303, signed_in.status_code
    return {"email": email, "cookie": cookie, "csrf_cookie": f"frontdoor_csrf={binding}", "signin_body": body}


def kinds(values):
    """(name, connections, path, wrk.lua environment) for each kind of request."""
    signed_in, email = values["cookie"], values["email"]
    return [
        ("gate check (200)", 4, "/auth/check", {"SOAK_COOKIE": signed_in}),
        ("sign-in page, anonymous", 2, "/sign_in", {"SOAK_CONTAINS": 'name="csrf_token"'}),
        ("home page, signed in", 2, "/", {"SOAK_COOKIE": signed_in, "SOAK_CONTAINS": email}),
        ("settings page, signed in", 2, "/settings", {"SOAK_COOKIE": signed_in, "SOAK_CONTAINS": email}),
        ("sign-in POST (303)", HASHERS, "/sign_in", {"SOAK_METHOD": "POST", "SOAK_BODY": values["signin_body"],
                                                "SOAK_COOKIE": values["csrf_cookie"], "SOAK_EXPECT": "303"}),
    ]


def effective_workers(stack):
    """fastcgi.workers and database.pool_size as frontdoor reads its config (`config check`), for the bound on
    database connections."""
    result = subprocess.run([BIN, "config", "check", "--config", str(stack.config_path)], capture_output=True, text=True,
                            timeout=300, cwd=stack.folder)
    assert result.returncode == 0, result.stderr
    return (int(re.search(r"^\s*workers: (\d+)$", result.stdout, re.M).group(1)),
            int(re.search(r"^\s*pool_size: (\d+)$", result.stdout, re.M).group(1)))


def listening_sockets():
    """Inodes of the listening unix sockets (flag __SO_ACCEPTCON in /proc/net/unix)."""
    with open("/proc/net/unix") as table:
        rows = [line.split() for line in table.read().splitlines()[1:]]
    return {row[6] for row in rows if len(row) >= 7 and int(row[3], 16) & 0x10000}


# One sample: seconds since the sampler started, VmRSS (KiB), open fds, of them the FastCGI connections in flight
# and the database's files (main file, -wal, -shm), connections to the main file, threads, sessions in the database.
Sample = namedtuple("Sample", "t rss fds in_flight db_fds db_connections threads sessions")


class Sampler(threading.Thread):
    """Every INTERVAL seconds, a Sample of the process `pid` of `stack` (samples); an error other than the process
    being gone is kept in `error` for the test to report."""

    def __init__(self, stack, pid):
        super().__init__(daemon=True)
        self.stack, self.pid, self.samples, self.stopping, self.error = stack, pid, [], threading.Event(), None
        self.started = time.monotonic()

    def sample(self):
        with open(f"/proc/{self.pid}/status") as status:
            text = status.read()
        rss = int(re.search(r"^VmRSS:\s+(\d+) kB", text, re.M).group(1))
        threads = int(re.search(r"^Threads:\s+(\d+)", text, re.M).group(1))
        targets = []
        for fd in os.listdir(f"/proc/{self.pid}/fd"):
            try:
                targets.append(os.readlink(f"/proc/{self.pid}/fd/{fd}"))
            except FileNotFoundError:  # closed between the listing and the read: not open any more
                pass
        listening = listening_sockets()
        in_flight = [t for t in targets if t.startswith("socket:[") and t[8:-1] not in listening]
        if self.stack.store.kind == "postgresql":   # the pool's connections are sockets too: the server counts them
            connections = self.stack.query("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
                                           "AND pid <> pg_backend_pid()")[0][0]
            db_fds, in_flight = connections, in_flight[connections:]
        else:
            database = str(self.stack.db)
            db_files = [t for t in targets if t in (database, database + "-wal", database + "-shm")]
            db_fds, connections = len(db_files), db_files.count(database)
        sessions = self.stack.count("session")
        self.samples.append(Sample(time.monotonic() - self.started, rss, len(targets), len(in_flight), db_fds,
                                   connections, threads, sessions))

    def run(self):
        while True:
            try:
                self.sample()
            except (OSError, AttributeError):  # the process is gone: the test's liveness check says so
                return
            except Exception as error:   # the database's (sqlite3 or psycopg)
                self.error = error
                return
            if self.stopping.wait(INTERVAL):
                return


def warm_up_end(samples, sessions_before):
    """The time the warm-up ends: the first sample t with t >= WARM_UP, a sign-in of the load answered (a session
    more than `sessions_before` in the database) at or before t - SETTLE, and RSS within SETTLE_BAND over [t - SETTLE,
    t]; at the latest half the run. Why a condition and not a fixed time: the first seconds of load fill bounded
    caches (a SQLite page cache per worker and per pool reader, malloc arenas), a step that must not be read as
    growth. A leak still shows: a fast one never settles, so the warm-up stops at half the run and the rest is
    measured; a slow one settles and climbs afterwards."""
    latest = max(WARM_UP, SECONDS / 2)
    signed_in = [s.t for s in samples if s.sessions > sessions_before]
    for sample in samples:
        t = sample.t
        if t > latest:
            break
        window = [s.rss for s in samples if t - SETTLE <= s.t <= t]
        if t >= WARM_UP and signed_in and signed_in[0] <= t - SETTLE and max(window) <= min(window) * (1 + SETTLE_BAND):
            return t
    return latest


def growth(samples, value, end):
    """(value at the warm-up's end, at the end, highest after the warm-up, growth of that highest vs the warm-up's
    end) of value(sample)."""
    warm = [value(s) for s in samples if s.t <= end]
    rest = [value(s) for s in samples if s.t > end] or warm[-1:]  # none: frontdoor died (asserted first)
    return warm[-1], rest[-1], max(rest), (max(rest) - warm[-1]) / warm[-1]


def slopes(samples, value, end):
    """Least-squares slopes of value(sample) per minute over the first and the second half of the samples after the
    warm-up: a steady climb shows here even while the highest sample is within the limit, and a climb that slows
    down (caches filling) can be told from one that does not (a leak)."""
    rest = [(s.t, value(s)) for s in samples if s.t > end]

    def slope(points):
        if len(points) < 2:
            return 0.0
        mean_t, mean_v = sum(t for t, _ in points) / len(points), sum(v for _, v in points) / len(points)
        spread = sum((t - mean_t) ** 2 for t, _ in points)
        return 60 * sum((t - mean_t) * (v - mean_v) for t, v in points) / spread if spread else 0.0
    return slope(rest[:len(rest) // 2]), slope(rest[len(rest) // 2:])


def database_bytes(stack):
    """Sizes of the SQLite file and of its WAL, in bytes (PostgreSQL: the database's size, and 0)."""
    if stack.store.kind == "postgresql":
        return stack.query("SELECT pg_database_size(current_database())")[0][0], 0
    wal = stack.db.with_name(stack.db.name + "-wal")
    return stack.db.stat().st_size, wal.stat().st_size if wal.exists() else 0


def test_soak(soak_stack):
    stack = soak_stack
    values = prepare(stack)
    pid = stack.app.pid
    sessions_before = stack.count("session")
    database_before = database_bytes(stack)
    work = stack.folder / "soak"
    work.mkdir()
    plan = kinds(values)
    workers, pool_size = effective_workers(stack)
    # Every connection to the database: a session lookup per worker, GRDB's writer and readers; each holds the file
    # and its -wal, and the process one -shm. PostgreSQL: the pool's connections, one socket each, and the session
    # cache's listener (PostgresListener: one connection of its own, outside the pool). With 64 workers and a pool of
    # 10 the pool fills whenever requests queue for it, so the bound is reached by design, never passed.
    if stack.store.kind == "postgresql":
        db_connection_bound = db_fd_bound = pool_size + 1
        bound_text = f"database.pool_size {pool_size} + the listener"
    else:
        db_connection_bound = workers + 1 + GRDB_READERS
        db_fd_bound = 2 * db_connection_bound + 1
        bound_text = f"{workers} workers + writer + {GRDB_READERS} readers"

    sampler = Sampler(stack, pid)
    sampler.start()
    runs, reports = [], []
    try:
        for index, (name, connections, path, env) in enumerate(plan):
            out = work / f"kind{index}.json"
            timeout = "30s" if env.get("SOAK_METHOD") == "POST" else "10s"
            command = ["wrk", "-t1", f"-c{connections}", f"-d{SECONDS}s", f"--timeout={timeout}", "--latency",
                       "-s", str(ROOT / "bench/soak.lua"), stack.base + path]
            runs.append((name, connections, out, subprocess.Popen(
                command, env={**os.environ, **env, "SOAK_OUT": str(out)}, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True)))
        for name, connections, out, process in runs:
            output, _ = process.communicate(timeout=SECONDS + 90)
            assert process.returncode == 0 and out.exists(), f"wrk for {name} failed:\n{output}"
            reports.append((name, connections, json.loads(out.read_text())))
    finally:
        for _, _, _, process in runs:  # only on a failure: wrk stops by itself after SOAK_SECONDS
            if process.poll() is None:
                process.kill()
                process.wait()
        sampler.stopping.set()
        sampler.join()
    alive = stack.app.poll() is None and stack.app.pid == pid
    sessions_made = stack.count("session") - sessions_before
    database_after = database_bytes(stack)

    samples = sampler.samples
    warm_up = warm_up_end(samples, sessions_before)
    rss = growth(samples, lambda s: s.rss, warm_up)
    fds = growth(samples, lambda s: s.fds, warm_up)
    fds_net = growth(samples, lambda s: s.fds - s.in_flight - s.db_fds + db_fd_bound, warm_up)
    db_connections = growth(samples, lambda s: s.db_connections, warm_up)
    db_fds_max = max(s.db_fds for s in samples)
    threads = growth(samples, lambda s: s.threads, warm_up)
    nginx_errors = [line for line in (stack.folder / "nginx/error.log").read_text().splitlines()
                    if re.search(r"\[(error|crit|alert|emerg)\]", line)]
    app_log = [line for line in (stack.folder / "frontdoor.log").read_text().splitlines() if line.strip()]
    app_errors = [line for line in app_log if re.match(r"\S+ (error|critical) ", line)]

    def errors(report):
        return report["unexpected"] + report["connect"] + report["read"] + report["write"] + report["timeout"]

    total = sum(r["requests"] for _, _, r in reports)
    signed_in = sum(r["expected"] for name, _, r in reports if name.startswith("sign-in POST"))
    total_errors = sum(errors(r) for _, _, r in reports)
    seconds = max(r["seconds"] for _, _, r in reports)
    mib = lambda kib: f"{kib / 1024:.1f}"
    lines = [
        f"### Soak: {SECONDS} s, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
        "",
        f"`{BIN}` (default workers) behind nginx, one `wrk -t1` per kind (bench/soak.lua) all at once; "
        f"warm-up {warm_up:.0f} s (at least {WARM_UP:.0f} s, until {SETTLE:.0f} s after a sign-in of the load RSS "
        f"stayed within {SETTLE_BAND:.0%}); {len(samples)} samples of RSS and fds, "
        f"one per {INTERVAL:.0f} s; {os.cpu_count()} cores.",
        "",
        "| kind | connections | requests | req/s | p50 ms | p99 ms | max ms | errors |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, connections, r in reports:
        detail = "" if not errors(r) else (f" (unexpected {r['unexpected']}, connect {r['connect']}, read {r['read']}, "
                                           f"write {r['write']}, timeout {r['timeout']}; first: {(r['samples'] or [''])[0]})")
        lines.append(f"| {name} | {connections} | {r['requests']:,} | {r['rps']:,.1f} | {r['p50_ms']:.2f} | "
                     f"{r['p99_ms']:.2f} | {r['max_ms']:.1f} | {errors(r)}{detail} |")
    lines += [
        f"| **all** | {sum(c for _, c, _ in reports)} | {total:,} | {total / seconds:,.1f} | | | | {total_errors} |",
        "",
        "| frontdoor | warm-up end | end | max after warm-up | growth (max vs warm-up end) |",
        "|---|---:|---:|---:|---:|",
        f"| RSS MiB | {mib(rss[0])} | {mib(rss[1])} | {mib(rss[2])} | {rss[3]:+.1%} "
        "(trend {:+,.0f} then {:+,.0f} KiB/min) |".format(*slopes(samples, lambda s: s.rss, warm_up)),
        f"| open fds | {fds[0]} | {fds[1]} | {fds[2]} | {fds[3]:+.1%} |",
        f"| open fds without FastCGI connections in flight, database files counted at their bound ({db_fd_bound}) | "
        f"{fds_net[0]} | {fds_net[1]} | {fds_net[2]} | {fds_net[3]:+.1%} |",
        f"| database connections (bound {db_connection_bound}: {bound_text}) | "
        f"{db_connections[0]} | {db_connections[1]} | {db_connections[2]} | {db_connections[3]:+.1%} |",
        f"| threads | {threads[0]} | {threads[1]} | {threads[2]} | {threads[3]:+.1%} |",
        "",
        f"Sessions made during the soak: {sessions_made:,} (sign-ins answered 303: {signed_in:,}); "
        f"database ({stack.store.kind}) {mib(database_before[0] / 1024)} → {mib(database_after[0] / 1024)} MiB, "
        f"its WAL {mib(database_before[1] / 1024)} → {mib(database_after[1] / 1024)} MiB. "
        f"frontdoor alive with the same PID: {'yes' if alive else 'NO'}. nginx [error] or worse: {len(nginx_errors)}; "
        f"frontdoor log lines (level warning and up): {len(app_log)}, of them error/critical: {len(app_errors)}.",
    ]
    figures = "\n".join(lines) + "\n"
    print("\n" + figures)
    (ROOT / "bench/results").mkdir(exist_ok=True)
    (ROOT / "bench/results/soak.md").write_text(figures)

    assert sampler.error is None, f"sampling failed: {sampler.error!r}"
    assert alive, "frontdoor died or was restarted during the soak"
    assert total_errors == 0, f"{total_errors} errors: {[(n, r) for n, _, r in reports if errors(r)]}"
    assert all(r["requests"] > 0 for _, _, r in reports), "a kind of request got no answer at all"
    assert sessions_made >= signed_in, "a sign-in answered 303 without a session in the database"
    assert not nginx_errors, "\n".join(nginx_errors[:10])
    assert not app_errors, "\n".join(app_errors[:10])
    assert rss[3] < GROWTH_LIMIT, f"RSS grew {rss[3]:.1%} after the warm-up: {samples}"
    assert fds_net[3] < GROWTH_LIMIT, f"open fds grew {fds_net[3]:.1%} after the warm-up: {samples}"
    assert max(s.db_connections for s in samples) <= db_connection_bound, f"more database connections than the pools hold: {samples}"
    assert db_fds_max <= db_fd_bound, f"more database files open than its connections hold: {samples}"
