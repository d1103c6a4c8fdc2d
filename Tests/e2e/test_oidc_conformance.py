"""The OpenID Foundation's conformance test plans "Basic OP" (oidcc-basic-certification-test-plan) and "Config OP"
(oidcc-config-certification-test-plan), written as tests: the suite itself needs its own server, so each check of a
module is done here with Authlib's client and plain requests. Each test names the module(s) it stands for (what is
not covered, and why, is in docs/openid-connect.md's conformance paragraph). Static client, code flow, client_secret_basic unless the module says otherwise.
"""
import json
import time
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

import pytest
import requests
from joserfc import jwt

from hosts import run_cli
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
    someone = new_person(stack)
    someone.set_display_name("Ann Example")
    return someone


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


def test_id_tokens_are_signed_rs256_by_a_published_key(stack, client, person):
    """oidcc-server's signature check: the header names RS256 and the kid of a key in the JWKS."""
    token = flow(stack, client, person).token["id_token"]
    header = jwt.decode(token, key_set(stack)).header
    keys = requests.get(discovery(stack)["jwks_uri"], timeout=REQUEST_TIMEOUT).json()["keys"]
    assert header["alg"] == "RS256" and header["kid"] in {key["kid"] for key in keys}


# MARK: - Basic OP


def test_server(stack, client, person):
    """oidcc-server: the code flow; the ID token has iss, sub, aud, exp, iat, auth_time, the nonce; state echoed,
    and the authorization response names the issuer (RFC 9207: iss)."""
    done = flow(stack, client, person)
    assert done.outcome.query["iss"] == stack.issuer
    claims = done.claims
    for name in ("iss", "sub", "aud", "exp", "iat", "auth_time", "nonce"):
        assert name in claims, name
    assert claims["exp"] > claims["iat"]


def test_ensure_request_without_nonce_succeeds_for_code_flow(stack, client, person):
    """oidcc-ensure-request-without-nonce-succeeds-for-code-flow."""
    outcome, state = redirected(stack, client, person, nonce=None)
    assert "code" in outcome.query and outcome.query["state"] == state


def test_response_type_missing(stack, client, person):
    """oidcc-response-type-missing: an error (at the app with invalid_request, or on a page), never a code."""
    outcome, state = redirected(stack, client, person, response_type=None)
    if outcome.location:
        assert outcome.query["error"] in ("invalid_request", "unsupported_response_type") and "code" not in outcome.query
    else:
        assert outcome.response.status_code == 400


def test_userinfo_get_and_post_with_the_header(stack, client, person):
    """oidcc-userinfo-get, oidcc-userinfo-post-header: the same claims, the ID token's sub."""
    done = flow(stack, client, person)
    header = {"Authorization": f"Bearer {done.token['access_token']}"}
    url = discovery(stack)["userinfo_endpoint"]
    got = requests.get(url, headers=header, timeout=REQUEST_TIMEOUT)
    posted = requests.post(url, headers=header, timeout=REQUEST_TIMEOUT)
    assert got.status_code == posted.status_code == 200
    assert got.json() == posted.json() and got.json()["sub"] == done.claims["sub"]
    assert requests.get(url, timeout=REQUEST_TIMEOUT).status_code == 401


@pytest.mark.parametrize("scope, claims", [("openid profile", {"name", "preferred_username"}),
                                           ("openid email", {"email", "email_verified"}),
                                           ("openid groups", {"groups"}),
                                           ("openid profile email address phone", {"name", "email"})],
                         ids=["profile", "email", "groups", "all"])
def test_scope_claims_in_userinfo(stack, client, person, scope, claims):
    """oidcc-scope-profile, oidcc-scope-email, oidcc-scope-all (address and phone, not offered, are ignored, as
    scopes a provider does not know must be); and nothing beyond the scopes asked for."""
    done = flow(stack, client, person, scope=scope)
    info = userinfo(stack, done.token["access_token"]).json()
    assert claims <= set(info), info
    asked = set(scope.split())
    if "email" not in asked:
        assert "email" not in info and "email" not in done.claims
    if "groups" not in asked:
        assert "groups" not in info


