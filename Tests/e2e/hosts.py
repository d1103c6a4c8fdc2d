"""Two frontdoor hosts sharing one PostgreSQL database behind one nginx, for test_several_hosts.py (issue 24).

Pair(folder, settings, extra_yaml) makes:
- host A and host B: each a stack.Stack whose frontdoor is started alone (Stack.start_app), with its own folder,
  config file, FastCGI socket and netguard log; both configs name the same `database.url` (a new database in the
  PostgreSQL run's session cluster, backends.new_database), the same `public_url` (the upstream's port) and the same
  `settings` (mail, lockout, ...) and `extra_yaml` (e.g. a `social:` section, whose token key file is shared);
- one nginx (nginx/render's dev server for A, with two more servers added to it, as stack.make_tls_server does):
  each host on its own port (`pair.a.base`, `pair.b.base`), and `pair.front` on a third port: an nginx `upstream`
  over both sockets, the address `public_url` names;
- in each of the three servers `/protected`, a file behind `auth_request` to that server's gate location
  (nginx/snippets/frontdoor-gate.conf, rendered per server, so A's port asks A, B's port asks B).

Helpers (no fixtures): on() gives a Browser the same cookie jar at another host; gate() and revocation_delay() ask a
server's gate with a session cookie sent by hand; relocated() moves a mailed public link to one host; run_cli() runs
`frontdoor` with a host's config; message_ids() are the Message-IDs a sink received. Then what a person does on the
hosts (sign up, confirm, sign in, ask for a reset link; the hosts ask for confirmation and mail through a sink), and
REVOCATIONS: each way of ending a session, done on A while the session's cookie is polled at B's gate.
"""
import re
import subprocess
import time
from urllib.parse import urlsplit, urlunsplit

import requests

import backends
from http_client import REQUEST_TIMEOUT, Browser, page_text
from ports import free_port
from stack import BIN, ROOT, Stack
from users import unique_email
from waits import wait_for

SESSION_COOKIE = "frontdoor_session"
UPSTREAM = "frontdoor_hosts"
UPSTREAM_PLACEHOLDER = "/frontdoor-hosts-upstream.sock"   # rendered as a socket path, then replaced by the upstream
MESSAGE_ID = re.compile(r"^Message-ID: <([^@>]+)@", re.MULTILINE)  # the queue keeps the part before the @
POLL_PAUSE = 0.005   # seconds between two gate polls (each poll is a request of its own on top of that)
PASSWORD = "correct horse battery"
FAILED = "Invalid email or password."
CHECK_EMAIL = "Check your email"


class Front:
    """The upstream's server: the site as `public_url` names it. Browser(front) talks to it like to a Stack."""

    def __init__(self, port):
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"
        self.base = self.origin + "/account"
        self.seen_session_tokens = set()
        self.name = "front"


