"""The recipes of docs/recipes.md, tested where they can be without the apps: each nginx location of nginx/recipes/ is
put into a real nginx with Frontdoor's gate, in front of a loopback stand-in for the app (an echo app for Grafana and
Gitea, an echo CGI under fcgiwrap for ikiwiki). The stand-in receives exactly the headers the recipe's app settings
name, once each, with the signed-in person's values, whatever the client sent under those names; from an address the
app's settings trust; and nothing at all for a visitor who is not signed in."""
import base64
import ipaddress
import json

import pytest
import requests
from flask import Response, request

from fakeserver import FakeServer
from recipes import (Fcgiwrap, confirmed_person, expected_groups, expected_name, expected_user, new_address,
                     recipe_location, recipe_section, recipe_settings)
from stack import ROOT, new_stack

INTRUDER = "intruder"
ECHO_CGI = """#!/bin/sh
# What a CGI program receives: every environment variable as JSON lines of [name, value] (repeats shown).
printf 'Content-Type: text/plain\\n\\n'
env -0 | python3 -c 'import json, sys; [print(json.dumps(e.split("=", 1))) for e in sys.stdin.read().split("\\0") if e]'
"""


class EchoApp(FakeServer):
    """The app's stand-in: answers with the request's headers (every one, repeats kept), client address and path."""

    def __init__(self):
        super().__init__("recipe_echo")
        self.seen = []

        @self.app.route("/", defaults={"path": ""})
        @self.app.route("/<path:path>")
        def echo(path):
            self.seen.append(request.path)
            body = {"headers": [[name, value] for name, value in request.headers.items()],
                    "client": request.remote_addr, "path": request.path}
            return Response(json.dumps(body), 200, content_type="application/json")


@pytest.fixture(scope="module")
def echo_app():
    with EchoApp() as server:
        yield server


def server_files(port, wiki_folder, fcgi_socket):
    def files(stack):
        # docs/recipes.md "Before you start": the gate copied under another name with a rule, the protect snippet
        # copied to point at it, and the Grafana location including that copy (here at /team/).
        snippets = stack.folder / "nginx/snippets"
        team_gate = (snippets / "frontdoor-gate.conf").read_text().replace(
            "location = /internal/frontdoor/check {",
            'location = /internal/frontdoor/check-team {\n    fastcgi_param FRONTDOOR_ALLOW "@team.test";')
        protect = (snippets / "frontdoor-protect.conf").read_text()
        assert protect.count("auth_request /internal/frontdoor/check;") == 1
        (snippets / "frontdoor-protect-team.conf").write_text(
            protect.replace("auth_request /internal/frontdoor/check;", "auth_request /internal/frontdoor/check-team;"))
        team = recipe_location("grafana", {"127.0.0.1:3000": f"127.0.0.1:{port}", "location /grafana/ {": "location /team/ {",
                                           "snippets/frontdoor-protect.conf": "snippets/frontdoor-protect-team.conf"})
        return {
            "team.conf": team_gate + "\n" + team,
            "grafana.conf": recipe_location("grafana", {"127.0.0.1:3000": f"127.0.0.1:{port}"}),
            "gitea.conf": recipe_location("gitea", {"127.0.0.1:3000": f"127.0.0.1:{port}"}),
            "ikiwiki.conf": recipe_location("ikiwiki", {"/var/www/wiki": str(wiki_folder),
                                                        "unix:/run/fcgiwrap.socket": f"unix:{fcgi_socket}"}),
        }
    return files


@pytest.fixture(scope="module")
def recipe_stack(tmp_path_factory, request, echo_app):
    wiki = tmp_path_factory.mktemp("wiki")
    (wiki / "index.html").write_text("the wiki's front page\n")
    (wiki / "ikiwiki.cgi").write_text(ECHO_CGI)
    (wiki / "ikiwiki.cgi").chmod(0o755)
    fcgiwrap = Fcgiwrap(tmp_path_factory.mktemp("fcgiwrap"))
    try:
        yield from new_stack(tmp_path_factory, request, {"mail.transport": "outbox"},
                             server_files(echo_app.port, wiki, fcgiwrap.socket))
    finally:
        fcgiwrap.stop()


def grafana_headers(settings):
    """{header name: what it carries} from grafana.ini's [auth.proxy]: header_name, and each `Attribute:Header` of
    `headers` (Grafana splits the list at spaces or commas)."""
    proxy = settings["auth.proxy"]
    assert proxy["enabled"] == "true" and proxy["header_property"] == "username" and proxy["auto_sign_up"] == "true"
    named = {proxy["header_name"]: "User"}
    for pair in proxy["headers"].replace(",", " ").split():
        attribute, header = pair.split(":", 1)
        named[header] = attribute
    return named


def gitea_headers(settings):
    """{header name: what it carries} from app.ini's [security] REVERSE_PROXY_AUTHENTICATION_* (with [service] turning
    reverse-proxy authentication, its registration, e-mail and full name on)."""
    service, security = settings["service"], settings["security"]
    for key in ("ENABLE_REVERSE_PROXY_AUTHENTICATION", "ENABLE_REVERSE_PROXY_AUTO_REGISTRATION", "ENABLE_REVERSE_PROXY_EMAIL",
                "ENABLE_REVERSE_PROXY_FULL_NAME"):
        assert service[key] == "true", key
    return {security["REVERSE_PROXY_AUTHENTICATION_USER"]: "User", security["REVERSE_PROXY_AUTHENTICATION_EMAIL"]: "Email",
            security["REVERSE_PROXY_AUTHENTICATION_FULL_NAME"]: "Name"}