def test_ensure_other_scope_order_succeeds(stack, client, person):
    """oidcc-ensure-other-scope-order-succeeds."""
    done = flow(stack, client, person, scope="email openid")
    assert "email" in userinfo(stack, done.token["access_token"]).json()


@pytest.mark.parametrize("params", [{"display": "page"}, {"display": "popup"}, {"ui_locales": "fr-CA fr en"},
                                    {"claims_locales": "de en"}, {"unknown_parameter": "ignored"},
                                    {"acr_values": "1 2"},
                                    {"claims": json.dumps({"userinfo": {"name": {"essential": True}},
                                                           "id_token": {"email": {"essential": True}}})}],
                         ids=["display-page", "display-popup", "ui-locales", "claims-locales", "unknown-parameter",
                              "acr-values", "claims-essential"])
def test_requests_with_optional_parameters_succeed(stack, client, person, params):
    """oidcc-display-page, oidcc-display-popup, oidcc-ui-locales, oidcc-claims-locales,
    oidcc-ensure-request-with-unknown-parameter-succeeds, oidcc-ensure-request-with-acr-values-succeeds,
    oidcc-claims-essential."""
    assert flow(stack, client, person, **params).claims["sub"]


def test_prompt_none_when_signed_in_answers_at_once(stack, client, person):
    """oidcc-prompt-none-logged-in: no page, a code."""
    done = flow(stack, client, person, prompt="none")
    assert not done.outcome.signed_in and not done.outcome.consented


def test_prompt_none_when_signed_out(stack, client):
    """oidcc-prompt-none-not-logged-in: login_required (or interaction_required) at the app, with the state."""
    stranger = new_person(stack, signed_in=False)
    outcome, state = redirected(stack, client, stranger, prompt="none")
    assert outcome.location and outcome.query["error"] in ("login_required", "interaction_required")
    assert outcome.query["state"] == state and not outcome.signed_in


def after_a_second_past(auth_time):
    """Waits until more than a second has passed since `auth_time` (whole seconds, so the sign-in itself may have
    been up to a second later)."""
    wait_for(lambda: time.time() >= auth_time + 2.05, timeout=10, what="a second to pass since the sign-in")


def test_prompt_login_asks_again_and_gives_a_newer_auth_time(stack, client):
    """oidcc-prompt-login."""
    someone = new_person(stack)
    first = flow(stack, client, someone)
    after_a_second_past(first.claims["auth_time"])
    again = flow(stack, client, someone, prompt="login")
    assert again.outcome.signed_in, "the sign-in page was shown although a session existed"
    assert again.claims["auth_time"] > first.claims["auth_time"] and again.claims["sub"] == first.claims["sub"]


def test_max_age_1_asks_again_after_a_second(stack, client):
    """oidcc-max-age-1: auth_time present and newer, the person asked to sign in again."""
    someone = new_person(stack)
    first = flow(stack, client, someone)
    after_a_second_past(first.claims["auth_time"])
    again = flow(stack, client, someone, max_age="1")
    assert again.outcome.signed_in and again.claims["auth_time"] > first.claims["auth_time"]


def test_max_age_10000_does_not_ask_again(stack, client, person):
    """oidcc-max-age-10000: auth_time present, no sign-in page."""
    first = flow(stack, client, person)
    again = flow(stack, client, person, max_age="10000")
    assert not again.outcome.signed_in and again.claims["auth_time"] == first.claims["auth_time"]


def test_id_token_hint(stack, client, person):
    """oidcc-id-token-hint: prompt=none with the ID token of an earlier sign-in gives the same sub."""
    first = flow(stack, client, person)
    again = flow(stack, client, person, prompt="none", id_token_hint=first.token["id_token"])
    assert again.claims["sub"] == first.claims["sub"]


