"""End-to-end fixtures: a real nginx in front of a real frontdoor process, its database, an SMTP sink.

The database is a SQLite file in the stack's folder, or with FRONTDOOR_E2E_BACKEND=postgresql a new database in one
private PostgreSQL cluster per pytest process (backends.py; `make e2e-postgres`). Tests read and change rows through
the Stack (query, records, count, connect) in SQLite's `?` style on both. A test about SQLite itself carries
@pytest.mark.sqlite_only("why"): deselected on PostgreSQL, with the reasons listed at the end of the run; a test that
needs PostgreSQL (several hosts on one database) carries @pytest.mark.postgresql_only("why"): deselected on SQLite.
A test module may add lines to SUMMARY (figures to quote), printed once at the end of the run.

Every stack takes free loopback ports (free_port: outside the kernel's ephemeral range, never 8080 or 5432) and its
own temp folder. Its frontdoor runs with netguard.c preloaded: no connection leaves loopback and no name lookup reaches a
DNS server, and a stack that tried either fails its tests (issue 22).
"""
import atexit
import email
import email.policy
import errno
import fcntl
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
import requests
from aiosmtpd.controller import Controller
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

import backends

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("FRONTDOOR_BIN", str(ROOT / ".build/debug/frontdoor"))
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
# A bound on one request of a test (a hang fails the test), generous for a loaded 2-core machine where sign-ins queue
# for argon2; never what a test measures.
REQUEST_TIMEOUT = 60


_netguard_lock = threading.Lock()
_netguard = []


def netguard_library():
    """Tests/e2e/netguard.c, built once per test process in a temp folder of its own."""
    with _netguard_lock:
        if not _netguard:
            folder = Path(tempfile.mkdtemp(prefix="frontdoor-netguard-"))
            atexit.register(shutil.rmtree, folder, True)
            subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(folder / "netguard.so"), str(ROOT / "Tests/e2e/netguard.c"),
                            "-ldl"], check=True)
            _netguard.append(folder / "netguard.so")
        return _netguard[0]


NEVER_PORTS = {8080, 5432}
PORT_LOCKS = Path(tempfile.gettempdir()) / f"frontdoor-e2e-ports-{os.getuid()}"
_ports_lock = threading.Lock()
_ports_handed_out = set()
_port_lock_files = []  # one open, flock'ed file per port handed out: the port stays this process's until it ends


def ephemeral_port_range():
    """The kernel's range for the local ports of outgoing connections (and of bind to port 0)."""
    try:
        low, high = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
        return low, high
    except (OSError, ValueError):
        return 32768, 60999  # Linux's default


def port_candidates():
    """Ports 20000-65535 outside the ephemeral range, without 8080 and 5432, starting at a place that depends on the
    process id (so two pytest processes at once mostly try different ports first)."""
    low, high = ephemeral_port_range()
    ports = [port for port in range(20000, 65536) if not low <= port <= high and port not in NEVER_PORTS]
    if not ports:
        raise RuntimeError(f"no loopback port outside the ephemeral range {low}-{high} "
                           "(/proc/sys/net/ipv4/ip_local_port_range) for the tests' servers")
    start = os.getpid() * 7919 % len(ports)
    return ports[start:] + ports[:start]


def bindable(port):
    """True when nothing is bound to 127.0.0.1:`port` nor to [::1]:`port` (where a browser's "localhost" may go first),
    nor left in TIME_WAIT there (no SO_REUSEADDR)."""
    for family, address in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        try:
            probe = socket.socket(family)
        except OSError:  # no IPv6 here: nothing can listen on ::1 either
            continue
        with probe:
            try:
                probe.bind((address, port))
            except OSError as error:
                if family == socket.AF_INET6 and error.errno == errno.EADDRNOTAVAIL:  # IPv6 without ::1
                    continue
                return False
    return True


def free_port():
    """A loopback port for a server a test starts, chosen so nothing else can take it before the server binds it:
    outside the kernel's ephemeral range (an outgoing connection of this very run, or a connect to a closed port,
    never gets it as its local port), never one handed out before in this process, held for the rest of this process
    by an flock'ed file in PORT_LOCKS (so another pytest process at the same time skips it), and free when checked."""
    with _ports_lock:
        PORT_LOCKS.mkdir(mode=0o700, exist_ok=True)
        for port in port_candidates():
            if port in _ports_handed_out:
                continue
            lock = open(PORT_LOCKS / str(port), "a")  # not inherited by the servers (O_CLOEXEC)
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # another pytest process holds it
                lock.close()
                continue
            if not bindable(port):
                lock.close()
                continue
            _ports_handed_out.add(port)
            _port_lock_files.append(lock)
            return port
    raise RuntimeError("no free loopback port left")