def trusted(client, networks):
    """Whether `client` is inside one of `networks` (addresses or CIDR ranges, comma-separated)."""
    return any(ipaddress.ip_address(client) in ipaddress.ip_network(net.strip(), strict=False) for net in networks.split(","))


def person_values(stack, email):
    return {"User": expected_user(stack, email), "Email": email, "Name": expected_name(stack, email),
            "Groups": expected_groups(stack, email)}


@pytest.mark.parametrize("app", ["Grafana", "Gitea"])
def test_the_app_gets_exactly_the_headers_its_settings_name_with_the_signed_in_person(recipe_stack, echo_app, app):
    stack = recipe_stack
    settings = recipe_settings(app)
    named = grafana_headers(settings) if app == "Grafana" else gitea_headers(settings)
    path = "/grafana/d/home" if app == "Grafana" else "/git/explore/repos"
    assert path.split("/")[1] in recipe_section(app) and f"location /{path.split('/')[1]}/ {{" in recipe_section(app)
    browser, email = confirmed_person(stack)
    values = person_values(stack, email)
    # A client that sends every one of those headers itself, and a name in Basic authentication.
    forged = {header: INTRUDER for header in named}
    forged["Authorization"] = "Basic " + base64.b64encode(f"{INTRUDER}:x".encode()).decode()

    answer = browser.get(f"http://127.0.0.1:{stack.port}{path}", headers=forged)

    assert answer.status_code == 200, answer.text
    seen = answer.json()
    for header, attribute in named.items():
        received = [value for name, value in seen["headers"] if name.lower() == header.lower()]
        want = values[attribute]
        assert received == ([want] if want else []), f"{app} setting names {header} ({attribute}): it received {received}"
    assert INTRUDER not in json.dumps([v for n, v in seen["headers"] if n.lower() != "authorization"])
    assert not [value for name, value in seen["headers"] if name.lower() == "cookie" and "frontdoor_" in value]
    networks = settings["auth.proxy"]["whitelist"] if app == "Grafana" else settings["security"]["REVERSE_PROXY_TRUSTED_PROXIES"]
    assert trusted(seen["client"], networks), f"{seen['client']} is not in the addresses {app} trusts ({networks})"
    assert seen["path"] == (path if app == "Grafana" else path.removeprefix("/git"))


@pytest.mark.parametrize("path", ["/grafana/", "/git/", "/wiki/", "/wiki/ikiwiki.cgi?do=prefs"])
def test_a_visitor_not_signed_in_is_sent_to_sign_in_and_the_app_sees_nothing(recipe_stack, echo_app, path):
    stack = recipe_stack
    before = list(echo_app.seen)
    answer = requests.get(f"http://127.0.0.1:{stack.port}{path}", headers={"Remote-User": INTRUDER}, allow_redirects=False,
                          timeout=60)
    assert answer.status_code == 302 and "/account/sign_in?rd=" in answer.headers["Location"]
    assert INTRUDER not in answer.text and echo_app.seen == before


def test_the_wiki_cgi_gets_the_signed_in_person_as_remote_user_whatever_the_client_sent(recipe_stack):
    stack = recipe_stack
    browser, email = confirmed_person(stack)
    forged = {"Remote-User": INTRUDER, "Authorization": "Basic " + base64.b64encode(f"{INTRUDER}:x".encode()).decode()}
    browser.session.cookies.set("ikiwiki_session_wiki", "abc")   # the wiki's own cookie goes through, Frontdoor's not

    answer = browser.get(f"http://127.0.0.1:{stack.port}/wiki/ikiwiki.cgi?do=prefs", headers=forged)

    assert answer.status_code == 200, answer.text
    variables = [json.loads(line) for line in answer.text.splitlines() if line.startswith("[")]
    remote_user = [value for name, value in variables if name == "REMOTE_USER"]
    assert remote_user == [expected_user(stack, email)]
    assert [value for name, value in variables if name == "HTTP_REMOTE_USER"] == [expected_user(stack, email)]
    cookie = [value for name, value in variables if name == "HTTP_COOKIE"]
    assert len(cookie) == 1 and "frontdoor_" not in cookie[0] and "ikiwiki_session_wiki=abc" in cookie[0]
    assert INTRUDER not in answer.text
    page = browser.get(f"http://127.0.0.1:{stack.port}/wiki/")
    assert page.status_code == 200 and page.text == "the wiki's front page\n"


def test_the_docs_show_each_recipe_location_as_it_is_in_nginx_recipes():
    for name, heading in (("grafana", "Grafana"), ("gitea", "Gitea"), ("ikiwiki", "ikiwiki")):
        location = (ROOT / "nginx/recipes" / f"{name}.conf").read_text()
        blocks = [block for block in recipe_section(heading).split("```nginx\n")[1:]]
        assert any(block.split("```", 1)[0] == location for block in blocks), f"docs/recipes.md's {heading} location differs from nginx/recipes/{name}.conf"


def test_a_rule_on_the_apps_gate_keeps_out_whoever_it_does_not_name(recipe_stack, echo_app):
    """The way "Before you start" closes an app to people outside the team while sign-up stays open."""
    stack = recipe_stack
    outsider, _ = confirmed_person(stack)
    before = list(echo_app.seen)
    assert outsider.get(f"http://127.0.0.1:{stack.port}/team/d/home").status_code == 403
    assert echo_app.seen == before
    member, email = confirmed_person(stack, new_address().replace("@example.com", "@team.test"))
    answer = member.get(f"http://127.0.0.1:{stack.port}/team/d/home")
    assert answer.status_code == 200 and ["Remote-User", expected_user(stack, email)] in answer.json()["headers"]
