"""SECURITY.md's ASVS rows that the code met with no test to show it: each test here fails if its mechanism goes.

2.1.3 a long password is used to its last character; 2.1.4 any printable Unicode, spaces and emoji, counted as
characters; 2.5.4 no account exists until someone makes one; 3.1.1 no
session or API token in a URL; 3.3.1 every answer says `Cache-Control: no-store`; 2.1.11 password fields say what they
hold to password managers; 3.4.1 `secure_cookie: always` marks cookies Secure even over plain http; 4.3.2 nginx lists
no directory and serves no dot file. And the threat model's PostgreSQL notification channel: any role that can
connect may listen and send on it, and a forged notification only empties the cache.
"""
import re
import uuid
from contextlib import closing

import pytest
import requests

from api_client import Api
from backends import PostgresConnection
from http_client import REQUEST_TIMEOUT, Browser
from stack import new_stack
from users import unique_email
from waits import wait_for

PASSWORD = "correct horse battery"
# 128 characters (the default maximum), no common pattern; LONG[:-1] + "!" differs only in its last character.
LONG = ("staple horse battery correct " * 5)[:127] + "x"
URLS = re.compile(r'(?:href|action|src)="([^"]*)"')


def sign_up(browser, email, password=PASSWORD):
    return browser.post("/sign_up", {"email": email, "password": password, "password_confirmation": password})


def sign_in(email, password, stack):
    return Browser(stack).post("/sign_in", {"email": email, "password": password})


@pytest.fixture
def fresh(tmp_path_factory, request):
    """A stack nobody has used yet."""
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox"})


@pytest.fixture(scope="module")
def always_secure(tmp_path_factory, request):
    """Plain http, with `session.secure_cookie: always` (TLS ending before nginx)."""
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox",
                                                     "session.secure_cookie": "always"})


def test_a_long_password_counts_to_its_last_character(stack):
    assert len(LONG) == 128
    email = unique_email("long")
    assert sign_up(Browser(stack), email, LONG).status_code == 303
    for near in (LONG[:-1] + "!", LONG[:-1], LONG[:72], LONG[:64]):
        refused = sign_in(email, near, stack)
        assert refused.status_code == 200 and "Invalid email or password." in refused.text, len(near)
    assert sign_in(email, LONG, stack).status_code == 303


def test_spaces_accents_and_emoji_are_allowed_and_counted_as_characters(stack):
    eleven = "éàü🔑 ñøß🦊çå"   # 11 characters, 21 bytes of UTF-8: too short, however it is stored
    twelve = eleven + "ÿ"
    assert len(eleven) == 11 and len(eleven.encode()) > 12
    short = sign_up(Browser(stack), unique_email("short"), eleven)
    assert short.status_code == 200 and "Password is too short (minimum is 12 characters)" in short.text
    email = unique_email("unicode")
    assert sign_up(Browser(stack), email, twelve).status_code == 303
    assert sign_in(email, twelve, stack).status_code == 303
    decomposed = twelve.replace("é", "e\u0301")   # the same text in NFD: a different password (none is normalised)
    assert sign_in(email, decomposed, stack).status_code == 200


def test_no_account_exists_until_someone_makes_one(fresh):
    assert fresh.count("account") == 0 and fresh.count("emailAddress") == 0
    for email, password in (("admin@example.com", "admin"), ("admin", "admin"), ("root@localhost", "password")):
        assert sign_in(email, password, fresh).status_code == 200


def test_session_and_api_tokens_never_appear_in_a_url(stack):
    browser = Browser(stack)
    email = unique_email("urls")
    answers = [sign_up(browser, email)]
    session = browser.cookie("frontdoor_session")
    assert session
    for path in ("/", "/settings", "/settings/sessions", "/settings/emails", "/settings/password", "/sign_in?rd=/account/"):
        answers.append(browser.get(path))
    answers.append(browser.post("/sign_out", {}))
    answers.append(browser.post("/sign_in?rd=%2Faccount%2Fsettings", {"email": email, "password": PASSWORD}))
    later = browser.cookie("frontdoor_session")
    api = Api(stack)
    signed = api.post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}})
    assert signed.status_code == 201
    token = signed.json()["user"]["authenticationToken"]
    answers.append(browser.get("/settings/sessions"))
    for response in answers:
        urls = [response.headers.get("Location", "")] + URLS.findall(response.text)
        for secret in (session, later, token):
            assert not [url for url in urls if secret in url], (response.url, secret)


def test_every_answer_says_no_store(stack):
    browser = Browser(stack)
    answers = [browser.get(path) for path in ("/sign_in", "/sign_up", "/password/new", "/", "/missing")]
    answers.append(sign_up(browser, unique_email("store")))
    answers += [browser.get(path) for path in ("/", "/settings", "/settings/sessions", "/auth/check")]
    answers.append(Api(stack).post("/users/sign_in", {"user": {"email": "nobody@example.com", "password": "wrong one"}}))
    for response in answers:
        assert response.headers.get("Cache-Control") == "no-store", (response.request.method, response.url,
                                                                      response.status_code, response.headers)


def inputs(page):
    """name → the attributes text of each <input> on the page."""
    return {m.group(1): m.group(0) for m in re.finditer(r'<input[^>]*\bname="([^"]+)"[^>]*>', page)}


