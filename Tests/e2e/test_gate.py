"""The auth_request gate through nginx: the snippet of docs/protect-apps.md in front of a real upstream app,
sign-in and back with `rd`, headers passed on, per-location rules, sign-out, and open-redirect attempts refused."""
import re
import textwrap
from urllib.parse import quote

import pytest
from flask import Response, request

from fakeserver import FakeServer

from http_client import Browser
from mails import outbox_link
from make_run import make_run
from stack import ROOT, new_stack
from users import unique_email

PASSWORD = "correct horse battery"


class EchoApp(FakeServer):
    """The protected upstream: a page that shows which identity headers and which Cookie header nginx passed to it."""

    def __init__(self):
        super().__init__("echo_app")

        @self.app.get("/", defaults={"path": ""})
        @self.app.get("/<path:path>")
        def echo(path):
            cookies = request.headers.getlist("Cookie")
            body = (f"protected page {request.environ['REQUEST_URI']}\nRemote-User={request.headers.get('Remote-User')}\n"
                    f"Remote-Email={request.headers.get('Remote-Email')}\nRemote-Name={request.headers.get('Remote-Name')}\n"
                    f"Remote-Groups={request.headers.get('Remote-Groups')}\n"
                    f"Remote-Account-Id={request.headers.get('Remote-Account-Id')}\n"
                    f"Cookie={' | '.join(cookies) if cookies else '(none)'}\n")
            return Response(body, 200, content_type="text/plain")


@pytest.fixture(scope="module")
def upstream():
    with EchoApp() as server:
        yield server.port


def doc_snippet(document, heading):
    """The first nginx block after `heading` in `document`, as an operator would paste it (the indentation of a block
    inside a list item taken off)."""
    text = (ROOT / document).read_text()
    section = text.split(heading, 1)[1]
    block = re.search(r"```nginx\n(.*?)^\s*```", section, re.S | re.M).group(1)
    return textwrap.dedent(block)


def protect_snippet():
    """The location block of docs/protect-apps.md ("The snippet")."""
    return doc_snippet("docs/protect-apps.md", "## The snippet")


def quick_start_snippet():
    """The location block of the README's quick start, which `make run` is to serve."""
    return doc_snippet("README.md", "## Quick start")


def test_the_quick_start_shows_the_snippet_of_protect_apps():
    """The README's five-minute snippet is the documented one, so the test below covers both."""
    assert quick_start_snippet() == protect_snippet()


def server_files(port):
    def files(stack):
        prefix = stack.folder / "nginx"
        gate = (prefix / "snippets/frontdoor-gate.conf").read_text()
        admins_gate = gate.replace("location = /internal/frontdoor/check {",
                                   'location = /internal/frontdoor/check-admins {\n'
                                   '    fastcgi_param FRONTDOOR_ALLOW "boss@example.com @admins.test";')
        protect = (prefix / "snippets/frontdoor-protect.conf").read_text()
        admins = protect.replace("auth_request /internal/frontdoor/check;", "auth_request /internal/frontdoor/check-admins;")
        return {
            "app.conf": protect_snippet().replace("127.0.0.1:9000", f"127.0.0.1:{port}"),
            "admins.conf": admins_gate + "\nlocation /admins/ {\n" + admins + f"\n    proxy_pass http://127.0.0.1:{port}/;\n}}\n",
        }
    return files


@pytest.fixture(scope="module")
def gate_stack(tmp_path_factory, request, upstream):
    yield from new_stack(tmp_path_factory, request,
                         {"confirmation.required": "false", "mail.transport": "outbox", "redirect.allowed_hosts": "app.test, .partner.test"},
                         server_files(upstream))


def signed_up(stack, email=None, confirm=True):
    """A browser signed up (and so signed in: confirmation is off here) as `email`; with `confirm`, the address is then
    confirmed through a link asked for on confirmation/new, as the gate passes on confirmed addresses only."""
    email = email or unique_email("gate")
    browser = Browser(stack)
    assert browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    if confirm:
        confirmed(stack, browser, email)
    return browser, email


def confirmed(stack, browser, email):
    assert browser.post("/confirmation/new", {"email": email}).status_code == 200
    assert browser.get(outbox_link(stack, email, "/confirm?token=")).status_code in (302, 303)


def origin(stack):
    return f"http://127.0.0.1:{stack.port}"


def cookie_seen_by_app(page):
    """The Cookie header EchoApp received ("(none)" when nginx sent none)."""
    return re.search(r"^Cookie=(.*)$", page.text, re.M).group(1)


