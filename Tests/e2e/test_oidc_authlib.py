"""Frontdoor's OpenID Connect provider driven by a real client library: Authlib's OAuth2Session (PyPI) as a web app
would use it. Discovery, the code flow with PKCE S256, nonce and state; the ID token checked with the published JWKS
(iss, aud, nonce, sub, auth_time, acr, sid); userinfo; refresh with rotation (the old token refused afterwards, and
its reuse ending the new one); introspection and revocation; RP-initiated logout back to the registered URI with the
state; back-channel logout tokens received on loopback and validated (oidc.BackChannelReceiver) when the person signs
out of Frontdoor; the device flow (RFC 8628) approved on the `device` page; a pushed authorization request (RFC 9126)
used at the authorization endpoint. One stack for the module; each test has its own person.
"""
import json
import time
from urllib.parse import parse_qsl, urlsplit

import pytest
import requests

from http_client import REQUEST_TIMEOUT
from test_cli import ok
from oidc import (BackChannelReceiver, Client, Forms, authlib_session, authorization_url, authorize, callback_uri,
                  discovery, id_token_claims, in_group, new_person, oidc_stack, sign_in_with_authlib, submit, token_request,
                  userinfo)

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


@pytest.fixture(scope="module")
def receiver():
    with BackChannelReceiver("authlib") as server:
        yield server


@pytest.fixture(scope="module")
def stack(tmp_path_factory, receiver):
    client = Client("authlib", [callback_uri()], name="Authlib app", post_logout_redirect_uris=[callback_uri("signed-out")],
                    backchannel_logout_uri=receiver.uri)
    for stack in oidc_stack(tmp_path_factory, [client], settings={"device_poll_interval": "1s"}):
        receiver.stack = stack
        yield stack


@pytest.fixture
def client(stack):
    return stack.clients["authlib"]


def test_discovery_names_the_issuer_and_every_endpoint(stack):
    metadata = discovery(stack)
    assert metadata["issuer"] == stack.issuer == stack.base
    for name, path in (("authorization_endpoint", "/oidc/authorize"), ("token_endpoint", "/oidc/token"),
                       ("userinfo_endpoint", "/oidc/userinfo"), ("jwks_uri", "/oidc/jwks"),
                       ("end_session_endpoint", "/oidc/logout"), ("introspection_endpoint", "/oidc/introspect"),
                       ("revocation_endpoint", "/oidc/revoke"), ("device_authorization_endpoint", "/oidc/device_authorization"),
                       ("pushed_authorization_request_endpoint", "/oidc/par")):
        assert metadata[name] == stack.issuer + path, name
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert metadata["response_types_supported"] == ["code"]


def test_code_flow_with_pkce_gives_an_id_token_the_jwks_checks_and_userinfo(stack, client):
    person = new_person(stack)
    person.set_display_name("Ann Example")
    in_group(stack, person, "readers")
    before = int(time.time())
    done = sign_in_with_authlib(stack, client, person)
    assert done.outcome.consented, "the first sign-in to an app asks for consent"
    claims = done.claims
    assert claims["auth_time"] <= before + 5 and claims["auth_time"] >= before - 120
    assert claims["acr"] == "urn:frontdoor:1fa"
    assert claims["sid"] and claims["sub"]
    assert done.token["token_type"].lower() == "bearer" and done.token["expires_in"] > 0 and done.token["refresh_token"]

    answer = done.session.get(discovery(stack)["userinfo_endpoint"], timeout=REQUEST_TIMEOUT)
    assert answer.status_code == 200, answer.text
    info = answer.json()
    assert info["sub"] == claims["sub"]
    assert info["email"] == person.email and info["email_verified"] in (True, False)
    assert info["preferred_username"] == person.username
    assert info["name"] == "Ann Example" and info["groups"] == ["readers"]

    again = sign_in_with_authlib(stack, client, person)
    assert not again.outcome.consented, "consent is asked once per app and scope set"
    assert again.claims["sub"] == claims["sub"] and again.claims["sid"] == claims["sid"]


