"""The tests' OAuth/OIDC provider on its own, driven by a small client (requests + joserfc): it must behave like a
real provider (discovery, consent, PKCE S256 enforced, codes single-use, signed ID tokens with the nonce, refresh
with rotation, userinfo, GitHub-style endpoints) and misbehave exactly when told. Fast; no frontdoor involved."""
import secrets
import time
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
import requests
from joserfc import jwt
from joserfc.errors import BadSignatureError
from joserfc.jwk import KeySet

from oauth_provider import s256_challenge

REDIRECT = "http://127.0.0.1:9/callback"
TIMEOUT = 30  # seconds: only a bound for a request that never ends, generous for a loaded machine


class Client:
    """A confidential client of the provider, doing each step by hand."""

    def __init__(self, provider, auth="client_secret_basic"):
        self.provider = provider
        self.id, self.secret = f"client-{secrets.token_hex(4)}", secrets.token_urlsafe(16)
        provider.add_client(self.id, self.secret, [REDIRECT])
        self.auth = auth
        self.config = requests.get(provider.issuer + "/.well-known/openid-configuration", timeout=TIMEOUT).json()
        self.verifier, self.state, self.nonce = secrets.token_urlsafe(48), secrets.token_urlsafe(16), secrets.token_urlsafe(16)

    def authorize_url(self, scope="openid email profile", pkce=True, **extra):
        query = {"response_type": "code", "client_id": self.id, "redirect_uri": REDIRECT, "scope": scope,
                 "state": self.state, "nonce": self.nonce, **extra}
        if pkce:
            query.update(code_challenge=s256_challenge(self.verifier), code_challenge_method="S256")
        return self.config["authorization_endpoint"] + "?" + urlencode(query)

    def consent(self, decision="approve", **kw):
        """Shows the consent page, answers it; returns the query of the redirect back. A fresh state and nonce each
        time (the provider refuses a nonce it has seen, as a replay)."""
        self.state, self.nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        url = self.authorize_url(**kw)
        page = requests.get(url, allow_redirects=False, timeout=TIMEOUT)
        assert page.status_code == 200 and 'id="approve"' in page.text and 'id="deny"' in page.text
        back = requests.post(url, data={"decision": decision}, allow_redirects=False, timeout=TIMEOUT)
        assert back.status_code == 302 and back.headers["Location"].startswith(REDIRECT + "?")
        return {k: v[0] for k, v in parse_qs(urlparse(back.headers["Location"]).query).items()}

    def token(self, **form):
        auth = None
        if self.auth == "client_secret_basic":
            auth = (self.id, self.secret)
        else:
            form.update(client_id=self.id, client_secret=self.secret)
        return requests.post(self.config["token_endpoint"], data=form, auth=auth, timeout=TIMEOUT)

    def redeem(self, code, verifier=None):
        form = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT}
        if verifier is not False:
            form["code_verifier"] = verifier or self.verifier
        return self.token(**form)

    def id_token_claims(self, id_token):
        keys = KeySet.import_key_set(requests.get(self.config["jwks_uri"], timeout=TIMEOUT).json())
        return jwt.decode(id_token, keys, algorithms=["RS256"])


@pytest.fixture
def client(oauth_provider):
    return Client(oauth_provider)


def test_discovery_and_jwks_describe_the_provider(oauth_provider, client):
    config = client.config
    assert config["issuer"] == oauth_provider.issuer and oauth_provider.issuer.startswith("http://127.0.0.1:")
    for name in ("authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri"):
        assert config[name].startswith(oauth_provider.issuer + "/")
    assert config["code_challenge_methods_supported"] == ["S256"]
    keys = requests.get(config["jwks_uri"], timeout=TIMEOUT).json()["keys"]
    assert [(k["kty"], k["alg"], k["kid"]) for k in keys] == [("RSA", "RS256", "test-key-1")]
    assert "d" not in keys[0], "the JWKS holds the public key only"


