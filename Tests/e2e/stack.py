"""A stack: a real nginx in front of a real frontdoor process (netguard.c preloaded), its config, its database, and
the generators fixtures use to start and stop one (running, new_stack)."""
import atexit
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import requests

import backends
from ports import free_port
from waits import wait_for

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("FRONTDOOR_BIN", str(ROOT / ".build/debug/frontdoor"))


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


class Stack:
    """frontdoor serve + nginx (from nginx/frontdoor.conf via nginx/render) on free ports in `folder`."""

    def __init__(self, folder: Path, config: dict, server_files=None, extra_yaml="", workers=4, names="", host="127.0.0.1"):
        self.folder = folder
        self.netguard_log = folder / "netguard.log"   # what netguard.c saw: lookups, loopback connects, blocked ones
        (folder / "netguard.hosts").write_text(names)   # the only names frontdoor can look up: "name answer1 answer2 …"
        self.workers = workers  # frontdoor's --workers; None: its own default (fastcgi.workers), as in production
        self.server_files = server_files  # callable(stack) -> {name: nginx text} for PREFIX/server.d, or None
        self.port = free_port()
        self.tls_port = free_port()
        # host: the name in public_url and the bases (nginx listens on 127.0.0.1 either way); "localhost" for pages
        # that need a secure context over http, such as WebAuthn's (the RP ID is public_url's host).
        self.base = f"http://{host}:{self.port}/account"
        self.https_base = f"https://{host}:{self.tls_port}/account"
        self.db = folder / "frontdoor.sqlite"   # the SQLite file (SQLite-only tests look at it)
        config = dict(config)
        self.store = backends.store_for(folder, config)   # on PostgreSQL: a new database, named in config's database.url
        self.outbox = folder / "outbox"
        self.socket = folder / "fcgi.sock"
        self.config_path = folder / "frontdoor.yml"
        values = {
            "public_url": f"http://{host}:{self.port}",
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
            if process:
                stop_process(process)
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


def stop_process(process):
    """Sends a running `process` SIGTERM and waits until it is gone (SIGKILL when that took longer than 30 s)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


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


STACKS = []  # every running stack, so a failing test's report can show their logs


def new_stack(tmp_path_factory, request, config, server_files=None, extra_yaml=""):
    """Generator for a started Stack in a new temp folder (a module fixture does `yield from` it); see Stack."""
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