def wait_for(condition, timeout=60.0, what="condition"):
    """Polls `condition` until it returns something truthy; fails the test after `timeout` seconds (a bound for a
    hang, generous for a loaded 2-core machine, never what a test measures)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def read_mail(raw):
    """A mail as written (bytes or str) parsed by the standard library: policy.default decodes the encoded words of its
    headers, and get_content() the quoted-printable of its parts."""
    return email.message_from_bytes(raw if isinstance(raw, bytes) else raw.encode("utf-8"), policy=email.policy.default)


def mail_text(message):
    """The decoded bodies of every text part of `message` (plain, then HTML): what a test searches for a link or a
    sentence (the raw text is quoted-printable: a link's "=" is "=3D" there and long lines are cut)."""
    return "\n".join(part.get_content() for part in message.walk() if part.get_content_maintype() == "text")


def mail_fields_and_text(message):
    """The decoded header fields of `message` ("Subject: …" lines), then its decoded bodies."""
    return "".join(f"{name}: {value}\n" for name, value in message.items()) + mail_text(message)


class MailSink:
    """A real SMTP server (aiosmtpd) on a loopback port that keeps what it receives: each message as "data" (the text
    as received), "message" (parsed, see read_mail) and "text" (its decoded fields and bodies, see mail_fields_and_text)."""

    def __init__(self):
        self.port = free_port()
        self.messages = []
        self.lock = threading.Condition()
        self.controller = None

    async def handle_DATA(self, server, session, envelope):
        message = read_mail(envelope.original_content)
        with self.lock:
            self.messages.append({"to": envelope.rcpt_tos, "from": envelope.mail_from,
                                  "data": envelope.original_content.decode("utf-8", "replace"),
                                  "message": message, "text": mail_fields_and_text(message)})
            self.lock.notify_all()
        return "250 OK"

    def start(self):
        # ready_timeout: how long start() waits for the server to answer (aiosmtpd's default, 5 s, is short for a
        # loaded machine); a bound, not a measure.
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port, ready_timeout=60)
        self.controller.start()

    def stop(self):
        if self.controller:
            self.controller.stop()
            self.controller = None

    def wait_for_mail(self, to, containing="", timeout=60.0):
        """The newest message to `to` whose decoded fields or bodies contain `containing`, waiting (on the sink's condition,
        notified by each delivery) until one arrives; fails the test after `timeout` seconds."""
        def found():  # called with self.lock held
            for m in reversed(self.messages):
                if any(r.lower() == to.lower() for r in m["to"]) and containing in m["text"]:
                    return m
            return None
        with self.lock:
            mail = self.lock.wait_for(found, timeout)
        if not mail:
            raise AssertionError(f"timed out waiting for mail to {to} containing {containing!r}")
        return mail

    def link(self, to, marker):
        mail = self.wait_for_mail(to, marker)
        return re.search(r"https?://[^\s<>\"]+" + re.escape(marker) + r"[^\s<>\"]*", mail["text"]).group(0)


