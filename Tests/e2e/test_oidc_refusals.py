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


def test_a_code_verifier_that_does_not_match_is_refused(stack, person):
    client = stack.clients["app"]
    _, code, verifier, _ = code_for(stack, client, person)
    invalid_grant(redeem(stack, client, code, verifier[:-1] + ("A" if verifier[-1] != "A" else "B")))
    invalid_grant(redeem(stack, client, code, None))


def test_a_code_used_twice_is_refused_and_the_tokens_of_its_first_use_stop_working(stack, person):
    client = stack.clients["app"]
    _, code, verifier, _ = code_for(stack, client, person)
    first = redeem(stack, client, code, verifier)
    assert first.status_code == 200, first.text
    tokens = first.json()
    assert userinfo(stack, tokens["access_token"]).status_code == 200
    invalid_grant(redeem(stack, client, code, verifier))
    assert userinfo(stack, tokens["access_token"]).status_code == 401
    invalid_grant(token_request(stack, client, {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]}))


def test_a_code_is_refused_to_another_redirect_uri_and_another_client(stack, person):
    client, other = stack.clients["app"], stack.clients["staff-only"]
    _, code, verifier, _ = code_for(stack, client, person)
    invalid_grant(redeem(stack, client, code, verifier, redirect_uri=other.redirect_uri))
    _, code, verifier, _ = code_for(stack, client, person)
    invalid_grant(token_request(stack, other, {"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
                                               "redirect_uri": client.redirect_uri}))


def test_a_wrong_client_secret_is_refused_with_401(stack, person):
    client = stack.clients["app"]
    _, code, verifier, _ = code_for(stack, client, person)
    data = {"grant_type": "authorization_code", "code": code, "code_verifier": verifier, "redirect_uri": client.redirect_uri}
    url = discovery(stack)["token_endpoint"]
    basic = requests.post(url, data=data, auth=(client.id, client.secret + "x"), timeout=REQUEST_TIMEOUT)
    assert basic.status_code == 401 and basic.json()["error"] == "invalid_client"
    assert basic.headers.get("WWW-Authenticate", "").lower().startswith("basic")
    posted = requests.post(url, data={**data, "client_id": client.id, "client_secret": "wrong"}, timeout=REQUEST_TIMEOUT)
    assert posted.status_code == 401 and posted.json()["error"] == "invalid_client"
    none = requests.post(url, data={**data, "client_id": client.id}, timeout=REQUEST_TIMEOUT)
    assert none.status_code == 401 and none.json()["error"] == "invalid_client", "a confidential client needs its secret"
    assert redeem(stack, client, code, verifier).status_code == 200, "the refusals did not use the code up"


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


def test_a_client_whose_rule_leaves_the_person_out_answers_access_denied(stack):
    client = stack.clients["staff-only"]
    outsider = new_person(stack)
    session = authlib_session(stack, client)
    url, state, *_ = authorization_url(stack, session)
    outcome = authorize(outsider, url)
    assert outcome.location and outcome.location.startswith(client.redirect_uri), outcome
    assert outcome.query["error"] == "access_denied" and outcome.query["state"] == state and "code" not in outcome.query

    in_group(stack, outsider, "staff")
    assert sign_in_with_authlib(stack, client, outsider).claims["sub"], "a member of the group gets in"


def test_a_refresh_token_used_again_after_its_rotation_is_refused(stack, person):
    client = stack.clients["app"]
    done = sign_in_with_authlib(stack, client, person)
    old = done.token["refresh_token"]
    rotated = token_request(stack, client, {"grant_type": "refresh_token", "refresh_token": old})
    assert rotated.status_code == 200, rotated.text
    invalid_grant(token_request(stack, client, {"grant_type": "refresh_token", "refresh_token": old}))
    invalid_grant(token_request(stack, client, {"grant_type": "refresh_token", "refresh_token": rotated.json()["refresh_token"]}))


def test_a_code_past_its_lifetime_is_refused(stack, person):
    """oidc.code_lifetime is 10 s at the least: the test moves this code's expiry to before now in the database
    instead of waiting (the row is found by the SHA-256 of the code's 32 bytes, which is all Frontdoor keeps)."""
    client = stack.clients["app"]
    _, code, verifier, _ = code_for(stack, client, person)
    digest = hashlib.sha256(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))).digest()
    stack.query("UPDATE openIDCode SET expiresAt = createdAt - 1 WHERE digest = ?", digest)
    invalid_grant(redeem(stack, client, code, verifier))
    _, fresh, verifier, _ = code_for(stack, client, person)
    assert redeem(stack, client, fresh, verifier).status_code == 200, "a code within its lifetime works"
