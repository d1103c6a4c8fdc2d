"""The binary as plain CGI under a real web server: lighttpd's mod_cgi with the sample config/lighttpd-frontdoor-cgi.conf
(its paths changed to this checkout's), one frontdoor process per request, the config reaching each one through
FRONTDOOR_CONFIG set by mod_setenv, as an operator sets it. Sign up, the mailed confirmation link (the outbox, written
by the process that queued it, after it answered), sign in with the session cookie, sign out.

lighttpd runs unprivileged-style on a free loopback port with a generated main config in the test's temp folder; its
CGI processes run with netguard.c preloaded (added to the environment the same way), as every stack's frontdoor does.
"""
import contextlib
import socket
import subprocess
import threading

import pytest
import requests

import backends
from http_client import REQUEST_TIMEOUT, Browser
from mails import outbox_link
from browserid.tests.support import make_assertion

from ports import free_port
from stack import BIN, ROOT, Stack, netguard_library, stop_process
from users import unique_email
from waits import wait_for

PASSWORD = "one process per request 42"
SAMPLE = ROOT / "config/lighttpd-frontdoor-cgi.conf"
# The sample's paths (docs/install.md "Production install") and what they become here.
SAMPLE_BINARY, SAMPLE_CONFIG, SAMPLE_STATIC = ("/usr/local/bin/frontdoor", "/etc/frontdoor/frontdoor.yml",
                                               "/usr/local/share/frontdoor/static/")


def rendered_sample(stack):
    """The sample with this checkout's binary, the stack's config file and the checkout's static folder."""
    text = SAMPLE.read_text()
    for old in (SAMPLE_BINARY, SAMPLE_CONFIG, SAMPLE_STATIC):
        assert f'"{old}"' in text, f"the sample no longer names {old}"
    return (text.replace(f'"{SAMPLE_BINARY}"', f'"{BIN}"').replace(f'"{SAMPLE_CONFIG}"', f'"{stack.config_path}"')
            .replace(f'"{SAMPLE_STATIC}"', f'"{ROOT / "static"}/"'))


def main_config(stack, snippet):
    """A minimal lighttpd.conf around the sample: loopback port, logs in the stack's folder, Debian's mime types for
    the static files, then netguard for the CGI processes."""
    www = stack.folder / "www"
    www.mkdir(exist_ok=True)
    guard = {"LD_PRELOAD": str(netguard_library()), "NETGUARD_LOG": str(stack.netguard_log),
             "NETGUARD_HOSTS": str(stack.folder / "netguard.hosts")}
    environment = ", ".join(f'"{name}" => "{value}"' for name, value in guard.items())
    return "\n".join([
        f'server.document-root = "{www}"',
        'server.bind = "127.0.0.1"',
        f"server.port = {stack.port}",
        f'server.errorlog = "{stack.folder / "lighttpd-error.log"}"',
        'server.modules = ( "mod_alias" )',
        'mimetype.assign = ( ".css" => "text/css", ".js" => "text/javascript" )',
        f'include "{snippet}"',
        f"setenv.add-environment += ( {environment} )",
        "",
    ])