def test_anonymous_visitor_is_sent_to_sign_in_and_back_with_the_headers_passed_on(gate_stack):
    stack = gate_stack
    browser = Browser(stack)
    page = origin(stack) + "/app/reports?year=2026"
    first = browser.get(page)
    assert first.status_code == 302
    sign_in = f"{origin(stack)}/account/sign_in?rd={quote(page, safe='')}"
    assert first.headers["Location"] == sign_in
    assert "protected page" not in first.text

    email = unique_email("Reader")
    _, email = signed_up(stack, email)
    signed_out_form = browser.get(sign_in)
    assert signed_out_form.status_code == 200 and f'value="{page}"' in signed_out_form.text.replace("&amp;", "&")
    back = browser.post(sign_in, {"email": email, "password": PASSWORD, "rd": page})
    assert back.status_code == 303 and back.headers["Location"] == page
    shown = browser.get(page)
    assert shown.status_code == 200
    [(username,)] = stack.query("SELECT a.username FROM account a JOIN emailAddress e ON e.accountId = a.id WHERE e.address = ?",
                                email)
    assert "protected page /reports?year=2026" in shown.text
    assert username == email.split("@")[0].lower(), "made from the address"
    assert f"Remote-Email={email}\n" in shown.text and f"Remote-User={username}\n" in shown.text
    assert f"Remote-Name={username}\n" in shown.text, "no display name: the username"
    assert "Remote-Groups=None\n" in shown.text and "Remote-Account-Id=None\n" in shown.text
    assert browser.cookie("frontdoor_session") not in shown.text and "frontdoor_" not in cookie_seen_by_app(shown)


def test_signing_out_closes_the_gate_again(gate_stack):
    browser, _ = signed_up(gate_stack)
    page = origin(gate_stack) + "/app/"
    assert browser.get(page).status_code == 200
    assert browser.post("/sign_out", {}).status_code == 303
    again = browser.get(page)
    assert again.status_code == 302 and "/account/sign_in?rd=" in again.headers["Location"]


def test_headers_a_client_forges_are_replaced(gate_stack):
    stack = gate_stack
    forged = {"Remote-Email": "boss@example.com", "Remote-User": "1", "X-Original-URL": "http://evil.example/",
              "Remote-Groups": "admins", "Remote-Account-Id": "1", "Remote-Name": "Boss"}
    anonymous = Browser(stack).get(origin(stack) + "/app/x", headers=forged)
    assert anonymous.status_code == 302
    assert anonymous.headers["Location"].endswith("rd=" + quote(origin(stack) + "/app/x", safe=""))
    browser, email = signed_up(stack)
    shown = browser.get(origin(stack) + "/app/x", headers=forged)
    assert shown.status_code == 200 and f"Remote-Email={email}\n" in shown.text and "boss@example.com" not in shown.text
    assert "Remote-User=1\n" not in shown.text and "Remote-Name=Boss" not in shown.text
    assert "Remote-Groups=None\n" in shown.text and "Remote-Account-Id=None\n" in shown.text, "an empty value sends none"


# Both locations: /app/ is docs/protect-apps.md's block, /admins/ the shipped snippet pasted straight into a location.
PROTECTED = ["/app/cookies", "/admins/cookies"]
# (Cookie header the browser sends, with S for the session token; what the app must receive, None for no header).
COOKIE_CASES = [
    ("frontdoor_session=S", None),
    ("frontdoor_session=S; app_a=1", "app_a=1"),
    ("frontdoor_session=S;app_a=1", "app_a=1"),
    ("app_a=1; frontdoor_session=S; app_b=2", "app_a=1; app_b=2"),
    ("app_a=1;frontdoor_session=S;app_b=2", "app_a=1;app_b=2"),
    ("app_a=1; frontdoor_session=S", "app_a=1"),
    ("app_a=1;frontdoor_session=S", "app_a=1"),
    ("frontdoor_lang=de; app_a=1; frontdoor_csrf=c1; frontdoor_session=S; app_b=\"two words\"; "
     "frontdoor_accounts=t1.t2; frontdoor_flash=f1; app_c=3; frontdoor_oauth=o1; frontdoor_social_pending=p1",
     "app_a=1; app_b=\"two words\"; app_c=3"),
    ("__Host-frontdoor_csrf=c2; app_a=1; frontdoor_session=S; __Host-frontdoor_oauth=o2; app_b=2; "
     "__Host-frontdoor_social_pick=k1", "app_a=1; app_b=2"),
    ("__Host-frontdoor_session=h; app_a=1; frontdoor_session=S; __Host-frontdoor_accounts=t1", "app_a=1"),
    ("__Host-app=1; frontdoor_session=S; __host-frontdoor_x=1", "__Host-app=1; __host-frontdoor_x=1"),
    ("my_frontdoor_pref=1; frontdoor_session=S; note=frontdoor_session; Frontdoor_x=1",
     "my_frontdoor_pref=1; note=frontdoor_session; Frontdoor_x=1"),
]