class Stack:
    """frontdoor serve + nginx (from nginx/frontdoor.conf via nginx/render) on free ports in `folder`."""

    def __init__(self, folder: Path, config: dict, server_files=None, extra_yaml="", workers=4, names=""):
        self.folder = folder
        self.netguard_log = folder / "netguard.log"   # what netguard.c saw: lookups, loopback connects, blocked ones
        (folder / "netguard.hosts").write_text(names)   # the only names frontdoor can look up: "name answer1 answer2 …"
        self.workers = workers  # frontdoor's --workers; None: its own default (fastcgi.workers), as in production
        self.server_files = server_files  # callable(stack) -> {name: nginx text} for PREFIX/server.d, or None
        self.port = free_port()
        self.tls_port = free_port()
        self.base = f"http://127.0.0.1:{self.port}/account"
        self.https_base = f"https://127.0.0.1:{self.tls_port}/account"
        self.db = folder / "frontdoor.sqlite"   # the SQLite file (SQLite-only tests look at it)
        config = dict(config)
        self.store = backends.store_for(folder, config)   # on PostgreSQL: a new database, named in config's database.url
        self.outbox = folder / "outbox"
        self.socket = folder / "fcgi.sock"
        self.config_path = folder / "frontdoor.yml"
        values = {
            "public_url": f"http://127.0.0.1:{self.port}",
            "database.path": str(self.db),
            "templates.path": str(ROOT / "templates"),
            "mail.outbox": str(self.outbox),
            "mail.send_interval": "0.1s",
            "mail.retry_base": "1s",
            # Every test's browser is 127.0.0.1: the sign-up limit per client address is tested on a stack of its own.
            "signup_limit.max_per_address": "0",
            "log.level": "info",
            # Frontdoor verifies the test identity provider's assertions (browserid.fetch_allowed_hosts) and fetches
            # from no other host; the stack of test_verify_fetch.py turns this off to test the address rules.
            "browserid.fetch_only_allowed_hosts": "true",
        }
        if "social:" not in extra_yaml:   # social stacks write the key file in their social section
            values["social.token_key_file"] = str(folder / "social-tokens.key")   # never the checkout's var/
        values.update(config)
        # extra_yaml: config text appended as is, for what render_yaml cannot express (lists such as profile.fields).
        self.config_path.write_text(render_yaml(values) + extra_yaml)
        self.app = None
        self.app_log = None
        self.nginx = None
        self.nginx_stderr = None
        self.seen_session_tokens = set()

    def start(self):
        self.start_app()
        prefix = self.folder / "nginx"
        subprocess.run([str(ROOT / "nginx/render"), "--base", "/account", "--static", str(ROOT / "static"),
                        "--socket", str(self.socket), "--server", str(prefix), str(self.port)], check=True)
        make_tls_server(prefix, self.tls_port)
        for name, text in (self.server_files(self) if self.server_files else {}).items():
            (prefix / "server.d" / name).write_text(text)
        self.nginx_stderr = open(self.folder / "nginx.stderr", "w")
        self.nginx = subprocess.Popen(["nginx", "-p", str(prefix), "-c", str(prefix / "nginx.conf"),
                                       "-e", str(prefix / "error.log")],
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.nginx_stderr)
        wait_for(lambda: self.answers(), what="nginx + frontdoor")
        return self

    def start_app(self):
        self.close_app_log()
        self.app_log = open(self.folder / "frontdoor.log", "a")
        workers = ["--workers", str(self.workers)] if self.workers else []
        guarded = {**os.environ, "LD_PRELOAD": str(netguard_library()), "NETGUARD_LOG": str(self.netguard_log),
                   "NETGUARD_HOSTS": str(self.folder / "netguard.hosts")}
        self.app = subprocess.Popen([BIN, "serve", "--config", str(self.config_path), "--socket", str(self.socket),
                                     "--socket-mode", "0666", *workers],
                                    stdin=subprocess.DEVNULL, stdout=self.app_log, stderr=subprocess.STDOUT, cwd=self.folder,
                                    env=guarded)
        wait_for(lambda: self.socket.exists() or self.app.poll() is not None, what="the frontdoor socket")
        assert self.app.poll() is None, self.logs()

    def network_events(self):
        """netguard's lines so far ("lookup NAME", "connect ADDRESS PORT", "blocked ADDRESS PORT"); then clears them."""
        events = self.netguard_log.read_text().splitlines() if self.netguard_log.exists() else []
        self.netguard_log.write_text("")
        return events

    def answers(self):
        try:
            return requests.get(self.base + "/sign_in", timeout=30).status_code == 200
        except requests.RequestException:
            return False

    def stop(self):
        """Stops nginx and frontdoor and waits until both are gone (killed when SIGTERM took longer than 30 s)."""
        for process in (self.nginx, self.app):
            if process and process.poll() is None:
                process.terminate()
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        self.close_app_log()
        if self.nginx_stderr:
            self.nginx_stderr.close()
            self.nginx_stderr = None

    def close_app_log(self):
        if self.app_log:
            self.app_log.close()
            self.app_log = None

    def app_log_text(self):
        """The whole of frontdoor's log so far (logs() shows only the tails, for failure reports)."""
        path = self.folder / "frontdoor.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def logs(self):
        parts = []
        for name in ("frontdoor.log", "nginx/error.log", "nginx.stderr"):
            path = self.folder / name
            if path.exists():
                parts.append(f"--- {name}\n" + path.read_text(errors="replace")[-4000:])
        return "\n".join(parts)

    def connect(self):
        """A connection to the stack's database taking `?` statements (sqlite3's, or psycopg's wrapped; on SQLite it
        waits up to 60 s for frontdoor's write lock). Use it with contextlib.closing; `with db:` commits."""
        return self.store.connect()

    def query(self, sql, *args):
        """The rows (tuples) of one statement, committed (so UPDATEs stick), on a connection closed afterwards."""
        return self.store.query(sql, *args)

    def records(self, sql, *args):
        """The rows of one statement as dicts by column name (any case)."""
        return self.store.records(sql, *args)

    def count(self, table):
        return self.query(f"SELECT COUNT(*) FROM {table}")[0][0]