def test_the_code_flow_gives_tokens_a_signed_id_token_with_the_nonce_and_userinfo(oauth_provider, client):
    oauth_provider.next_user(sub="u-42", email="ann@example.com", email_verified=True, name="Ann")
    page = requests.get(client.authorize_url(), timeout=TIMEOUT)
    assert "Ann (ann@example.com)" in page.text, "the consent page names the user"
    back = client.consent()
    assert back["state"] == client.state and back["code"]
    answer = client.redeem(back["code"])
    assert answer.status_code == 200, answer.text
    tokens = answer.json()
    assert tokens["token_type"] == "Bearer" and tokens["expires_in"] == 3600 and tokens["refresh_token"]
    claims = client.id_token_claims(tokens["id_token"])
    assert jwt.decode(tokens["id_token"], KeySet.import_key_set(oauth_provider.jwks())).header["kid"] == "test-key-1"
    assert claims.claims["iss"] == oauth_provider.issuer and claims.claims["aud"] == [client.id]
    assert claims.claims["nonce"] == client.nonce and claims.claims["sub"] == "u-42"
    assert claims.claims["email"] == "ann@example.com" and claims.claims["email_verified"] is True

    info = requests.get(client.config["userinfo_endpoint"], headers={"Authorization": "Bearer " + tokens["access_token"]},
                        timeout=TIMEOUT)
    assert info.status_code == 200 and info.json()["email"] == "ann@example.com" and info.json()["name"] == "Ann"
    assert requests.get(client.config["userinfo_endpoint"], headers={"Authorization": "Bearer nope"}, timeout=TIMEOUT).status_code == 401

    [code] = oauth_provider.code_list()
    assert code["redeemed"] and code["nonce"] == client.nonce and code["failed_redemptions"] == 0
    [issued] = oauth_provider.token_list()
    assert issued["access_token"] == tokens["access_token"] and issued["auth_method"] == "client_secret_basic"


def test_refresh_rotates_and_the_old_refresh_token_is_spent(oauth_provider, client):
    tokens = client.redeem(client.consent()["code"]).json()
    fresh = client.token(grant_type="refresh_token", refresh_token=tokens["refresh_token"])
    assert fresh.status_code == 200, fresh.text
    new = fresh.json()
    assert new["access_token"] != tokens["access_token"] and new["refresh_token"] != tokens["refresh_token"]
    assert client.token(grant_type="refresh_token", refresh_token=tokens["refresh_token"]).json()["error"] == "invalid_grant"
    assert requests.get(oauth_provider.issuer + "/userinfo", headers={"Authorization": "Bearer " + new["access_token"]},
                        timeout=TIMEOUT).status_code == 200
    oauth_provider.expire(new["access_token"])
    assert requests.get(oauth_provider.issuer + "/userinfo", headers={"Authorization": "Bearer " + new["access_token"]},
                        timeout=TIMEOUT).status_code == 401


def test_deny_sends_access_denied_with_the_state(client):
    back = client.consent("deny")
    assert back["error"] == "access_denied" and back["state"] == client.state and "code" not in back


def test_pkce_s256_is_enforced(oauth_provider, client):
    refused = requests.get(client.authorize_url(pkce=False), allow_redirects=False, timeout=TIMEOUT)
    assert refused.status_code == 400 and "PKCE" in refused.text
    plain = requests.get(client.authorize_url(pkce=False, code_challenge="x" * 43, code_challenge_method="plain"),
                         allow_redirects=False, timeout=TIMEOUT)
    assert plain.status_code == 400
    code = client.consent()["code"]
    assert client.redeem(code, verifier=False).json()["error"] == "invalid_request"
    assert client.redeem(code, verifier=secrets.token_urlsafe(48)).json()["error"] == "invalid_grant"
    assert client.redeem(code).status_code == 200, "the right verifier still works"


def test_a_code_works_once(oauth_provider, client):
    code = client.consent()["code"]
    assert client.redeem(code).status_code == 200
    again = client.redeem(code)
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    assert oauth_provider.code_list()[0]["failed_redemptions"] == 1


def test_client_secret_post_and_wrong_secrets(oauth_provider):
    posting = Client(oauth_provider, auth="client_secret_post")
    answer = posting.redeem(posting.consent()["code"])
    assert answer.status_code == 200 and oauth_provider.token_list()[0]["auth_method"] == "client_secret_post"
    wrong = Client(oauth_provider)
    code = wrong.consent()["code"]
    wrong.secret = "not-the-secret"
    assert wrong.redeem(code).status_code == 401


def test_an_unregistered_redirect_uri_is_refused(client):
    url = client.authorize_url().replace("127.0.0.1%3A9", "127.0.0.1%3A10")
    assert requests.get(url, allow_redirects=False, timeout=TIMEOUT).status_code == 400


@pytest.mark.parametrize("flag", ["bad_signature", "unknown_kid"])
def test_signature_misbehaviour(oauth_provider, client, flag):
    oauth_provider.misbehave(flag)
    id_token = client.redeem(client.consent()["code"]).json()["id_token"]
    keys = KeySet.import_key_set(oauth_provider.jwks())
    with pytest.raises(Exception) as failure:
        jwt.decode(id_token, keys, algorithms=["RS256"])
    if flag == "bad_signature":
        assert failure.type is BadSignatureError