@pytest.fixture(scope="module")
def boss_session(gate_stack):
    """A session token that passes both protected locations (the /admins/ rule lets @admins.test in)."""
    browser, email = signed_up(gate_stack, unique_email("Cookies").replace("@example.com", "@admins.test"))
    return browser.cookie("frontdoor_session"), email


@pytest.mark.parametrize("path", PROTECTED)
@pytest.mark.parametrize("sent, received", COOKIE_CASES)
def test_the_app_gets_its_own_cookies_but_none_of_frontdoors(gate_stack, boss_session, path, sent, received):
    # ASVS 3.4.5: the session cookie has Path=/ so the gate can read it, but the app behind must not be able to
    # read and replay it; nor the CSRF, language, accounts … cookies. Its own cookies arrive in order, unchanged.
    token, email = boss_session
    shown = Browser(gate_stack).get(origin(gate_stack) + path, headers={"Cookie": sent.replace("=S", "=" + token)})
    assert shown.status_code == 200 and f"Remote-Email={email}\n" in shown.text, "the gate still sees the session"
    assert cookie_seen_by_app(shown) == (received or "(none)")
    assert token not in shown.text and "frontdoor_session=" not in shown.text.replace("note=frontdoor_session", "")


@pytest.mark.parametrize("path", PROTECTED)
def test_more_runs_of_frontdoor_cookies_than_the_snippet_strips_send_the_app_no_cookies(gate_stack, boss_session, path):
    token, email = boss_session
    sent = "; ".join(f"app_{n}=1; frontdoor_junk{n}=1" for n in range(8)) + f"; frontdoor_session={token}"
    shown = Browser(gate_stack).get(origin(gate_stack) + path, headers={"Cookie": sent})
    assert shown.status_code == 200 and f"Remote-Email={email}\n" in shown.text
    assert cookie_seen_by_app(shown) == "(none)", "fails closed rather than let a frontdoor_ cookie through"


@pytest.mark.parametrize("path", PROTECTED)
def test_frontdoor_cookies_without_a_valid_session_still_meet_the_gate(gate_stack, path):
    # The stripping runs in `if` blocks: a request that enters them must still go through auth_request.
    sent = "app_a=1; frontdoor_session=forged; frontdoor_lang=de; frontdoor_accounts=x.y"
    anonymous = Browser(gate_stack).get(origin(gate_stack) + path, headers={"Cookie": sent})
    assert anonymous.status_code == 302 and "/account/sign_in?rd=" in anonymous.headers["Location"]
    assert "protected page" not in anonymous.text


def test_a_location_rule_lets_in_only_the_listed_people(gate_stack):
    stack = gate_stack
    page = origin(stack) + "/admins/panel"
    assert Browser(stack).get(page).status_code == 302
    outsider, _ = signed_up(stack)
    assert outsider.get(page).status_code == 403
    boss, _ = signed_up(stack, f"Boss-{unique_email()}".replace("@example.com", "@admins.test"))
    assert boss.get(page).status_code == 200
    assert outsider.get(origin(stack) + "/app/panel").status_code == 200, "the rule is for that location only"


def test_an_unconfirmed_address_meets_no_address_rule_and_is_not_passed_on(gate_stack):
    # Confirmation is off: sign-up signs in at once with an address nobody proved.
    stack = gate_stack
    browser, email = signed_up(stack, f"Squatter-{unique_email()}".replace("@example.com", "@admins.test"), confirm=False)
    [(username,)] = stack.query("SELECT a.username FROM account a JOIN emailAddress e ON e.accountId = a.id WHERE e.address = ?",
                                email)
    assert browser.get(origin(stack) + "/admins/panel").status_code == 403, "the rule names the address's domain"
    plain = browser.get(origin(stack) + "/app/panel")
    assert plain.status_code == 200 and f"Remote-User={username}\n" in plain.text and f"Remote-Name={username}\n" in plain.text
    assert "Remote-Email=None\n" in plain.text, "an address nobody proved is not passed on"
    check = browser.get("/auth/check")
    assert check.status_code == 200 and "Remote-Email" not in check.headers and check.headers["Remote-User"] == username

    confirmed(stack, browser, email)
    shown = browser.get(origin(stack) + "/admins/panel")
    assert shown.status_code == 200 and f"Remote-Email={email}\n" in shown.text
    assert browser.get("/auth/check").headers["Remote-Email"] == email


