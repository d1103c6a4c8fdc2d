"""Sign up, sign in and sign out through nginx, with frontdoor as a FastCGI process and sessions in SQLite."""
import re
import subprocess

import pytest
import requests

from conftest import ROOT, Browser, unique_email

PASSWORD = "correct horse battery"


def sign_up(browser, email, password=PASSWORD):
    return browser.post("/sign_up", {"email": email, "password": password, "password_confirmation": password})


def test_sign_up_home_sign_out_sign_in(browser, stack):
    email = unique_email("Ann")
    response = sign_up(browser, email)
    assert response.status_code == 303 and response.headers["Location"] == "/account/"
    home = browser.get("/")
    assert home.status_code == 200 and f"Signed in as {email}" in home.text

    out = browser.post("/sign_out", {})
    assert out.status_code == 303 and out.headers["Location"] == "/account/sign_in"
    gone = browser.get("/")
    assert gone.status_code == 302 and gone.headers["Location"] == "/account/sign_in?rd=%2Faccount%2F"

    back = browser.post("/sign_in", {"email": email.upper(), "password": PASSWORD})
    assert back.status_code == 303 and back.headers["Location"] == "/account/"
    assert f"Signed in as {email}" in browser.get("/").text


def test_wrong_password_and_unknown_email_answer_alike(stack):
    email = unique_email()
    sign_up(Browser(stack), email)
    browser = Browser(stack)
    wrong = browser.post("/sign_in", {"email": email, "password": "not the password"})
    unknown = browser.post("/sign_in", {"email": unique_email("nobody"), "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 200
    assert "Invalid email or password." in wrong.text
    strip = lambda text: re.sub(r'value="[^"]*"', "", text)
    assert strip(wrong.text) == strip(unknown.text)


def test_a_post_without_a_valid_csrf_token_is_refused_and_writes_nothing(stack):
    accounts, sessions = stack.count("account"), stack.count("session")
    browser = Browser(stack)
    browser.get("/sign_up")
    form = {"email": unique_email(), "password": PASSWORD, "password_confirmation": PASSWORD}
    assert browser.post("/sign_up", form, csrf=False).status_code == 403
    assert browser.post("/sign_up", {**form, "csrf_token": "forged"}).status_code == 403
    stranger = Browser(stack)
    assert stranger.post("/sign_up", {**form, "csrf_token": browser.token("/sign_up")}).status_code == 403
    assert browser.post("/sign_in", {"email": form["email"], "password": PASSWORD}, csrf=False).status_code == 403
    assert (stack.count("account"), stack.count("session")) == (accounts, sessions)


def test_a_second_sign_up_with_the_same_address_is_refused(stack):
    email = unique_email("dup")
    assert sign_up(Browser(stack), email).status_code == 303
    again = sign_up(Browser(stack), email.upper())
    assert again.status_code == 200 and "Email has already been taken" in again.text
    assert stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", email.lower())[0][0] == 1


def test_every_problem_is_shown_at_once_and_the_email_is_kept(stack):
    page = Browser(stack).post("/sign_up", {"email": "not-an-email", "password": "abc", "password_confirmation": "abd"})
    assert page.status_code == 200
    assert '<p class="field-error" id="email-error">Email is not a valid email address</p>' in page.text
    assert '<p class="field-error" id="password-error">Password is too short (minimum is 8 characters)</p>' in page.text
    assert "Password confirmation doesn&#39;t match Password" in page.text
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


def test_session_cookie_attributes_and_rotation(stack):
    email = unique_email()
    browser = Browser(stack)
    sign_up(browser, email)
    first = browser.cookie("frontdoor_session")
    cookies = browser.post("/sign_in", {"email": email, "password": PASSWORD}).raw.headers.getlist("Set-Cookie")
    cookie = next(c for c in cookies if c.startswith("frontdoor_session="))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/account" in cookie and "Secure" not in cookie
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
    session = next(c for c in cookies if c.startswith("frontdoor_session="))
    assert "Secure" in session and "HttpOnly" in session


def test_pages_carry_the_security_headers_and_nginx_serves_the_css(stack):
    page = requests.get(stack.base + "/sign_in", timeout=5)
    csp = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert page.headers["Referrer-Policy"]
    assert 'href="/account/static/css/frontdoor.css"' in page.text
    css = requests.get(stack.base + "/static/css/frontdoor.css", timeout=5)
    assert css.status_code == 200 and css.headers["Content-Type"].startswith("text/css")
    assert css.text == (ROOT / "static/css/frontdoor.css").read_text()
    assert "Content-Security-Policy" not in css.headers, "served by nginx, not the app"


def test_the_scripted_curl_session(stack):
    result = subprocess.run([str(ROOT / "scripts/curl-session.sh"), stack.base, str(stack.outbox)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "signed up, signed out, signed in, signed out" in result.stdout


def test_the_database_file_holds_only_hashes_and_digests(stack):
    # Runs last in this module: every session cookie the tests saw is checked against the stored rows.
    hashes = [row[0] for row in stack.query("SELECT passwordHash FROM account")]
    assert hashes and all(h.startswith("$argon2id$v=19$m=19456,t=2,p=1$") for h in hashes)
    rows = stack.query("SELECT * FROM session")
    assert rows and all(isinstance(row[0], bytes) and len(row[0]) == 32 for row in rows)
    dump = " ".join(str(value) + (value.hex() if isinstance(value, bytes) else "") for row in rows for value in row)
    assert stack.seen_session_tokens
    for token in stack.seen_session_tokens:
        assert token not in dump
    assert stack.query("PRAGMA integrity_check") == [("ok",)]