class Pair:
    """Hosts A and B on one database behind one nginx (see the module's header)."""

    def __init__(self, folder, settings, extra_yaml="", workers=4):
        self.folder = folder
        self.front = Front(free_port())
        self.public_url = self.front.origin
        self.database_url = backends.new_database()
        shared = {**settings, "database.url": self.database_url, "public_url": self.public_url}
        self.hosts = []
        for name in ("a", "b"):
            host_folder = folder / name
            host_folder.mkdir()
            host = Stack(host_folder, shared, extra_yaml=extra_yaml, workers=workers)
            host.name = name.upper()
            host.origin = f"http://127.0.0.1:{host.port}"
            self.hosts.append(host)
        self.a, self.b = self.hosts
        self.store = self.a.store
        self.prefix = folder / "nginx"
        self.nginx = None
        self.nginx_stderr = None

    # MARK: - Start and stop

    def start(self):
        """Starts A (which migrates the database and makes the shared key files), then B, then nginx."""
        for host in self.hosts:
            host.start_app()
        self.write_nginx_config()
        self.nginx_stderr = open(self.folder / "nginx.stderr", "w")
        self.nginx = subprocess.Popen(["nginx", "-p", str(self.prefix), "-c", str(self.prefix / "nginx.conf"),
                                       "-e", str(self.prefix / "error.log")],
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.nginx_stderr)
        for target in (self.a, self.b, self.front):
            wait_for(lambda t=target: answers(t), what=f"nginx + frontdoor on {target.name}")
        return self

    def stop(self):
        if self.nginx and self.nginx.poll() is None:
            self.nginx.terminate()
            self.nginx.wait(30)
        for host in self.hosts:
            host.stop()
        if self.nginx_stderr:
            self.nginx_stderr.close()

    def logs(self):
        parts = [f"=== host {host.name}\n{host.logs()}" for host in self.hosts]
        for name in ("error.log",):
            path = self.prefix / name
            if path.exists():
                parts.append(f"--- shared nginx {name}\n" + path.read_text(errors="replace")[-4000:])
        return "\n".join(parts)

    def network_events(self):
        """netguard's lines of both hosts (then cleared): only loopback connects are expected."""
        return [event for host in self.hosts for event in host.network_events()]

    # MARK: - nginx

    def render_site(self, socket):
        return subprocess.run([str(ROOT / "nginx/render"), "--base", "/account", "--static", str(ROOT / "static"),
                               "--socket", socket], check=True, capture_output=True, text=True).stdout

    def write_nginx_config(self):
        prefix = self.prefix
        subprocess.run([str(ROOT / "nginx/render"), "--base", "/account", "--static", str(ROOT / "static"),
                        "--socket", str(self.a.socket), "--server", str(prefix), str(self.a.port)], check=True)
        (prefix / "protected.txt").write_text("protected\n")
        protected = (f"location = /protected {{\n    auth_request /internal/frontdoor/check;\n"
                     f"    default_type text/plain;\n    alias {prefix}/protected.txt;\n}}\n")
        (prefix / "protected.conf").write_text(protected)
        (prefix / "server.d" / "protected.conf").write_text(protected)   # A's server (render's) includes server.d
        (prefix / "frontdoor-b.conf").write_text(self.render_site(str(self.b.socket)))
        upstream_site = self.render_site(UPSTREAM_PLACEHOLDER)
        assert upstream_site.count(f"unix:{UPSTREAM_PLACEHOLDER}") >= 4, upstream_site
        (prefix / "frontdoor-front.conf").write_text(upstream_site.replace(f"unix:{UPSTREAM_PLACEHOLDER}", UPSTREAM))
        more = (f"    upstream {UPSTREAM} {{\n        server unix:{self.a.socket};\n        server unix:{self.b.socket};\n    }}\n"
                + "".join(f"    server {{\n        listen 127.0.0.1:{port};\n        server_name localhost;\n"
                          f"        include {prefix}/{site};\n        include {prefix}/protected.conf;\n    }}\n"
                          for port, site in ((self.b.port, "frontdoor-b.conf"), (self.front.port, "frontdoor-front.conf"))))
        conf = (prefix / "nginx.conf").read_text().rstrip()
        assert conf.endswith("}")
        (prefix / "nginx.conf").write_text(conf[:-1] + more + "}\n")


def answers(target):
    try:
        return requests.get(target.base + "/sign_in", timeout=30).status_code == 200
    except requests.RequestException:
        return False


def on(browser, target):
    """A Browser at `target` (a host or the front) with the same cookie jar as `browser`: the same person's browser
    sent to another host (cookies are per host name, not per port, so the jar's session cookie goes along)."""
    other = Browser(target)
    other.session = browser.session
    return other


def relocated(link, target):
    """A mailed link (on the public URL) moved to `target`'s port: following it there, not where the mail points."""
    parts = urlsplit(link)
    return urlunsplit(("http", urlsplit(target.origin).netloc, parts.path, parts.query, parts.fragment))


def gate(target, token, session=None):
    """The status of `target`'s protected location asked with only the session cookie `token` (auth_request: 200
    lets through, 401 refuses)."""
    get = (session or requests).get
    return get(target.origin + "/protected", headers={"Cookie": f"{SESSION_COOKIE}={token}"}, allow_redirects=False,
               timeout=REQUEST_TIMEOUT).status_code


def revocation_delay(target, token, act, limit=15.0):
    """How long after `act()` returned `target`'s gate still let `token` through: the gate must pass first, then it is
    polled (POLL_PAUSE apart) until it refuses; the delay is taken when the first refusal came back. Returns
    (seconds, polls); fails after `limit` seconds (a bound, far above what a test asserts)."""
    poller = requests.Session()
    assert gate(target, token, poller) == 200, "the session passes the gate before the revocation"
    act()
    done = time.monotonic()
    polls = 0
    while True:
        status = gate(target, token, poller)
        polls += 1
        elapsed = time.monotonic() - done
        if status == 401:
            return elapsed, polls
        assert status == 200, f"the gate answered {status}"
        assert elapsed < limit, f"the gate still let the session through {elapsed:.1f} s after the revocation"
        time.sleep(POLL_PAUSE)


def run_cli(host, *args, stdin=""):
    """`frontdoor ARGS --config <host's config>`, as an operator on that host runs it."""
    return subprocess.run([BIN, *args, "--config", str(host.config_path)], input=stdin, capture_output=True, text=True,
                          timeout=120, cwd=host.folder)


def message_ids(sink):
    """The queue's message ids of every mail `sink` received, in arrival order (repeats kept)."""
    with sink.lock:
        return [MESSAGE_ID.search(message["data"]).group(1) for message in sink.messages]


# MARK: - What people and operators do on the hosts


def sign_up(browser, email=None):
    email = email or unique_email("hosts")
    answer = browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert answer.status_code == 200 and CHECK_EMAIL in answer.text, answer.text[:500]
    return email


