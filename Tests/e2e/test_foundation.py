"""Sign up, sign in and sign out through nginx, with frontdoor as a FastCGI process and sessions in SQLite."""
import base64
import hashlib
import re
import signal
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from api_client import token_digest
from http_client import REQUEST_TIMEOUT, Browser
from ports import free_port
from stack import BIN, ROOT, Stack
from users import unique_email
from waits import wait_for

PASSWORD = "correct horse battery"


def sign_up(browser, email, password=PASSWORD):
    return browser.post("/sign_up", {"email": email, "password": password, "password_confirmation": password})


def test_sign_up_home_sign_out_sign_in(browser, stack):
    email = unique_email("Ann")
    response = sign_up(browser, email)
    assert response.status_code == 303 and response.headers["Location"] == "/account/"
    home = browser.get("/")
    assert home.status_code == 200 and f"Signed in as {email}" in home.text

    before_sign_out = browser.cookie("frontdoor_session")
    out = browser.post("/sign_out", {})
    assert out.status_code == 303 and out.headers["Location"] == "/account/sign_in"
    gone = browser.get("/")
    assert gone.status_code == 302 and gone.headers["Location"] == "/account/sign_in?rd=%2Faccount%2F"
    replay = Browser(stack)
    replay.session.cookies.set("frontdoor_session", before_sign_out)
    assert replay.get("/").status_code == 302, "signing out ends the session on the server, not just the cookie"

    back = browser.post("/sign_in", {"email": email.upper(), "password": PASSWORD})
    assert back.status_code == 303 and back.headers["Location"] == "/account/"
    assert f"Signed in as {email}" in browser.get("/").text