def render_yaml(values):
    """Dotted keys → a two-level YAML document."""
    top, sections = [], {}
    for key, value in values.items():
        if "." in key:
            section, name = key.split(".", 1)
            sections.setdefault(section, []).append(f'  {name}: "{value}"')
        else:
            top.append(f'{key}: "{value}"')
    lines = top + [line for section, items in sections.items() for line in [f"{section}:"] + items]
    return "\n".join(lines) + "\n"


def make_tls_server(prefix: Path, port: int):
    """Adds an https server (self-signed) with the same include, so $https is really "on" there."""
    key, cert = prefix / "tls.key", prefix / "tls.crt"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "2",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    conf = (prefix / "nginx.conf").read_text()
    tls = (f"    server {{\n        listen 127.0.0.1:{port} ssl;\n        ssl_certificate {cert};\n"
           f"        ssl_certificate_key {key};\n        include {prefix}/frontdoor.conf;\n    }}\n}}\n")
    conf = conf.rstrip()
    assert conf.endswith("}")
    (prefix / "nginx.conf").write_text(conf[:-1] + tls)


class Browser:
    """A requests session that fills in the CSRF token the way a browser posting a form would."""

    def __init__(self, stack, base=None, verify=True):
        self.stack = stack
        self.base = base or stack.base
        self.session = requests.Session()
        self.verify = verify  # per request: REQUESTS_CA_BUNDLE in the environment would override a session setting

    def get(self, path, **kw):
        kw.setdefault("allow_redirects", False)
        kw.setdefault("verify", self.verify)
        return self.seen(self.session.get(self.url(path), timeout=REQUEST_TIMEOUT, **kw))

    def seen(self, response):
        """Remembers every session cookie value the server hands out (checked against the database at the end)."""
        for r in [*response.history, response]:
            for header in r.raw.headers.getlist("Set-Cookie"):
                name, _, rest = header.partition("=")
                value = rest.split(";", 1)[0]
                if name.strip() == "frontdoor_session" and value:
                    self.stack.seen_session_tokens.add(value)
        return response

    def token(self, path):
        for page in (path, "/"):
            match = CSRF.search(self.get(page).text)
            if match:
                return match.group(1)
        return ""

    def post(self, path, data, csrf=True, **kw):
        data = dict(data)
        if csrf and "csrf_token" not in data:
            data["csrf_token"] = self.token(path.split("?")[0])
        kw.setdefault("allow_redirects", False)
        kw.setdefault("verify", self.verify)
        return self.seen(self.session.post(self.url(path), data=data, timeout=REQUEST_TIMEOUT, **kw))

    def url(self, path):
        return path if path.startswith("http") else self.base + path

    def cookie(self, name):
        return self.session.cookies.get(name)


STACKS = []  # every running stack, so a failing test's report can show their logs
SQLITE_ONLY = []  # (test id, reason) of the tests deselected on PostgreSQL
POSTGRESQL_ONLY = []  # (test id, reason) of the tests deselected on SQLite
SUMMARY = []  # lines test modules want printed at the end of the run (figures to quote)


def pytest_configure(config):
    config.addinivalue_line("markers", "sqlite_only(reason): a test about SQLite itself (its file, size cap, backup, "
                                       "migration of an old file); deselected when FRONTDOOR_E2E_BACKEND=postgresql")
    config.addinivalue_line("markers", "postgresql_only(reason): a test that needs PostgreSQL (several hosts on one "
                                       "database); deselected unless FRONTDOOR_E2E_BACKEND=postgresql")


def pytest_report_header(config):
    return f"frontdoor e2e backend: {backends.BACKEND} (FRONTDOOR_E2E_BACKEND)"


def pytest_collection_modifyitems(config, items):
    """On PostgreSQL, deselects the sqlite_only tests, on SQLite the postgresql_only ones (each must say why), and keeps
    their reasons for the summary."""
    kept, dropped = [], []
    for item in items:
        marker = item.get_closest_marker("sqlite_only")
        only_pg = item.get_closest_marker("postgresql_only")
        for name, mark in (("sqlite_only", marker), ("postgresql_only", only_pg)):
            if mark and not (mark.args and mark.args[0]):
                raise pytest.UsageError(f"{item.nodeid}: {name} needs a reason")
        if marker and backends.POSTGRESQL:
            dropped.append(item)
            SQLITE_ONLY.append((item.nodeid, marker.args[0]))
        elif only_pg and not backends.POSTGRESQL:
            dropped.append(item)
            POSTGRESQL_ONLY.append((item.nodeid, only_pg.args[0]))
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_terminal_summary(terminalreporter):
    if SQLITE_ONLY:
        terminalreporter.section(f"{len(SQLITE_ONLY)} SQLite-only tests deselected on PostgreSQL (the SQLite run covers them)")
        for nodeid, reason in SQLITE_ONLY:
            terminalreporter.write_line(f"{nodeid}: {reason}")
    if POSTGRESQL_ONLY:
        reasons = sorted({reason for _, reason in POSTGRESQL_ONLY})
        terminalreporter.section(f"{len(POSTGRESQL_ONLY)} PostgreSQL-only tests deselected on SQLite (make e2e-postgres runs them)")
        for reason in reasons:
            names = sorted({nodeid.split("::")[0] for nodeid, why in POSTGRESQL_ONLY if why == reason})
            terminalreporter.write_line(f"{', '.join(names)}: {reason}")
    if SUMMARY:
        terminalreporter.section("figures")
        for line in SUMMARY:
            terminalreporter.write_line(line)