def test_the_check_answers_nginx_with_401_200_and_the_sign_in_location(gate_stack):
    # The route itself, as nginx's internal location calls it (also reachable directly: it tells only "signed in?").
    stack = gate_stack
    anonymous = Browser(stack).get("/auth/check")
    assert anonymous.status_code == 401
    assert anonymous.headers["Location"] == f"{origin(stack)}/account/sign_in"
    browser, email = signed_up(stack)
    ok = browser.get("/auth/check")
    assert ok.status_code == 200 and ok.headers["Remote-Email"] == email
    assert "frontdoor_csrf" not in ok.headers.get("Set-Cookie", ""), "the hot path sets no cookie"


@pytest.mark.parametrize("target", [
    "//evil.example/", "///evil.example/", "\\/evil.example/", "/\\evil.example/", "\\\\evil.example",
    "https:evil.example", "https:/evil.example", "http://evil.example/", "https://127.0.0.1.evil.example/",
    "https://127.0.0.1@evil.example/", "http://evil.example\\@127.0.0.1/", "http://evil.example%2F@127.0.0.1/",
    "%2F%2Fevil.example", "/%2F%2Fevil.example", "%252F%252Fevil.example", "/%5Cevil.example", "javascript:alert(1)",
    " //evil.example", "http://evil.example\t/", "http://app.test.evil.example/", "http://notpartner.test/",
])
def test_open_redirect_attempts_fall_back_to_the_home_page(gate_stack, target):
    stack = gate_stack
    browser, email = signed_up(stack)
    browser.post("/sign_out", {})
    response = browser.post("/sign_in", {"email": email, "password": PASSWORD, "rd": target})
    assert response.status_code == 303 and response.headers["Location"] == "/account/"
    # Already signed in, GET sign_in?rd= redirects straight away: the same check.
    again = browser.get("/sign_in?rd=" + quote(target, safe=""))
    assert again.status_code == 302 and again.headers["Location"] == "/account/"


@pytest.mark.parametrize("target", ["/account/sign_up", "http://app.test/welcome?a=1", "https://wiki.partner.test/x",
                                    "http://partner.test:8443/", "http://127.0.0.1:1/elsewhere"])
def test_allowed_return_targets_are_followed(gate_stack, target):
    browser, email = signed_up(gate_stack)
    browser.post("/sign_out", {})
    response = browser.post("/sign_in", {"email": email, "password": PASSWORD, "rd": target})
    assert response.status_code == 303 and response.headers["Location"] == target


def test_the_quick_start_snippet_protects_a_page_in_the_make_run_server(tmp_path, upstream):
    """scripts/run-dev (what `make run` starts) with the README's quick-start snippet saved in run/nginx/server.d/, as
    the README says."""
    (tmp_path / "run/nginx/server.d").mkdir(parents=True)
    (tmp_path / "run/nginx/server.d/app.conf").write_text(quick_start_snippet().replace("127.0.0.1:9000", f"127.0.0.1:{upstream}"))
    with make_run(tmp_path) as dev:
        base = dev.root
        browser = Browser(dev, base=dev.base)
        first = browser.get(base + "/app/hello")
        assert first.status_code == 302 and first.headers["Location"] == f"{base}/account/sign_in?rd={quote(base + '/app/hello', safe='')}"
        email = unique_email("dev")
        browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
        browser.get(outbox_link(dev, email, "/confirm?token="))
        back = browser.post("/sign_in", {"email": email, "password": PASSWORD, "rd": base + "/app/hello"})
        assert back.status_code == 303 and back.headers["Location"] == base + "/app/hello"
        page = browser.get(base + "/app/hello")
        assert page.status_code == 200 and f"Remote-Email={email}" in page.text
        assert browser.cookie("frontdoor_session") not in page.text and "frontdoor_" not in cookie_seen_by_app(page)
    assert dev.returncode == 0, "run-dev stops on Ctrl-C (its trap stops nginx too)"