def test_login_hint_fills_in_the_address(stack, client):
    """oidcc-login-hint: the sign-in page has the hinted address filled in, and the flow succeeds."""
    someone = new_person(stack, signed_in=False)
    session = authlib_session(stack, client)
    url, *_ = authorization_url(stack, session, login_hint=someone.email)
    answer = someone.browser.get(url)
    while answer.status_code in (302, 303):
        answer = someone.browser.get(urljoin(answer.url, answer.headers["Location"]))
    form = form_with_action(answer, "/sign_in")
    assert form and form["fields"].get("email") == someone.email
    assert flow(stack, client, someone, login_hint=someone.email).claims["sub"]


def test_codereuse(stack, client, person):
    """oidcc-codereuse: the second redemption is refused (and the first one's access token revoked)."""
    session = authlib_session(stack, client)
    url, state, nonce, verifier = authorization_url(stack, session)
    outcome = authorize(person, url)
    data = {"grant_type": "authorization_code", "code": outcome.query["code"], "code_verifier": verifier,
            "redirect_uri": client.redirect_uri}
    first = token_request(stack, client, data)
    assert first.status_code == 200
    second = token_request(stack, client, data)
    assert second.status_code == 400 and second.json()["error"] == "invalid_grant"
    assert userinfo(stack, first.json()["access_token"]).status_code == 401


def test_ensure_registered_redirect_uri(stack, client, person):
    """oidcc-ensure-registered-redirect-uri: an error page, no redirect."""
    outcome, _ = redirected(stack, client, person, redirect_uri=callback_uri("unregistered"))
    assert outcome.location is None and outcome.response.status_code == 400


def test_ensure_redirect_uri_in_authorization_request(stack, client, person):
    """oidcc-ensure-redirect-uri-in-authorization-request: without redirect_uri, an error page."""
    outcome, _ = redirected(stack, client, person, drop_redirect_uri=True)
    assert outcome.location is None and outcome.response.status_code == 400


def test_server_client_secret_post(stack, client, person):
    """oidcc-server-client-secret-post."""
    session = authlib_session(stack, client, token_endpoint_auth_method="client_secret_post")
    url, state, nonce, verifier = authorization_url(stack, session)
    outcome = authorize(person, url)
    token = session.fetch_token(discovery(stack)["token_endpoint"], authorization_response=outcome.location,
                                code_verifier=verifier, state=state)
    assert id_token_claims(stack, client, token["id_token"], nonce=nonce)


def test_a_second_registered_redirect_uri_works(stack, client, person):
    """oidcc-server with the other registered URI: exact match of either."""
    session = authlib_session(stack, client, redirect_uri=client.redirect_uris[1])
    url, state, nonce, verifier = authorization_url(stack, session)
    outcome = authorize(person, url)
    assert outcome.location.startswith(client.redirect_uris[1] + "?") and "code" in outcome.query


def test_unsigned_request_object_supported_correctly_or_rejected_as_unsupported(stack, client, person):
    """oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported."""
    session = authlib_session(stack, client)
    url, state, nonce, verifier = authorization_url(stack, session)
    header = {"alg": "none"}
    payload = {"iss": client.id, "aud": stack.issuer, "response_type": "code", "client_id": client.id,
               "redirect_uri": client.redirect_uri, "scope": SCOPE, "state": state, "nonce": nonce}
    import base64
    encode = lambda part: base64.urlsafe_b64encode(json.dumps(part).encode()).rstrip(b"=").decode()  # noqa: E731
    url = url + "&" + urlencode({"request": f"{encode(header)}.{encode(payload)}."})
    outcome = authorize(person, url)
    assert outcome.location, outcome
    assert "code" in outcome.query or outcome.query.get("error") == "request_not_supported"
    assert outcome.query["state"] == state