def pytest_sessionfinish(session):
    backends.stop_cluster()   # the PostgreSQL run's private cluster, when one was started


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failure, attach the tails of frontdoor's log and nginx's error log to the test's report."""
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for stack in STACKS:
            report.sections.append((f"stack {stack.folder.name} logs", stack.logs()))


@pytest.fixture(scope="session")
def smtp():
    sink = MailSink()
    sink.start()
    yield sink
    sink.stop()


def _stack(tmp_path_factory, request, config, server_files=None, extra_yaml=""):
    yield from running(Stack(tmp_path_factory.mktemp("stack"), config, server_files, extra_yaml))


def running(stack):
    """Starts `stack` (printing its logs if it cannot), yields it, and stops it afterwards."""
    try:
        stack.start()
    except Exception:
        print(stack.logs())
        stack.stop()
        raise
    STACKS.append(stack)
    yield stack
    STACKS.remove(stack)
    stack.stop()
    events = stack.network_events()
    assert not [event for event in events if not event.startswith("connect ")], \
        f"frontdoor looked up a name or tried to leave loopback: {events}"


@pytest.fixture(scope="module")
def stack(tmp_path_factory, request):
    """Confirmation off, mail to an outbox folder: the foundation's flows."""
    yield from _stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox"})


@pytest.fixture(scope="module")
def mail_stack(tmp_path_factory, request, smtp):
    """Confirmation on, mail through SMTP to the sink."""
    yield from _stack(tmp_path_factory, request, {"mail.transport": "smtp", "mail.smtp_url": f"smtp://127.0.0.1:{smtp.port}",
                                                  "mail.from": "Frontdoor <no-reply@frontdoor.test>"})


@pytest.fixture(scope="session")
def test_idp():
    from idp_server import IdentityProvider
    idp = IdentityProvider().start()
    yield idp
    idp.stop()


@pytest.fixture(scope="module")
def bid_stack(tmp_path_factory, request, test_idp):
    """Confirmation on, mail to an outbox folder, and the test identity provider reachable over http (allowed by
    name: it is on loopback); PyBrowserID's keys are DS128, so the stack accepts DS128 and RS128."""
    yield from _stack(tmp_path_factory, request, {"mail.transport": "outbox", "browserid.http_hosts": test_idp.http_hosts,
                                                  "browserid.fetch_allowed_hosts": test_idp.allowed_hosts,
                                                  "browserid.legacy_algorithms": "DS128, RS128"})


def outbox_newest_first(stack):
    """The outbox's .eml files, the most recently queued first. The outbox writes each message (atomically) as
    <messageId>.eml, so the order is that of the queue's ids in the stack's database, not of the files' mtimes (two
    mails written within one tick of the kernel's coarse file clock share an mtime). A stand-in stack without a
    `store` (one mail per address) gets them by mtime, then name."""
    if not stack.outbox.exists():
        return []
    queued = {}
    store = getattr(stack, "store", None)
    if store is not None and (store.kind != "sqlite" or store.path.exists()):
        queued = dict(store.query("SELECT messageId, id FROM mailQueue"))

    def order(path):
        return (queued.get(path.stem, -1), 0 if queued else path.stat().st_mtime_ns, path.name)
    return sorted(stack.outbox.glob("*.eml"), key=order, reverse=True)


def outbox_link(stack, to, marker):
    """The link containing `marker` in the newest outbox mail to `to` (waiting for the sender to write it)."""
    def find():
        for path in outbox_newest_first(stack):
            raw = path.read_bytes()
            text = mail_text(read_mail(raw))
            if to in raw.decode("utf-8", "replace") or to in text:
                match = re.search(r"http://[^\s<>\"]+" + re.escape(marker) + r"[^\s<>\"]*", text)
                if match:
                    return match.group(0).replace("&amp;", "&")
        return None
    return wait_for(find, what=f"mail to {to} with {marker}")