def confirmed(pair, sink):
    """A new account signed up on A and confirmed by its mailed link on B; returns its address."""
    email = sign_up(Browser(pair.a))
    assert Browser(pair.b).get(relocated(sink.link(email, "/confirm?token="), pair.b)).status_code == 302
    return email


def signed_in(host, email, password=PASSWORD):
    browser = Browser(host)
    answer = browser.post("/sign_in", {"email": email, "password": password})
    assert answer.status_code == 303, page_text(answer)[:500]
    return browser


def refused(host, email, password):
    answer = Browser(host).post("/sign_in", {"email": email, "password": password})
    return answer.status_code == 200 and FAILED in page_text(answer)


def account_of(pair, email):
    return pair.store.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email.lower())[0][0]


def reset_token(pair, sink, email):
    """A reset link asked for on A, as mailed; returns its token."""
    assert Browser(pair.a).post("/password/new", {"email": email}).status_code == 200
    return sink.link(email, "/password/edit?token=").split("token=", 1)[1]


def reset_form(browser, token, password):
    return {"token": token, "password": password, "password_confirmation": password,
            "csrf_token": browser.token("/password/edit?token=" + token)}


def unsent(pair):
    return pair.store.query("SELECT COUNT(*) FROM mailQueue WHERE sentAt IS NULL")[0][0]


# MARK: - Revocations: each makes a session on B and returns (its cookie, the act on A that ends it)


def revoke_by_sign_out(pair, sink, email):
    browser = signed_in(pair.a, email)
    return browser.cookie("frontdoor_session"), lambda: expect(browser.post("/sign_out", {}), 303)


def revoke_everywhere_else(pair, sink, email):
    """The session on B is another one of the account's; A's session signs every other one out."""
    acting, victim = signed_in(pair.a, email), signed_in(pair.b, email)
    return victim.cookie("frontdoor_session"), \
        lambda: expect(acting.post("/settings/sessions/revoke_others", {}), 303)


def revoke_by_password_reset(pair, sink, email):
    victim, resetting = signed_in(pair.b, email), Browser(pair.a)
    form = reset_form(resetting, reset_token(pair, sink, email), "a new password for " + email)
    return victim.cookie("frontdoor_session"), lambda: expect(resetting.post("/password/edit", form), 303)


def revoke_by_deletion(pair, sink, email):
    browser = signed_in(pair.a, email)
    csrf = browser.token("/settings/delete")
    return browser.cookie("frontdoor_session"), \
        lambda: expect(browser.post("/settings/delete", {"password": PASSWORD, "csrf_token": csrf}), 303)


def revoke_by_operator(pair, sink, email):
    victim = signed_in(pair.b, email)
    return victim.cookie("frontdoor_session"), \
        lambda: expect_cli(run_cli(pair.a, "sessions", "revoke", "--account", email), f"revoked 1 session(s) of {email}")


def revoke_by_lock(pair, sink, email):
    victim = signed_in(pair.b, email)
    return victim.cookie("frontdoor_session"), \
        lambda: expect_cli(run_cli(pair.a, "user", "lock", email, "--for", "1h"), f"locked {email} until ")


def revoke_by_admin(pair, sink, email):
    """An admin's "end every session" on A's admin page for the person (admin: admin_on)."""
    victim, browser = signed_in(pair.b, email), admin_on(pair, sink)
    form = {"id": str(account_of(pair, email)), "csrf_token": browser.token("/admin/people")}
    return victim.cookie("frontdoor_session"), lambda: expect(browser.post("/admin/person/sessions/revoke_all", form), 303)


_admins = {}


def admin_on(pair, sink):
    """A Browser on A signed in as the pair's admin (made once: confirmed, codes on, put in `admins` with A's CLI,
    signed in with the password and the next step's code)."""
    from admin import grant   # admin.py uses this module's run_cli
    from two_step import enrol
    if id(pair) not in _admins:
        email = confirmed(pair, sink)
        enrolment = enrol(signed_in(pair.a, email))
        grant(pair.a, email)
        browser = Browser(pair.a)
        answer = browser.post("/sign_in", {"email": email, "password": PASSWORD})
        assert answer.status_code == 303 and "/sign_in/second_factor" in answer.headers["Location"], page_text(answer)[:500]
        expect(browser.post("/sign_in/second_factor", {"code": enrolment.code(offset=30)}), 303)
        _admins[id(pair)] = browser
    return _admins[id(pair)]


def expect(answer, status):
    assert answer.status_code == status, (answer.status_code, page_text(answer)[:500])


def expect_cli(result, start):
    assert result.returncode == 0 and result.stdout.startswith(start), (result.stdout, result.stderr)


REVOCATIONS = {"sign-out": revoke_by_sign_out, "sign-out everywhere else": revoke_everywhere_else,
               "password reset": revoke_by_password_reset, "account deletion": revoke_by_deletion,
               "operator revoke": revoke_by_operator, "operator lock": revoke_by_lock, "admin page": revoke_by_admin}