def test_password_fields_tell_password_managers_what_they_hold(stack):
    form = inputs(Browser(stack).get("/sign_in").text)
    assert 'autocomplete="username"' in form["email"] and 'type="email"' in form["email"]
    assert 'autocomplete="current-password"' in form["password"] and 'type="password"' in form["password"]
    form = inputs(Browser(stack).get("/sign_up").text)
    assert 'autocomplete="new-password"' in form["password"] and 'autocomplete="new-password"' in form["password_confirmation"]
    browser = Browser(stack)
    assert sign_up(browser, unique_email("managers")).status_code == 303
    page = browser.get("/settings/password").text
    form = inputs(page)
    assert 'autocomplete="current-password"' in form["current_password"]
    assert 'autocomplete="new-password"' in form["password"]
    for text in (page, Browser(stack).get("/sign_in").text):
        assert "onpaste" not in text and 'autocomplete="off"' not in text and "<script>" not in text


def test_secure_cookie_always_marks_cookies_secure_over_plain_http(always_secure):
    assert always_secure.base.startswith("http://")
    page = requests.get(always_secure.base + "/sign_up", timeout=REQUEST_TIMEOUT)
    csrf_cookie = page.raw.headers.getlist("Set-Cookie")
    assert csrf_cookie and all("; Secure" in header for header in csrf_cookie), csrf_cookie
    # A browser would not send a Secure cookie back over http: this client does, as a proxy ending TLS would.
    pair = csrf_cookie[0].split(";", 1)[0]
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    email = unique_email("secure")
    answer = requests.post(always_secure.base + "/sign_up", headers={"Cookie": pair}, allow_redirects=False,
                           data={"email": email, "password": PASSWORD, "password_confirmation": PASSWORD,
                                 "csrf_token": token}, timeout=REQUEST_TIMEOUT)
    assert answer.status_code == 303
    session = [h for h in answer.raw.headers.getlist("Set-Cookie") if h.startswith("__Host-frontdoor_session=")]
    assert session and "; Secure" in session[0] and "HttpOnly" in session[0], session


def test_nginx_lists_no_directory_and_serves_no_dot_file(stack):
    assert requests.get(stack.base + "/static/css/frontdoor.css", timeout=REQUEST_TIMEOUT).status_code == 200
    for path in ("/static/", "/static/css/", "/static/browserid/"):
        listing = requests.get(stack.base + path, timeout=REQUEST_TIMEOUT, allow_redirects=False)
        assert listing.status_code in (403, 404) and "Index of" not in listing.text, (path, listing.status_code)
    for path in ("/.git/config", "/static/.git/config", "/.env", "/static/.DS_Store", "/frontdoor.yml", "/frontdoor.sqlite"):
        hidden = requests.get(stack.base + path, timeout=REQUEST_TIMEOUT, allow_redirects=False)
        assert hidden.status_code == 404, (path, hidden.status_code)


def cache_figure(stack, name):
    """One `frontdoor_session_cache_…` figure of the stack's /metrics (read from loopback)."""
    text = requests.get(stack.base + "/metrics", timeout=REQUEST_TIMEOUT).text
    return next(float(line.split()[1]) for line in text.splitlines() if line.startswith(f"frontdoor_session_cache_{name} "))


@pytest.mark.postgresql_only("the session cache and its notification channel exist on PostgreSQL only")
def test_another_role_can_hear_and_forge_session_notifications_but_only_empty_the_cache(stack):
    browser = Browser(stack)
    email = unique_email("notify")
    assert sign_up(browser, email).status_code == 303
    account = stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email)[0][0]
    hits = cache_figure(stack, "hits_total")
    assert browser.get("/auth/check").status_code == 200 and browser.get("/auth/check").status_code == 200
    assert cache_figure(stack, "hits_total") > hits, "the gate answers from the cache"

    role = "intruder_" + uuid.uuid4().hex[:8]   # a role of the same cluster with no grant at all
    stack.query(f"CREATE ROLE {role} LOGIN")
    intruder = PostgresConnection(stack.store.url.replace("frontdoor@", f"{role}@", 1))
    intruder.connection.autocommit = True
    with closing(intruder):
        with pytest.raises(Exception, match="permission denied"):
            intruder.execute("SELECT * FROM session")
        intruder.execute("LISTEN frontdoor_sessions")
        invalidations, resets = cache_figure(stack, "invalidations_total"), cache_figure(stack, "resets_total")
        intruder.execute(f"NOTIFY frontdoor_sessions, '{account}'")
        intruder.execute("NOTIFY frontdoor_sessions, 'keep everyone signed in'")
        heard = [n.payload for n in intruder.connection.notifies(timeout=REQUEST_TIMEOUT, stop_after=2)]
        assert heard == [str(account), "keep everyone signed in"]
        wait_for(lambda: cache_figure(stack, "invalidations_total") > invalidations
                 and cache_figure(stack, "resets_total") > resets, what="the host heard the forged notifications")
        assert browser.get("/auth/check").status_code == 200, "a live session stays signed in (read again)"
        stranger = requests.get(stack.base + "/auth/check", headers={"Cookie": "frontdoor_session=" + "A" * 43},
                                allow_redirects=False, timeout=REQUEST_TIMEOUT)
        assert stranger.status_code == 401

        token = browser.cookie("frontdoor_session")
        assert browser.post("/sign_out", {}).status_code == 303
        heard = [n.payload for n in intruder.connection.notifies(timeout=REQUEST_TIMEOUT, stop_after=1)]
        assert heard == [str(account)], "any role in the database hears whose sessions end"
        intruder.execute(f"NOTIFY frontdoor_sessions, '{account}'")
        signed_out = requests.get(stack.base + "/auth/check", headers={"Cookie": "frontdoor_session=" + token},
                                  allow_redirects=False, timeout=REQUEST_TIMEOUT)
        assert signed_out.status_code == 401, "no notification brings a session back"