def confirmed_user(stack, password="correct horse battery"):
    """A Browser signed in as a new, confirmed account; returns (browser, email)."""
    email = unique_email("bid")
    browser = Browser(stack)
    browser.post("/sign_up", {"email": email, "password": password, "password_confirmation": password})
    assert browser.get(outbox_link(stack, email, "/confirm?token=")).status_code == 302
    assert browser.post("/sign_in", {"email": email, "password": password}).status_code == 303
    return browser, email


@pytest.fixture
def browser(stack):
    return Browser(stack)


_last_email_ns = 0
_email_lock = threading.Lock()


def unique_email(prefix="user"):
    """A new address each call: the wall clock in ns, made strictly increasing in this process, so two threads in the
    same tick (or a clock stepped back) never get the same one."""
    global _last_email_ns
    with _email_lock:
        _last_email_ns = max(time.time_ns(), _last_email_ns + 1)
        return f"{prefix}-{_last_email_ns}@example.com"


# MARK: - Social sign-in: the tests' OAuth 2.0 / OpenID Connect provider (oauth_provider.py) and stacks using it

import html  # noqa: E402  (kept with the helpers that use them, so this section is one block at the end)
import json  # noqa: E402
import secrets  # noqa: E402
from urllib.parse import urljoin  # noqa: E402


@pytest.fixture(scope="session")
def oauth_server():
    """The tests' OIDC/OAuth provider, running for the whole session on a free loopback port."""
    from oauth_provider import OAuthProvider
    provider = OAuthProvider().start()
    yield provider
    provider.stop()


@pytest.fixture
def oauth_provider(oauth_server):
    """The provider, reset for this test (default user, good behaviour, consent page, no codes or tokens)."""
    oauth_server.reset()
    yield oauth_server
    oauth_server.reset()


def social_provider_yaml(provider, entries, key_file):
    """The `social:` section for `entries` (dicts: id, client_id, client_secret, kind "oidc" or "github", and any
    option to write as is, overriding the defaults; an option set to None is left out). By default an "oidc" entry's
    issuer is `provider`, and a "github" entry's four endpoints are on `provider`."""
    lines = ["social:", f"  token_key_file: {json.dumps(str(key_file))}", '  token_allowed_addresses: "127.0.0.1, ::1"',
             "  http_timeout: 5s", "  providers:"]
    for entry in entries:
        kind = entry.get("kind", "oidc")
        options = {"id": entry["id"], "preset": kind}
        if kind == "oidc":
            options.update(issuer=provider.issuer, scopes="openid email profile")
        elif kind == "github":
            options.update(authorization_endpoint=provider.issuer + "/authorize", token_endpoint=provider.issuer + "/token",
                           userinfo_endpoint=provider.issuer + "/user", emails_endpoint=provider.issuer + "/user/emails")
        options.update({k: v for k, v in entry.items() if k != "kind"})
        written = [(k, v) for k, v in options.items() if v is not None]
        for index, (key, value) in enumerate(written):
            lines.append(f"    {'- ' if index == 0 else '  '}{key}: {json.dumps(str(value))}")
    return "\n".join(lines) + "\n"


# The providers a social stack has by default: "corp" (OIDC, named "Corp SSO") and "github" (the github preset, with
# its endpoints on the test provider).
SOCIAL_PROVIDERS = ({"id": "corp", "kind": "oidc", "name": "Corp SSO"}, {"id": "github", "kind": "github"})


def social_stack(tmp_path_factory, provider, config=None, providers=SOCIAL_PROVIDERS, extra_yaml=""):
    """Generator for a stack with social sign-in providers on `provider` (a fixture does `yield from` it).

    Each entry gets its own client id and secret, registered with the provider with the exact redirect URI
    <base>/auth/<id>/callback. `config`: dotted settings (default: confirmation off, mail to an outbox folder).
    The stack's `social` attribute maps each provider id to its entry (client_id, client_secret, ...)."""
    folder = tmp_path_factory.mktemp("stack")
    entries = [{"client_id": f"{p['id']}-{secrets.token_hex(4)}", "client_secret": secrets.token_urlsafe(24), **p}
               for p in providers]
    settings = {"confirmation.required": "false", "mail.transport": "outbox", **(config or {})}
    stack = Stack(folder, settings, extra_yaml=social_provider_yaml(provider, entries, folder / "social-tokens.key") + extra_yaml)
    for entry in entries:
        provider.add_client(entry["client_id"], entry["client_secret"], [f"{stack.base}/auth/{entry['id']}/callback"])
    stack.social = {entry["id"]: entry for entry in entries}
    yield from running(stack)