def test_refresh_token(stack, client, person):
    """oidcc-refresh-token: new tokens; an ID token from the refresh has the same iss, sub and aud."""
    done = flow(stack, client, person)
    answer = token_request(stack, client, {"grant_type": "refresh_token", "refresh_token": done.token["refresh_token"]})
    assert answer.status_code == 200, answer.text
    tokens = answer.json()
    assert tokens["access_token"] and tokens["refresh_token"] != done.token["refresh_token"]
    if "id_token" in tokens:
        claims = id_token_claims(stack, client, tokens["id_token"])
        assert (claims["iss"], claims["sub"]) == (done.claims["iss"], done.claims["sub"])


def test_ensure_post_request_succeeds(stack, client, person):
    """oidcc-ensure-post-request-succeeds: the authorization request as a form POST."""
    session = authlib_session(stack, client)
    url, state, nonce, verifier = authorization_url(stack, session)
    endpoint, query = url.split("?", 1)
    fields = dict(parse_qsl(query))
    answer = person.browser.session.post(endpoint, data=fields, allow_redirects=False, timeout=REQUEST_TIMEOUT)
    assert answer.status_code in (302, 303), answer.text[:300]
    location = answer.headers["Location"]
    assert location.startswith(client.redirect_uri + "?") and f"state={state}" in location and "code=" in location


def test_state_is_echoed_as_sent_and_absent_when_not_sent(stack, client, person):
    """oidcc-server's state check, with a state of unusual characters, and none."""
    session = authlib_session(stack, client)
    url, *_ = authorization_url(stack, session, state="a b/c?d=e&f~")
    outcome = authorize(person, url)
    assert outcome.query["state"] == "a b/c?d=e&f~"
    outcome, _ = redirected(stack, client, person, state=None)
    assert "state" not in outcome.query and "code" in outcome.query


def test_the_token_endpoint_answers_no_store_json(stack, client, person):
    """oidcc-server's token response checks: JSON, Cache-Control: no-store, token_type Bearer, expires_in."""
    session = authlib_session(stack, client)
    url, state, nonce, verifier = authorization_url(stack, session)
    outcome = authorize(person, url)
    answer = token_request(stack, client, {"grant_type": "authorization_code", "code": outcome.query["code"],
                                           "code_verifier": verifier, "redirect_uri": client.redirect_uri})
    assert answer.headers["Content-Type"].startswith("application/json")
    assert answer.headers.get("Cache-Control") == "no-store"
    assert answer.json()["token_type"].lower() == "bearer" and int(answer.json()["expires_in"]) > 0


def test_a_signed_out_browser_is_sent_to_sign_in_and_comes_back(stack, client):
    """oidcc-server from a browser without a session: the sign-in page, then the app with a code."""
    someone = new_person(stack, signed_in=False)
    assert Browser(stack).get("/settings").status_code in (302, 303)
    done = flow(stack, client, someone)
    assert done.outcome.signed_in and done.claims["sub"]


def test_the_signing_key_rotates_and_the_old_one_stays_published(stack, client, person):
    """OP-Rotation-OP-Sig (the older suite's key rotation module): after `frontdoor keys rotate openid` new ID tokens
    name a new kid, and the JWKS still has the old key, so tokens it signed still verify."""
    def kid_of(token):
        return jwt.decode(token, key_set(stack)).header["kid"]
    before = flow(stack, client, person).token["id_token"]
    result = run_cli(stack, "keys", "rotate", "openid")
    assert result.returncode == 0, (result.stdout, result.stderr)
    after = flow(stack, client, person).token["id_token"]
    assert kid_of(after) != kid_of(before)
    published = {key["kid"] for key in requests.get(discovery(stack)["jwks_uri"], timeout=REQUEST_TIMEOUT).json()["keys"]}
    assert {kid_of(before), kid_of(after)} <= published
    assert id_token_claims(stack, client, before)["sub"] == id_token_claims(stack, client, after)["sub"]