def test_refresh_rotates_and_the_old_token_used_again_ends_the_new_one(stack, client):
    person = new_person(stack)
    done = sign_in_with_authlib(stack, client, person)
    first = done.token["refresh_token"]
    rotated = done.session.refresh_token(discovery(stack)["token_endpoint"], refresh_token=first)
    assert rotated["refresh_token"] != first and rotated["access_token"] != done.token["access_token"]
    assert userinfo(stack, rotated["access_token"]).status_code == 200
    if "id_token" in rotated:
        assert id_token_claims(stack, client, rotated["id_token"])["sub"] == done.claims["sub"]

    reused = token_request(stack, client, {"grant_type": "refresh_token", "refresh_token": first})
    assert reused.status_code == 400 and reused.json()["error"] == "invalid_grant"
    after = token_request(stack, client, {"grant_type": "refresh_token", "refresh_token": rotated["refresh_token"]})
    assert after.status_code == 400 and after.json()["error"] == "invalid_grant", "a reuse ends the whole grant"
    assert userinfo(stack, rotated["access_token"]).status_code == 401


def test_introspection_and_revocation(stack, client):
    person = new_person(stack)
    done = sign_in_with_authlib(stack, client, person)
    endpoint = discovery(stack)
    access, refresh = done.token["access_token"], done.token["refresh_token"]

    answer = done.session.introspect_token(endpoint["introspection_endpoint"], token=access)
    assert answer.status_code == 200
    facts = answer.json()
    assert facts["active"] is True and facts["client_id"] == client.id and facts["sub"] == done.claims["sub"]
    assert "openid" in facts["scope"].split() and facts["exp"] > time.time()
    assert done.session.introspect_token(endpoint["introspection_endpoint"], token="not-a-token").json() == {"active": False}

    assert done.session.revoke_token(endpoint["revocation_endpoint"], token=access).status_code == 200
    assert done.session.introspect_token(endpoint["introspection_endpoint"], token=access).json() == {"active": False}
    assert userinfo(stack, access).status_code == 401

    assert done.session.introspect_token(endpoint["introspection_endpoint"], token=refresh,
                                         token_type_hint="refresh_token").json()["active"] is True
    assert done.session.revoke_token(endpoint["revocation_endpoint"], token=refresh,
                                     token_type_hint="refresh_token").status_code == 200
    refused = token_request(stack, client, {"grant_type": "refresh_token", "refresh_token": refresh})
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_grant"


def test_rp_initiated_logout_returns_with_the_state_and_the_app_hears_it_on_the_back_channel(stack, client, receiver):
    person = new_person(stack)
    done = sign_in_with_authlib(stack, client, person)
    back = client.post_logout_redirect_uris[0]
    answer = person.browser.get(discovery(stack)["end_session_endpoint"],
                                params={"id_token_hint": done.token["id_token"], "post_logout_redirect_uri": back,
                                        "state": "after-logout-42"})
    assert answer.status_code in (302, 303) and answer.headers["Location"] == f"{back}?state=after-logout-42"
    assert person.browser.get("/settings").status_code in (302, 303), "signed out of Frontdoor"

    logout = receiver.wait_for_logout(done.claims["sid"])
    assert logout["sub"] == done.claims["sub"]
    refused = token_request(stack, client, {"grant_type": "refresh_token", "refresh_token": done.token["refresh_token"]})
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_grant"


def test_signing_out_of_frontdoor_sends_a_valid_logout_token_and_ends_the_refresh_token(stack, client, receiver):
    person = new_person(stack)
    done = sign_in_with_authlib(stack, client, person)
    person.sign_out()
    logout = receiver.wait_for_logout(done.claims["sid"])
    assert logout["aud"] in (client.id, [client.id]) and logout["iss"] == stack.issuer
    assert not [error for _, error in receiver.received if error], receiver.received
    refused = token_request(stack, client, {"grant_type": "refresh_token", "refresh_token": done.token["refresh_token"]})
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_grant"


def start_device(stack, client):
    answer = token_request(stack, client, {"scope": "openid profile email",
                                           "_endpoint": discovery(stack)["device_authorization_endpoint"]})
    assert answer.status_code == 200, answer.text
    start = answer.json()
    assert start["verification_uri"] == stack.base + "/device"
    assert len(start["user_code"].replace("-", "")) == 8 and start["expires_in"] > 0 and start["interval"] >= 1
    return start


def poll(stack, client, start):
    return token_request(stack, client, {"grant_type": DEVICE_GRANT, "device_code": start["device_code"]})


