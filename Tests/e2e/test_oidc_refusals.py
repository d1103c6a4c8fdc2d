"""What Frontdoor's OpenID Connect provider refuses, seen from outside: a redirect URI that is not registered gets
an error page and never a redirect; a code verifier that does not match, a code used twice (and the tokens its
first use gave stop working), a code past its lifetime, a wrong client secret, `prompt=none` without a session
(`login_required` at the app), a client whose `allow` rule leaves the person out (`access_denied`), and a refresh
token used again after its rotation.
"""
import base64
import hashlib
from urllib.parse import urlsplit

import pytest
import requests

from http_client import REQUEST_TIMEOUT, Browser
from oidc import (Client, authlib_session, authorization_url, authorize, callback_uri, discovery, in_group,
                  new_person, oidc_stack, sign_in_with_authlib, token_request, userinfo)


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    clients = [Client("app", [callback_uri()], name="The app"),
               Client("staff-only", [callback_uri()], name="Staff tools", allow="group:staff", first_party=True)]
    yield from oidc_stack(tmp_path_factory, clients)


@pytest.fixture(scope="module")
def person(stack):
    return new_person(stack)


def code_for(stack, client, person, **params):
    """(session, code, verifier, state) of a fresh authorization the person allowed."""
    session = authlib_session(stack, client)
    url, state, nonce, verifier = authorization_url(stack, session, **params)
    outcome = authorize(person, url)
    assert outcome.location and "code" in outcome.query, outcome
    return session, outcome.query["code"], verifier, state


def redeem(stack, client, code, verifier, redirect_uri=None, auth="basic"):
    return token_request(stack, client, {"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
                                         "redirect_uri": redirect_uri or client.redirect_uri}, auth=auth)


def invalid_grant(answer):
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "invalid_grant", answer.text
    assert answer.headers.get("Cache-Control") == "no-store"


def test_an_unregistered_redirect_uri_gets_an_error_page_and_no_redirect(stack, person):
    client = stack.clients["app"]
    for wrong in ("http://127.0.0.1:1/elsewhere", client.redirect_uri + "/more", client.redirect_uri + "?x=1",
                  client.redirect_uri.replace("127.0.0.1", "localhost")):
        session = authlib_session(stack, client, redirect_uri=wrong)
        url, *_ = authorization_url(stack, session)
        answer = person.browser.get(url)
        assert answer.status_code == 400 and "Location" not in answer.headers, (wrong, answer.status_code)
        assert wrong not in answer.text, "the page does not offer a link to the unregistered URI"


def test_an_unknown_client_gets_an_error_page_and_no_redirect(stack, person):
    params = {"client_id": "nobody", "response_type": "code", "scope": "openid", "redirect_uri": callback_uri()}
    answer = person.browser.get(discovery(stack)["authorization_endpoint"], params=params)
    assert answer.status_code == 400 and "Location" not in answer.headers


def test_prompt_none_without_a_session_answers_login_required_at_the_app(stack):
    client = stack.clients["app"]
    session = authlib_session(stack, client)
    url, state, *_ = authorization_url(stack, session, prompt="none")
    answer = Browser(stack).get(url)
    assert answer.status_code in (302, 303), answer.text[:300]
    location = answer.headers["Location"]
    assert location.startswith(client.redirect_uri + "?")
    query = dict(part.split("=", 1) for part in urlsplit(location).query.split("&"))
    assert query["error"] == "login_required" and query["state"] == state and "code" not in query