@pytest.fixture(scope="module")
def social(tmp_path_factory, oauth_server):
    """Confirmation off, outbox mail, providers "corp" (OIDC, "Corp SSO") and "github" on the test provider."""
    yield from social_stack(tmp_path_factory, oauth_server)


def page_text(response):
    """A page's HTML with entities decoded (the catalog's apostrophes arrive as &#39;)."""
    return html.unescape(response.text)


def social_start(browser, provider_id, page="/sign_in", **fields):
    """Presses "Sign in with <provider>" on `page` (a form post to auth/<id>); returns frontdoor's answer (a 303 to
    the provider's authorization URL when all is well)."""
    data = {"csrf_token": browser.token(page), **fields}
    return browser.post(f"/auth/{provider_id}", data, csrf=False)


def through_provider(browser, start, decision="approve"):
    """Follows frontdoor's redirect `start` to the provider, answers its consent page with `decision`, and returns
    the callback URL the provider sends the browser back to (not followed, so a test can replay it)."""
    assert start.status_code == 303, (start.status_code, start.text[:500])
    authorize = start.headers["Location"]
    consent = browser.session.get(authorize, allow_redirects=False, timeout=REQUEST_TIMEOUT)
    if consent.status_code == 200:
        assert 'id="approve"' in consent.text, consent.text
        consent = browser.session.post(authorize, data={"decision": decision}, allow_redirects=False, timeout=REQUEST_TIMEOUT)
    assert consent.status_code == 302, (consent.status_code, consent.text[:500])
    return consent.headers["Location"]


def finish(browser, callback):
    """Goes to `callback` (absolute, or a path such as a Location header's) and follows frontdoor's redirects;
    returns the last response."""
    url = urljoin(browser.base + "/", callback)
    return browser.seen(browser.session.get(url, allow_redirects=True, timeout=REQUEST_TIMEOUT, verify=browser.verify))


def social_sign_in(browser, provider_id, decision="approve", page="/sign_in", **fields):
    """The whole round trip: button, provider, callback; returns the last page."""
    return finish(browser, through_provider(browser, social_start(browser, provider_id, page, **fields), decision))


def account_ids(stack, email):
    """The ids of the accounts holding `email` (normally none or one)."""
    return [row[0] for row in stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email.lower())]


def identities(stack, provider_id=None):
    """socialIdentity rows as dicts (optionally of one provider)."""
    if provider_id:
        return stack.records("SELECT * FROM socialIdentity WHERE provider = ?", provider_id)
    return stack.records("SELECT * FROM socialIdentity")


def make_chromium(*arguments, prefs=None, exclude=()):
    """Debian's headless chromium through chromedriver, with extra command-line `arguments` and `prefs`; `exclude`
    drops switches chromedriver adds itself (e.g. "disable-popup-blocking": then window.open outside a click is
    blocked, as in a person's browser)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", *arguments):
        options.add_argument(argument)
    if prefs:
        options.add_experimental_option("prefs", prefs)
    if exclude:
        options.add_experimental_option("excludeSwitches", list(exclude))
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


@pytest.fixture
def chromium():
    driver = make_chromium()
    yield driver
    driver.quit()


def page_wait(driver, timeout=20):
    """A wait that retries when the page was replaced between finding an element and reading it. Chromium reports that
    as a stale element or, when the node goes mid-read, as a bare WebDriverException ("Node with given id does not
    belong to the document"); either way the condition is tried again until it holds or the wait times out."""
    return WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException, WebDriverException))


# MARK: - Native clients: the devise-ios JSON API, provider tokens (native_provider.py) and email residences

import base64  # noqa: E402
import hashlib  # noqa: E402

API_HEADERS = {"Content-Type": "application/json", "Accept": "application/json"}
ISO_MILLIS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


class Api:
    """A devise-ios client of `stack`'s `<base>/v1`: every request sends Content-Type and Accept application/json
    (a body as JSON; DELETE none unless given), and X-User-Email + X-User-Token once `email` and `token` are set. No
    cookie jar: each call is a plain request. Every answer is checked to be JSON and to set no cookie."""

    def __init__(self, stack, email=None, token=None, user_agent=None):
        self.stack, self.email, self.token = stack, email, token
        self.base = stack.base + "/v1"
        self.extra = {"User-Agent": user_agent} if user_agent else {}

    def call(self, method, path, body=None, auth=True, headers=None, data=None):
        sent = {**API_HEADERS, **self.extra}
        if auth and self.email is not None and self.token is not None:
            sent.update({"X-User-Email": self.email, "X-User-Token": self.token})
        sent.update(headers or {})
        if body is not None:
            data = json.dumps(body)
        response = requests.request(method, self.base + path, data=data, headers=sent, timeout=REQUEST_TIMEOUT, allow_redirects=False)
        assert "Set-Cookie" not in response.headers, (method, path, response.headers["Set-Cookie"])
        assert response.headers.get("Content-Type", "").startswith("application/json"), (method, path, response.headers)
        return response

    def post(self, path, body=None, **kw):
        return self.call("POST", path, body, **kw)

    def put(self, path, body=None, **kw):
        return self.call("PUT", path, body, **kw)

    def delete(self, path, body=None, **kw):
        return self.call("DELETE", path, body, **kw)

    def signed_in_as(self, user_json):
        """Takes the email and token of a user JSON answer as this client's credentials; returns self."""
        self.email, self.token = user_json["user"]["email"], user_json["user"]["authenticationToken"]
        return self