def approve_on_the_device_page(person, user_code):
    """The person types the code on the `device` page, then approves what the device asked for."""
    page = person.browser.get("/device")
    assert page.status_code == 200, page.text[:300]
    form = next(form for form in Forms(page.text).forms if form["action"].rstrip("/").endswith("device"))
    field = next(name for name in form["fields"] if "code" in name)
    page = submit(person.browser, page, form, extra={field: user_code})
    for _ in range(3):   # a confirmation page, then the answer (followed while it redirects)
        if page.status_code in (302, 303):
            page = person.browser.get(page.headers["Location"])
            continue
        forms = [form for form in Forms(page.text).forms if "device" in form["action"]]
        buttons = [b for form in forms for b in form["buttons"] if any("approve" in part.lower() or "allow" in part.lower()
                                                                          for part in b)]
        if not buttons:
            return page
        form = next(form for form in forms if any(b in form["buttons"] for b in buttons))
        page = submit(person.browser, page, form, "approve" if "approve" in str(buttons).lower() else "allow")
    return page


def test_the_device_flow_is_approved_on_the_device_page(stack, client):
    person = new_person(stack)
    start = start_device(stack, client)
    pending = poll(stack, client, start)
    assert pending.status_code == 400 and pending.json()["error"] in ("authorization_pending", "slow_down")

    approve_on_the_device_page(person, start["user_code"])
    deadline = time.monotonic() + 30
    interval = start["interval"]
    while True:   # the device waits `interval` between polls, and 5 s more after slow_down (RFC 8628 3.5)
        time.sleep(interval)
        answer = poll(stack, client, start)
        if answer.status_code == 200 or time.monotonic() > deadline:
            break
        assert answer.json()["error"] in ("authorization_pending", "slow_down"), answer.text
        if answer.json()["error"] == "slow_down":
            interval += 5
    assert answer.status_code == 200, answer.text
    tokens = answer.json()
    claims = id_token_claims(stack, client, tokens["id_token"])
    assert userinfo(stack, tokens["access_token"]).json()["email"] == person.email
    assert claims["sub"] == userinfo(stack, tokens["access_token"]).json()["sub"]
    again = poll(stack, client, start)
    assert again.status_code == 400 and again.json()["error"] in ("invalid_grant", "expired_token"), "tokens once"


def test_polling_faster_than_the_interval_is_told_to_slow_down(stack, client):
    start = start_device(stack, client)
    errors = [poll(stack, client, start).json()["error"] for _ in range(3)]
    assert "slow_down" in errors and set(errors) <= {"authorization_pending", "slow_down"}, errors


def test_a_pushed_authorization_request_is_used_at_the_authorization_endpoint_once(stack, client):
    person = new_person(stack)
    session = authlib_session(stack, client)
    url, state, nonce, verifier = authorization_url(stack, session)
    parameters = dict(parse_qsl(urlsplit(url).query))
    pushed = token_request(stack, client, {**parameters, "_endpoint": discovery(stack)["pushed_authorization_request_endpoint"]})
    assert pushed.status_code == 201, pushed.text
    request_uri = pushed.json()["request_uri"]
    assert request_uri.startswith("urn:ietf:params:oauth:request_uri:") and pushed.json()["expires_in"] > 0

    short = requests.Request("GET", discovery(stack)["authorization_endpoint"],
                             params={"client_id": client.id, "request_uri": request_uri}).prepare().url
    outcome = authorize(person, short)
    assert outcome.location and outcome.query["state"] == state, outcome
    token = session.fetch_token(discovery(stack)["token_endpoint"], authorization_response=outcome.location,
                                code_verifier=verifier, state=state)
    assert id_token_claims(stack, client, token["id_token"], nonce=nonce)

    again = authorize(person, short)
    assert again.location is None or "code" not in again.query, "a request_uri works once"


def test_the_operator_sees_the_apps_a_person_allowed(stack, client):
    """`frontdoor user show` lists the apps the account allowed (the consent's client and scopes), in text and JSON."""
    person = new_person(stack)
    assert "apps          none" in ok(stack, "user", "show", person.email)
    sign_in_with_authlib(stack, client, person, scope="openid email")
    assert "apps          authlib (email openid)" in ok(stack, "user", "show", person.email)
    shown = json.loads(ok(stack, "user", "show", person.email, "--json"))
    assert [(app["client"], app["scopes"]) for app in shown["connectedApps"]] == [("authlib", ["email", "openid"])]

