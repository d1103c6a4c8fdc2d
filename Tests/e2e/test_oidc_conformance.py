"""The OpenID Foundation's conformance test plans "Basic OP" (oidcc-basic-certification-test-plan) and "Config OP"
(oidcc-config-certification-test-plan), written as tests: the suite itself needs its own server, so each check of a
module is done here with Authlib's client and plain requests. Each test names the module(s) it stands for; the note
of issue 38 lists them. Static client, code flow, client_secret_basic unless the module says otherwise.
"""
import json
import time
from urllib.parse import urlencode, urlsplit

import pytest
import requests
from joserfc import jwt

from http_client import REQUEST_TIMEOUT, Browser
from oidc import (Client, authlib_session, authorization_url, authorize, callback_uri, discovery, form_with_action,
                  id_token_claims, key_set, new_person, oidc_stack, sign_in_with_authlib, token_request, userinfo)
from waits import wait_for

SCOPE = "openid profile email groups"


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    yield from oidc_stack(tmp_path_factory, [Client("rp", [callback_uri(), callback_uri("second")], name="Conformance RP",
                                                    first_party=True)])


@pytest.fixture(scope="module")
def client(stack):
    return stack.clients["rp"]


@pytest.fixture(scope="module")
def person(stack):
    return new_person(stack)


def flow(stack, client, person, scope=SCOPE, **params):
    return sign_in_with_authlib(stack, client, person, scope=scope, **params)


def redirected(stack, client, person, **params):
    """The authorization response for a request with `params` (Authlib builds it; None drops a parameter)."""
    session = authlib_session(stack, client, scope=params.pop("scope", SCOPE),
                              redirect_uri=params.pop("redirect_uri", client.redirect_uri) or client.redirect_uri)
    dropped = [name for name, value in params.items() if value is None] + \
        (["redirect_uri"] if params.pop("drop_redirect_uri", False) else [])
    url, state, nonce, verifier = authorization_url(stack, session, **{k: v for k, v in params.items() if v is not None})
    parts = urlsplit(url)
    query = [pair for pair in parts.query.split("&") if pair.split("=")[0] not in dropped]
    return authorize(person, parts._replace(query="&".join(query)).geturl()), state


# MARK: - Config OP


def test_discovery_endpoint_verification(stack):
    """oidcc-discovery-endpoint-verification: the required and recommended fields, with the values they must have."""
    metadata = discovery(stack)
    for field in ("issuer", "authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri",
                  "response_types_supported", "subject_types_supported", "id_token_signing_alg_values_supported",
                  "scopes_supported", "claims_supported", "token_endpoint_auth_methods_supported",
                  "end_session_endpoint", "grant_types_supported"):
        assert field in metadata, field
    assert metadata["response_types_supported"] == ["code"]
    assert "public" in metadata["subject_types_supported"]
    assert "RS256" in metadata["id_token_signing_alg_values_supported"]
    assert "none" not in metadata["id_token_signing_alg_values_supported"]
    assert {"openid", "profile", "email", "groups"} <= set(metadata["scopes_supported"])
    assert {"sub", "iss", "aud", "exp", "iat", "auth_time", "email", "email_verified", "name", "preferred_username",
            "groups", "acr", "amr", "sid"} <= set(metadata["claims_supported"])
    assert {"client_secret_basic", "client_secret_post"} <= set(metadata["token_endpoint_auth_methods_supported"])
    assert {"authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"} <= \
        set(metadata["grant_types_supported"])
    assert metadata["backchannel_logout_supported"] is True and metadata["backchannel_logout_session_supported"] is True
    assert metadata.get("authorization_response_iss_parameter_supported") is True
    answer = requests.get(stack.issuer + "/.well-known/openid-configuration", timeout=REQUEST_TIMEOUT)
    assert answer.headers["Content-Type"].startswith("application/json")


def test_the_issuer_is_the_discovery_urls_prefix_and_every_endpoint_is_under_it(stack):
    """oidcc-discovery-issuer-not-matching-config (the positive side), and OP-Discovery-Config: issuer byte for byte."""
    metadata = discovery(stack)
    assert metadata["issuer"] == stack.base and not metadata["issuer"].endswith("/")
    for name, value in metadata.items():
        if name.endswith("_endpoint") or name == "jwks_uri":
            assert value.startswith(metadata["issuer"] + "/"), name


def test_the_jwks_is_reachable_and_its_keys_are_public(stack):
    """OP-Discovery-JWKs: RSA keys with distinct kids, for signing, no private parts."""
    answer = requests.get(discovery(stack)["jwks_uri"], timeout=REQUEST_TIMEOUT)
    assert answer.status_code == 200 and answer.headers["Content-Type"].startswith("application/")
    keys = answer.json()["keys"]
    assert keys and len({key["kid"] for key in keys}) == len(keys)
    for key in keys:
        assert key["kty"] in ("RSA", "EC") and key.get("use", "sig") == "sig"
        assert not {"d", "p", "q", "dp", "dq", "qi"} & set(key), "no private key material"


# MARK: - Basic OP


def after_a_second_past(moment):
    wait_for(lambda: time.time() >= moment + 1.05, timeout=10, what="a second to pass")