@pytest.mark.parametrize("flag, check", [
    ("wrong_aud", lambda c, claims: claims["aud"] != [c.id]),
    ("wrong_iss", lambda c, claims: claims["iss"] != c.provider.issuer),
    ("wrong_nonce", lambda c, claims: claims["nonce"] != c.nonce),
    ("expired", lambda c, claims: claims["exp"] < time.time() - 60),
    ("email_only_in_userinfo", lambda c, claims: "email" not in claims),
])
def test_claim_misbehaviour_is_signed_properly(oauth_provider, client, flag, check):
    oauth_provider.misbehave(flag)
    tokens = client.redeem(client.consent()["code"]).json()
    assert check(client, client.id_token_claims(tokens["id_token"]).claims)


def test_token_endpoint_failures(oauth_provider, client):
    oauth_provider.misbehave("no_id_token")
    assert "id_token" not in client.redeem(client.consent()["code"]).json()
    oauth_provider.misbehave("alg_none")
    id_token = client.redeem(client.consent()["code"]).json()["id_token"]
    assert id_token.endswith(".") and id_token.count(".") == 2
    oauth_provider.misbehave("error_at_token")
    failed = client.redeem(client.consent()["code"])
    assert failed.status_code == 500 and failed.json()["error"] == "server_error"


def test_github_style_endpoints(oauth_provider, client):
    oauth_provider.next_user(sub="5150", email="gh@example.com", email_verified=True, name="Hub", login="hubber")
    token = client.redeem(client.consent(scope="read:user user:email")["code"]).json()
    assert "id_token" not in token, "no openid scope, no ID token"
    bearer = {"Authorization": "Bearer " + token["access_token"]}
    user = requests.get(oauth_provider.issuer + "/user", headers=bearer, timeout=TIMEOUT).json()
    assert user == {"id": 5150, "login": "hubber", "name": "Hub", "email": "gh@example.com"}
    emails = requests.get(oauth_provider.issuer + "/user/emails", headers=bearer, timeout=TIMEOUT).json()
    assert emails == [{"email": "gh@example.com", "primary": True, "verified": True, "visibility": "public"}]
    assert requests.get(oauth_provider.issuer + "/user", timeout=TIMEOUT).status_code == 401

    oauth_provider.next_user(sub="5151", name="Nobody")
    token = client.redeem(client.consent(scope="read:user user:email")["code"]).json()
    bearer = {"Authorization": "Bearer " + token["access_token"]}
    assert requests.get(oauth_provider.issuer + "/user", headers=bearer, timeout=TIMEOUT).json()["email"] is None
    assert requests.get(oauth_provider.issuer + "/user/emails", headers=bearer, timeout=TIMEOUT).json() == []


def test_control_api_over_http(oauth_provider, client):
    base = oauth_provider.issuer + "/_control"
    assert requests.post(base + "/next_user", json={"sub": "http-1", "email": "h@example.com", "email_verified": False},
                         timeout=TIMEOUT).ok
    assert requests.post(base + "/consent", json={"mode": "approve"}, timeout=TIMEOUT).ok
    assert requests.post(base + "/expires_in", json={"seconds": 5}, timeout=TIMEOUT).ok
    back = requests.get(client.authorize_url(), allow_redirects=False, timeout=TIMEOUT)
    assert back.status_code == 302, "approved without a consent page"
    code = parse_qs(urlparse(back.headers["Location"]).query)["code"][0]
    tokens = client.redeem(code).json()
    assert tokens["expires_in"] == 5
    assert client.id_token_claims(tokens["id_token"]).claims["email_verified"] is False
    assert requests.get(base + "/codes", timeout=TIMEOUT).json()[0]["sub"] == "http-1"
    assert requests.get(base + "/tokens", timeout=TIMEOUT).json()[0]["access_token"] == tokens["access_token"]
    assert requests.post(base + "/misbehave", json={"flags": ["wrong_aud"]}, timeout=TIMEOUT).ok
    assert oauth_provider.flags == {"wrong_aud"}
    assert requests.post(base + "/reset", timeout=TIMEOUT).ok
    assert oauth_provider.code_list() == [] and oauth_provider.flags == set()


def test_a_stopped_provider_is_unreachable():
    from oauth_provider import OAuthProvider
    provider = OAuthProvider().start()
    assert requests.get(provider.issuer + "/jwks", timeout=TIMEOUT).ok
    provider.stop()
    with pytest.raises(requests.ConnectionError):
        requests.get(provider.issuer + "/jwks", timeout=TIMEOUT)
