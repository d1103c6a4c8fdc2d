"""Frontdoor's OpenID Connect provider driven by a real client library: Authlib's OAuth2Session (PyPI) as a web app
would use it. Discovery, the code flow with PKCE S256, nonce and state; the ID token checked with the published JWKS
(iss, aud, nonce, sub, auth_time, acr, sid); userinfo; refresh with rotation (the old token refused afterwards, and
its reuse ending the new one); introspection and revocation; RP-initiated logout back to the registered URI with the
state; back-channel logout tokens received on loopback and validated (oidc.BackChannelReceiver) when the person signs
out of Frontdoor; the device flow (RFC 8628) approved on the `device` page; a pushed authorization request (RFC 9126)
used at the authorization endpoint. One stack for the module; each test has its own person.
"""
import time
from urllib.parse import parse_qsl, urlsplit

import pytest
import requests

from http_client import REQUEST_TIMEOUT
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