def token_digest(token):
    """The stored digest of a session or API token (43 chars of base64url): SHA-256 of its 32 raw bytes."""
    return hashlib.sha256(base64.urlsafe_b64decode(token + "=")).digest()


def token_handle(token):
    """The handle the sessions page shows for a session or API token: the first 16 bytes of its digest, in hex."""
    return token_digest(token)[:16].hex()


@pytest.fixture(scope="module")
def api_stack(tmp_path_factory, request):
    """Confirmation off, outbox mail without a throttle, three failed sign-ins lock an account for an hour."""
    yield from _stack(tmp_path_factory, request, {
        "confirmation.required": "false", "mail.transport": "outbox", "mail.throttle": "0s",
        "lockout.max_failures": "3", "lockout.duration": "1h", "lockout.address_max_failures": "1000"})


@pytest.fixture(scope="module")
def closed_mail_stack(tmp_path_factory, request, smtp):
    """As mail_stack, with sign-up closed."""
    yield from _stack(tmp_path_factory, request, {"signup": "closed", "mail.transport": "smtp",
                                                  "mail.smtp_url": f"smtp://127.0.0.1:{smtp.port}",
                                                  "mail.from": "Frontdoor <no-reply@frontdoor.test>"})


@pytest.fixture(scope="session")
def native_server():
    """The Google / Facebook token-check stand-in (native_provider.py) for the whole session."""
    from native_provider import NativeProvider
    provider = NativeProvider().start()
    yield provider
    provider.stop()


@pytest.fixture
def native(native_server):
    """The token-check stand-in with no tokens and an empty request log for this test."""
    native_server.reset()
    yield native_server
    native_server.reset()


def native_stack(tmp_path_factory, provider, config=None):
    """Generator for a stack whose providers "google" and "facebook" (the presets) check native tokens with
    `provider`; every endpoint points there, so nothing leaves the machine. The stack's `social` attribute maps each id
    to its entry (client_id, client_secret, native_client_ids)."""
    folder = tmp_path_factory.mktemp("stack")
    google = {"id": "google", "kind": "google", "client_id": f"web-{secrets.token_hex(4)}.apps.googleusercontent.com",
              "client_secret": secrets.token_urlsafe(24), "native_client_ids": f"ios-{secrets.token_hex(4)}.apps.googleusercontent.com",
              "authorization_endpoint": provider.base + "/o/oauth2/v2/auth", "token_endpoint": provider.base + "/token",
              "userinfo_endpoint": provider.base + "/oauth2/v3/userinfo", "tokeninfo_endpoint": provider.base + "/tokeninfo"}
    facebook = {"id": "facebook", "kind": "facebook", "client_id": str(secrets.randbelow(10**15) + 10**15),
                "client_secret": secrets.token_hex(16), "native_client_ids": None,
                "authorization_endpoint": provider.base + "/v19.0/dialog/oauth",
                "token_endpoint": provider.base + "/v19.0/oauth/access_token",
                "userinfo_endpoint": provider.base + "/v19.0/me?fields=id,name,email",
                "tokeninfo_endpoint": provider.base + "/debug_token"}
    provider.facebook_app(facebook["client_id"], facebook["client_secret"])
    settings = {"confirmation.required": "false", "mail.transport": "outbox", **(config or {})}
    stack = Stack(folder, settings, extra_yaml=social_provider_yaml(provider, [google, facebook], folder / "social-tokens.key"))
    stack.social = {"google": google, "facebook": facebook}
    yield from running(stack)


@pytest.fixture(scope="module")
def provider_stack(tmp_path_factory, native_server):
    """Confirmation off, outbox mail, providers "google" and "facebook" checking tokens with the stand-in."""
    yield from native_stack(tmp_path_factory, native_server)


@pytest.fixture(scope="module")
def closed_provider_stack(tmp_path_factory, native_server):
    """As provider_stack, with sign-up closed."""
    yield from native_stack(tmp_path_factory, native_server, {"signup": "closed"})