@contextlib.contextmanager
def served_by_lighttpd(stack, read_timeout=None):
    """`stack`'s config served by lighttpd + mod_cgi (the sample, with its cgi.limits read-timeout changed to
    `read_timeout` seconds when given), until the block ends."""
    if backends.POSTGRESQL:   # a CGI request there migrates nothing: the operator runs `frontdoor migrate` first
        subprocess.run([str(BIN), "migrate", "--config", str(stack.config_path)], check=True, capture_output=True, timeout=120)
    snippet = stack.folder / "frontdoor-cgi.conf"
    sample = rendered_sample(stack)
    if read_timeout:
        assert '"read-timeout" => 30' in sample, "the sample no longer bounds a silent CGI program"
        sample = sample.replace('"read-timeout" => 30', f'"read-timeout" => {read_timeout}')
    snippet.write_text(sample)
    conf = stack.folder / "lighttpd.conf"
    conf.write_text(main_config(stack, snippet))
    checked = subprocess.run(["lighttpd", "-tt", "-f", str(conf)], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    with open(stack.folder / "lighttpd.out", "w") as out:
        server = subprocess.Popen(["lighttpd", "-D", "-f", str(conf)], stdin=subprocess.DEVNULL, stdout=out, stderr=out)
    try:
        wait_for(lambda: server.poll() is not None or stack.answers(), what="lighttpd + frontdoor as CGI")
        assert server.poll() is None, (stack.folder / "lighttpd.out").read_text()
        yield stack
    finally:
        stop_process(server)
    events = stack.network_events()
    assert not [e for e in events if not e.startswith("connect ")], f"a CGI process left loopback: {events}"


@pytest.fixture(scope="module")
def cgi_stack(tmp_path_factory):
    """A stack's config (confirmation on, mail to the outbox, its own site name) served by lighttpd + mod_cgi."""
    with served_by_lighttpd(Stack(tmp_path_factory.mktemp("cgi"), {"site_name": "Door by CGI", "mail.transport": "outbox"})) as stack:
        yield stack


class SilentIdentityProvider:
    """A loopback listener that accepts connections and never answers: an identity provider as slow as /verify's
    fetch_timeout allows."""

    def __init__(self):
        self.port = free_port()
        self.socket = socket.create_server(("127.0.0.1", self.port))
        self.held = []
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.held.append(connection)

    def close(self):
        self.socket.close()
        for connection in self.held:
            connection.close()


@pytest.fixture(scope="module")
def slow_cgi_stack(tmp_path_factory):
    """A CGI stack whose /verify fetches slow.test's support document from the silent provider (for up to 60 s: the
    fetch and the whole verification may both take that long, so frontdoor's own answer can never come before
    lighttpd's timeout, which checks once a second), and whose lighttpd gives up on a program silent for 2 s (the
    sample says 30)."""
    idp = SilentIdentityProvider()
    config = {"mail.transport": "outbox", "browserid.http_hosts": f"slow.test=127.0.0.1:{idp.port}",
              "browserid.fetch_allowed_hosts": "slow.test", "browserid.fetch_timeout": "60s",
              "browserid.verify_deadline": "60s",
              "browserid.legacy_algorithms": "DS128"}   # PyBrowserID's keys
    try:
        with served_by_lighttpd(Stack(tmp_path_factory.mktemp("slowcgi"), config), read_timeout=2) as stack:
            yield stack, idp
    finally:
        idp.close()


def frontdoor_processes():
    """Running CGI processes of this checkout's binary (started without arguments; each ends with its request)."""
    with contextlib.suppress(subprocess.CalledProcessError):
        return subprocess.run(["pgrep", "-f", f"^{BIN}$"], capture_output=True, text=True, check=True).stdout.split()
    return []


def sigterm_ignored(pid):
    """Whether process `pid` ignores SIGTERM (its SigIgn mask in /proc), None when it is gone."""
    with contextlib.suppress(FileNotFoundError, ProcessLookupError):
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("SigIgn:"):
                return bool(int(line.split()[1], 16) & (1 << 14))   # bit 14: signal 15
    return None


def test_sign_up_confirm_sign_in_and_out_through_lighttpd_cgi(cgi_stack):
    stack, email = cgi_stack, unique_email("cgi")
    browser = Browser(stack)
    # The config file reached the process: its site name is in the page.
    page = browser.get("/sign_up")
    assert page.status_code == 200 and "Door by CGI" in page.text and page.headers["Server"].startswith("lighttpd/")

    signed_up = browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert signed_up.status_code == 200 and "<h1>Check your email</h1>" in signed_up.text, signed_up.text
    # The process that queued the mail wrote it to the outbox after answering (lighttpd sends it SIGTERM once it has
    # the answer: it must finish the delivery, not leave the mail claimed by a process that died mid-send).
    link = outbox_link(stack, email, "/confirm?token=")
    assert link.startswith(f"http://127.0.0.1:{stack.port}/account/confirm?token=")
    confirmed = browser.get(link)
    assert confirmed.status_code == 302 and confirmed.headers["Location"] == "/account/sign_in"

    # Sign in: a POST with the CSRF cookie and token, answered with a session cookie that the next request sends back.
    signed_in = browser.post("/sign_in", {"email": email, "password": PASSWORD})
    assert signed_in.status_code == 303 and signed_in.headers["Location"] == "/account/"
    session = browser.cookie("frontdoor_session")
    assert session
    home = browser.get("/")
    assert home.status_code == 200 and email in home.text

    out = browser.post("/sign_out", {})
    assert out.status_code == 303 and out.headers["Location"] == "/account/sign_in"
    gone = browser.get("/")
    assert gone.status_code == 302 and gone.headers["Location"].startswith("/account/sign_in")
    replay = Browser(stack)
    replay.session.cookies.set("frontdoor_session", session)
    assert replay.get("/").status_code == 302, "signing out ended the session in the database, not just the cookie"
    # Every answer came from a process of its own, which ends once its work after answering is done.
    wait_for(lambda: not frontdoor_processes(), what="every CGI process to end")


def test_bad_input_gets_a_form_again_and_a_forged_post_403(cgi_stack):
    browser = Browser(cgi_stack)
    wrong = browser.post("/sign_in", {"email": unique_email("nobody"), "password": "not the password"})
    assert wrong.status_code == 200 and 'name="csrf_token"' in wrong.text
    assert browser.post("/sign_in", {"email": "a@b.c", "password": "x"}, csrf=False).status_code == 403


def test_lighttpd_serves_the_static_files_itself(cgi_stack):
    css = requests.get(f"http://127.0.0.1:{cgi_stack.port}/account/static/css/frontdoor.css", timeout=REQUEST_TIMEOUT)
    assert css.status_code == 200 and css.headers["Content-Type"].startswith("text/css")
    assert css.content == (ROOT / "static/css/frontdoor.css").read_bytes()


def test_a_request_lighttpd_gave_up_on_ends_with_its_sigterm(slow_cgi_stack):
    """mod_cgi has no cap on processes: a request lighttpd abandons (the client went away: the sample's cgi.limits
    tcp-fin-propagate; or nothing written for its read-timeout) must end with the SIGTERM lighttpd sends, not run on
    (here a /verify waiting on a provider that never answers, for up to fetch_timeout: 60 s). Both of lighttpd's ways
    are in play: lighttpd 1.4.69 sometimes misses one (once in six runs under load it logged no read timeout in 15 s;
    twice in eight it noticed no FIN and the read timeout ended it), and frontdoor's part is the same for both."""
    stack, idp = slow_cgi_stack
    wait_for(lambda: not frontdoor_processes(), what="the start-up requests' processes to end")
    assertion = make_assertion("ann@slow.test", "https://rp.example.com", issuer="slow.test")
    body = f"assertion={assertion}&audience=https://rp.example.com".encode()
    with socket.create_connection(("127.0.0.1", stack.port), timeout=30) as client:
        client.sendall(b"POST /account/verify HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                       b"Content-Type: application/x-www-form-urlencoded\r\n"
                       + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
        wait_for(lambda: idp.held, what="the CGI process to be waiting on the silent provider")
        waiting = frontdoor_processes()
        assert len(waiting) == 1, waiting
        assert sigterm_ignored(waiting[0]) is False, "while answering, SIGTERM must end the process"
        client.shutdown(socket.SHUT_WR)   # the client goes away: the sample's tcp-fin-propagate sends SIGTERM at once
        wait_for(lambda: waiting[0] not in frontdoor_processes(), timeout=15, what="the abandoned request's process to end")
        answer = client.recv(200)
    assert answer == b"" or answer.startswith(b"HTTP/1.1 50"), answer   # lighttpd's own answer or none, never frontdoor's


def run_as_cgi(stack, path="/sign_in"):
    """One CGI request for `path`, the binary started as a web server's mod_cgi starts it; its completed process."""
    environment = {"PATH": "/usr/bin:/bin", "FRONTDOOR_CONFIG": str(stack.config_path), "GATEWAY_INTERFACE": "CGI/1.1",
                   "REQUEST_METHOD": "GET", "SCRIPT_NAME": "/account", "PATH_INFO": path, "QUERY_STRING": "",
                   "SERVER_NAME": "127.0.0.1", "SERVER_PORT": str(stack.port), "SERVER_PROTOCOL": "HTTP/1.1",
                   "REMOTE_ADDR": "127.0.0.1"}
    return subprocess.run([str(BIN)], env=environment, stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                          cwd=stack.folder)


@pytest.mark.postgresql_only("on SQLite the first CGI request makes the database file")
def test_a_cgi_request_on_postgresql_migrates_nothing(tmp_path):
    """Each CGI request is a process of its own: on PostgreSQL it neither migrates (that is `frontdoor migrate`'s job,
    run before the web server sends requests) nor listens for other hosts' changes."""
    stack = Stack(tmp_path, {"mail.transport": "outbox"})
    refused = run_as_cgi(stack)
    assert refused.returncode != 0 and b"needs `frontdoor migrate` first" in refused.stderr, refused
    assert "account" not in stack.store.tables(), "the request migrated the database"
    subprocess.run([str(BIN), "migrate", "--config", str(stack.config_path)], check=True, capture_output=True, timeout=120)
    answered = run_as_cgi(stack)
    assert answered.returncode == 0 and answered.stdout.startswith(b"Status: 200 OK"), answered.stderr
