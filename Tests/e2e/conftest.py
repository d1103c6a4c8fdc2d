"""End-to-end fixtures: a real nginx in front of a real frontdoor process, a SQLite file, an SMTP sink.

Every stack takes free loopback ports and its own temp folder; nothing here uses port 8080.
"""
import os
import re
import socket
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest
import requests
from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("FRONTDOOR_BIN", str(ROOT / ".build/debug/frontdoor"))
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, timeout=20.0, what="condition"):
    """Polls `condition` until it returns something truthy; fails the test after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class MailSink:
    """A real SMTP server (aiosmtpd) on a loopback port that keeps what it receives."""

    def __init__(self):
        self.port = free_port()
        self.messages = []
        self.lock = threading.Condition()
        self.controller = None

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.messages.append({"to": envelope.rcpt_tos, "from": envelope.mail_from,
                                  "data": envelope.original_content.decode("utf-8", "replace")})
            self.lock.notify_all()
        return "250 OK"

    def start(self):
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self):
        if self.controller:
            self.controller.stop()
            self.controller = None

    def wait_for_mail(self, to, containing="", timeout=20.0):
        def found():
            with self.lock:
                for m in reversed(self.messages):
                    if any(r.lower() == to.lower() for r in m["to"]) and containing in m["data"]:
                        return m
            return None
        return wait_for(found, timeout, f"mail to {to} containing {containing!r}")

    def link(self, to, marker):
        mail = self.wait_for_mail(to, marker)
        return re.search(r"https?://[^\s<>\"]+" + re.escape(marker) + r"[^\s<>\"]*", mail["data"]).group(0)


class Stack:
    """frontdoor serve + nginx (from nginx/frontdoor.conf via nginx/render) on free ports in `folder`."""

    def __init__(self, folder: Path, config: dict, server_files=None, extra_yaml=""):
        self.folder = folder
        self.server_files = server_files  # callable(stack) -> {name: nginx text} for PREFIX/server.d, or None
        self.port = free_port()
        self.tls_port = free_port()
        self.base = f"http://127.0.0.1:{self.port}/account"
        self.https_base = f"https://127.0.0.1:{self.tls_port}/account"
        self.db = folder / "frontdoor.sqlite"
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
            "log.level": "info",
        }
        values.update(config)
        # extra_yaml: config text appended as is, for what render_yaml cannot express (lists such as profile.fields).
        self.config_path.write_text(render_yaml(values) + extra_yaml)
        self.app = None
        self.nginx = None
        self.seen_session_tokens = set()

    def start(self):
        self.start_app()
        prefix = self.folder / "nginx"
        subprocess.run([str(ROOT / "nginx/render"), "--base", "/account", "--static", str(ROOT / "static"),
                        "--socket", str(self.socket), "--server", str(prefix), str(self.port)], check=True)
        make_tls_server(prefix, self.tls_port)
        for name, text in (self.server_files(self) if self.server_files else {}).items():
            (prefix / "server.d" / name).write_text(text)
        self.nginx = subprocess.Popen(["nginx", "-p", str(prefix), "-c", str(prefix / "nginx.conf"),
                                       "-e", str(prefix / "error.log")],
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=open(self.folder / "nginx.stderr", "w"))
        wait_for(lambda: self.answers(), what="nginx + frontdoor")
        return self

    def start_app(self):
        self.app_log = open(self.folder / "frontdoor.log", "a")
        self.app = subprocess.Popen([BIN, "serve", "--config", str(self.config_path), "--socket", str(self.socket),
                                     "--socket-mode", "0666", "--workers", "4"],
                                    stdin=subprocess.DEVNULL, stdout=self.app_log, stderr=subprocess.STDOUT, cwd=self.folder)
        wait_for(lambda: self.socket.exists() or self.app.poll() is not None, what="the frontdoor socket")
        assert self.app.poll() is None, self.logs()

    def answers(self):
        try:
            return requests.get(self.base + "/sign_in", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def stop(self):
        for process in (self.nginx, self.app):
            if process and process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()

    def logs(self):
        parts = []
        for name in ("frontdoor.log", "nginx/error.log", "nginx.stderr"):
            path = self.folder / name
            if path.exists():
                parts.append(f"--- {name}\n" + path.read_text()[-4000:])
        return "\n".join(parts)

    def query(self, sql, *args):
        with sqlite3.connect(self.db) as db:
            return db.execute(sql, args).fetchall()

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
        return self.seen(self.session.get(self.url(path), timeout=10, **kw))

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
        return self.seen(self.session.post(self.url(path), data=data, timeout=10, **kw))

    def url(self, path):
        return path if path.startswith("http") else self.base + path

    def cookie(self, name):
        return self.session.cookies.get(name)


STACKS = []  # every running stack, so a failing test's report can show their logs


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
    stack = Stack(tmp_path_factory.mktemp("stack"), config, server_files, extra_yaml)
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
    """Confirmation on, mail to an outbox folder, and the test identity provider reachable over http."""
    yield from _stack(tmp_path_factory, request, {"mail.transport": "outbox", "browserid.http_hosts": test_idp.http_hosts})


def outbox_link(stack, to, marker):
    """The link containing `marker` in the newest outbox mail to `to` (waiting for the sender to write it)."""
    def find():
        for path in sorted(stack.outbox.glob("*.eml"), key=lambda p: p.stat().st_mtime, reverse=True):
            text = path.read_text()
            if to in text:
                match = re.search(r"http://[^\s<>\"]+" + re.escape(marker) + r"[^\s<>\"]*", text)
                if match:
                    return match.group(0).replace("&amp;", "&")
        return None
    wait_for(lambda: stack.outbox.exists() and find(), what=f"mail to {to}")
    return find()


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


def unique_email(prefix="user"):
    return f"{prefix}-{time.time_ns()}@example.com"