def test_wrong_password_and_unknown_email_answer_alike(stack):
    email = unique_email()
    sign_up(Browser(stack), email)
    browser = Browser(stack)
    wrong = browser.post("/sign_in", {"email": email, "password": "not the password"})
    nobody = unique_email("nobody")
    unknown = browser.post("/sign_in", {"email": nobody, "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 200
    assert wrong.text.count("Invalid email or password.") == 1
    # The same page apart from the CSRF token and the address typed (which the form keeps).
    strip = lambda text: re.sub(r'name="csrf_token" value="[^"]*"', "", text)
    assert strip(wrong.text).replace(email, "EMAIL") == strip(unknown.text).replace(nobody, "EMAIL")
    assert sorted(wrong.headers) == sorted(unknown.headers)


def test_a_post_without_a_valid_csrf_token_is_refused_and_writes_nothing(stack):
    member = unique_email("member")
    assert sign_up(Browser(stack), member).status_code == 303
    counts = lambda: [stack.count(table) for table in ("account", "emailAddress", "session")]
    before = counts()
    browser = Browser(stack)
    browser.get("/sign_up")
    form = {"email": unique_email(), "password": PASSWORD, "password_confirmation": PASSWORD}
    assert browser.post("/sign_up", form, csrf=False).status_code == 403
    assert browser.post("/sign_up", {**form, "csrf_token": "forged"}).status_code == 403
    stranger = Browser(stack)  # a real token, but for another browser's CSRF cookie
    assert stranger.post("/sign_up", {**form, "csrf_token": browser.token("/sign_up")}).status_code == 403
    # Sign-in with the right password for an existing account still needs the token.
    good = {"email": member, "password": PASSWORD}
    assert browser.post("/sign_in", good, csrf=False).status_code == 403
    assert browser.post("/sign_in", {**good, "csrf_token": "forged"}).status_code == 403
    assert browser.post("/sign_in", {**good, "csrf_token": ""}).status_code == 403
    assert browser.cookie("frontdoor_session") is None
    assert counts() == before
    assert stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", form["email"])[0][0] == 0


def test_a_second_sign_up_with_the_same_address_is_refused(stack):
    email = unique_email("dup")
    assert sign_up(Browser(stack), email).status_code == 303
    accounts = stack.count("account")
    again = sign_up(Browser(stack), email.upper())
    assert again.status_code == 200 and "Email has already been taken" in again.text
    assert 'id="email-error"' in again.text
    assert stack.count("account") == accounts
    assert stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", email.lower())[0][0] == 1


def test_every_problem_is_shown_at_once_and_the_email_is_kept(stack):
    page = Browser(stack).post("/sign_up", {"email": "not-an-email", "password": "abc", "password_confirmation": "abd"})
    assert page.status_code == 200
    assert '<p class="field-error" id="email-error">Email is not a valid email address</p>' in page.text
    assert '<p class="field-error" id="password-error">Password is too short (minimum is 12 characters)</p>' in page.text
    assert ('<p class="field-error" id="password_confirmation-error">Password confirmation doesn&#39;t match Password</p>'
            in page.text)
    assert 'value="not-an-email"' in page.text
    assert 'value="abc"' not in page.text and 'value="abd"' not in page.text


def test_a_body_over_the_limit_gets_413_and_the_server_keeps_serving(stack, browser):
    response = browser.post("/sign_in", {"email": "a" * 100_000, "password": "x"})
    assert response.status_code == 413
    assert browser.get("/sign_in").status_code == 200
    assert stack.app.poll() is None


def test_return_targets_stay_on_this_site(stack):
    email = unique_email()
    sign_up(Browser(stack), email)
    for target, expected in [("/account/", "/account/"), ("/other/path?x=1", "/other/path?x=1"),
                             ("https://evil.example/", "/account/"), ("//evil.example/", "/account/"),
                             ("/\\evil.example", "/account/"), ("https:evil.example", "/account/"),
                             ("%2F%2Fevil.example", "/account/"), ("/%2F%2Fevil.example", "/account/")]:
        browser = Browser(stack)
        response = browser.post("/sign_in", {"email": email, "password": PASSWORD, "rd": target})
        assert response.status_code == 303, target
        assert response.headers["Location"] == expected, target
    page = Browser(stack).get("/sign_in?rd=%2F%2Fevil.example")
    assert 'name="rd"' not in page.text


def test_remember_me_makes_a_lasting_cookie(stack):
    email = unique_email()
    sign_up(Browser(stack), email)
    browser = Browser(stack)
    cookies = browser.post("/sign_in", {"email": email, "password": PASSWORD, "remember_me": "1"}).raw.headers.getlist("Set-Cookie")
    cookie = next(c for c in cookies if c.startswith("frontdoor_session="))
    assert "Max-Age=2592000" in cookie or "Expires=" in cookie, cookie  # remember_lifetime: 30d
    # This very session's row (found by its digest, not as the newest row: timestamps can tie or step back).
    digest = token_digest(browser.cookie("frontdoor_session"))
    assert stack.query("SELECT rememberMe FROM session WHERE digest = ?", digest) == [(1,)]


def test_session_cookie_attributes_and_rotation(stack):
    email = unique_email()
    browser = Browser(stack)
    sign_up(browser, email)
    first = browser.cookie("frontdoor_session")
    cookies = browser.post("/sign_in", {"email": email, "password": PASSWORD}).raw.headers.getlist("Set-Cookie")
    cookie = next(c for c in cookies if c.startswith("frontdoor_session="))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/;" in cookie and "Secure" not in cookie
    second = browser.cookie("frontdoor_session")
    assert second and second != first
    replay = Browser(stack)
    replay.session.cookies.set("frontdoor_session", first)
    assert replay.get("/").status_code == 302, "the session from before sign-in no longer works"


@pytest.mark.filterwarnings("ignore::urllib3.exceptions.InsecureRequestWarning")  # the test server's certificate is self-signed
def test_cookies_are_secure_over_https(stack):
    browser = Browser(stack, base=stack.https_base, verify=False)
    response = sign_up(browser, unique_email())
    assert response.status_code == 303
    cookies = response.raw.headers.getlist("Set-Cookie")
    session = next(c for c in cookies if c.startswith("__Host-frontdoor_session="))   # host-bound over https
    assert "Secure" in session and "HttpOnly" in session and "Path=/;" in session + ";" and "Domain" not in session
    assert not any(c.startswith("frontdoor_session=") for c in cookies), "over https the plain name is not used"


def test_pages_carry_the_security_headers_and_nginx_serves_the_css(stack):
    page = requests.get(stack.base + "/sign_in", timeout=REQUEST_TIMEOUT)
    csp = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert page.headers["Referrer-Policy"]
    assert 'href="/account/static/css/frontdoor.css"' in page.text
    css = requests.get(stack.base + "/static/css/frontdoor.css", timeout=REQUEST_TIMEOUT)
    assert css.status_code == 200 and css.headers["Content-Type"].startswith("text/css")
    assert css.text == (ROOT / "static/css/frontdoor.css").read_text()
    assert "Content-Security-Policy" not in css.headers, "served by nginx, not the app"
    for page in ("/", "/sign_up", "/sign_out"):
        response = requests.get(stack.base + page, timeout=REQUEST_TIMEOUT, allow_redirects=False)
        assert response.headers.get("X-Frame-Options") == "DENY", page


def test_nginx_serves_the_css_with_no_frontdoor_process(tmp_path):
    """An nginx from the same include whose socket has nothing behind it: CSS 200, pages 502 with the friendly page
    (in every built-in language, without nginx's name or version)."""
    port = free_port()
    prefix = tmp_path / "nginx"
    subprocess.run([str(ROOT / "nginx/render"), "--static", str(ROOT / "static"), "--socket", str(tmp_path / "nobody.sock"),
                    "--server", str(prefix), str(port)], check=True)
    nginx = subprocess.Popen(["nginx", "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "error.log")],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}/account"
        css = wait_for(lambda: get_or_none(base + "/static/css/frontdoor.css"), what="nginx")
        assert css.status_code == 200 and css.headers["Content-Type"].startswith("text/css")
        assert css.content == (ROOT / "static/css/frontdoor.css").read_bytes()
        assert get_or_none(base + "/static/css/missing.css").status_code == 404
        down = get_or_none(base + "/sign_in")
        assert down.status_code == 502 and down.headers["Content-Type"].startswith("text/html")
        assert "Unavailable for a moment" in down.text and "Indisponible" in down.text and "nicht erreichbar" in down.text
        assert "nginx" not in down.text.lower() and "/" not in down.headers.get("Server", "")
        assert get_or_none(f"http://127.0.0.1:{port}/").headers["Location"].endswith("/account/")
    finally:
        nginx.terminate()
        nginx.wait(60)


def get_or_none(url):
    try:
        return requests.get(url, timeout=REQUEST_TIMEOUT, allow_redirects=False)
    except requests.RequestException:
        return None


def test_concurrent_sign_ups_all_succeed(stack):
    """Eight people at once through four workers (argon2 blocks a worker; SQLite writes serialise)."""
    emails = [unique_email(f"crowd{i}") for i in range(8)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(lambda e: sign_up(Browser(stack), e).status_code, emails))
    assert statuses == [303] * 8
    for e in emails:
        assert stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", e.lower())[0][0] == 1


def test_the_scripted_curl_session(stack):
    result = subprocess.run([str(ROOT / "scripts/curl-session.sh"), stack.base, str(stack.outbox)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "signed up, signed out, signed in, signed out" in result.stdout


def test_the_database_file_holds_only_hashes_and_digests(stack):
    # Runs last in this module: every session cookie the tests saw is checked against the stored rows.
    hashes = [row[0] for row in stack.query("SELECT passwordHash FROM account")]
    assert hashes and all(h.startswith("$argon2id$v=19$m=19456,t=2,p=1$") for h in hashes)
    digests = [row[0] for row in stack.query("SELECT digest FROM session")]
    assert digests and all(isinstance(d, bytes) and len(d) == 32 for d in digests)
    assert len(stack.seen_session_tokens) >= 10
    # The raw token is never stored: look for it, and its raw bytes, in every column of every table.
    dump = []
    for table in stack.store.tables():
        for row in stack.query(f"SELECT * FROM {table}"):
            for value in row:
                dump.append(value.hex() if isinstance(value, bytes) else str(value))
                if isinstance(value, bytes):
                    dump.append(value.decode("latin-1"))
    dump = "\n".join(dump)
    stored = set(digests)
    for token in stack.seen_session_tokens:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) == 32, token
        assert token not in dump and raw.hex() not in dump, "a session token is stored in the clear"
    # Sessions signed out or rotated are deleted, so only some cookies still have a row; those match by SHA-256.
    live = [t for t in stack.seen_session_tokens
            if hashlib.sha256(base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))).digest() in stored]
    assert live, "the digest column holds SHA-256 of the cookie's 32 raw bytes"
    assert stack.store.integrity() == [("ok",)]


def test_sigterm_ends_the_server_even_when_its_parent_blocked_it(tmp_path):
    """A parent that starts frontdoor with SIGTERM blocked (the mask survives exec; Foundation's Process does this)
    must still be able to stop it with SIGTERM."""
    stack = Stack(tmp_path, {"confirmation.required": "false"})
    # The child inherits this thread's signal mask: block SIGTERM here around the start rather than in a preexec_fn,
    # which may deadlock in a process with other threads (the suite's servers run on threads).
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        app = subprocess.Popen([BIN, "serve", "--config", str(stack.config_path), "--socket", str(stack.socket), "--workers", "2"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    try:
        wait_for(lambda: stack.socket.exists() or app.poll() is not None, what="the frontdoor socket")
        assert app.poll() is None
        app.send_signal(signal.SIGTERM)
        assert app.wait(60) == -signal.SIGTERM
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
