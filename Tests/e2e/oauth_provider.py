"""The tests' OAuth 2.0 / OpenID Connect provider: Authlib's server components in a fakeserver.FakeServer (Flask) on
a free loopback port.

Issuer http://127.0.0.1:<port>. Endpoints: /.well-known/openid-configuration, /jwks (one RS256 key with a kid),
/authorize (a consent page naming the user; buttons id="approve" and id="deny"), /token (authorization_code with
PKCE S256 required, and refresh_token with rotation; client_secret_basic or client_secret_post), /userinfo, and the
GitHub-style /user and /user/emails for Frontdoor's `github` preset with endpoint overrides. Everything is in memory.
X's shapes for the `twitter` preset: /i/oauth2/authorize (the same consent), /2/oauth2/token (HTTP Basic client
authentication only, as X asks of confidential clients) and /2/users/me ({"data": {"id", "name", "username"}}, never an
email; the token needs the users.read scope). The X id is the user's sub, the username its "login" (else user<sub>).
Facebook's shapes for the `facebook` preset: /v19.0/dialog/oauth (the same consent), /v19.0/oauth/access_token (the
client secret in the form only; answers access_token, token_type and expires_in: no refresh or ID token) and Graph's
/v19.0/me?fields=id,name,email (only the fields asked for; the id is the user's sub; an email only when the user has a
verified one and the token has the email scope, as Facebook gives only confirmed addresses).

Control API for tests (JSON; also callable as Python methods):
  POST /_control/next_user   {sub, email?, email_verified?, name?, login?, github_id?, emails?}  the user the next
                             consents are for (kept until replaced or reset); no "email" means the user has none
  POST /_control/misbehave   {"flags": [...]}: bad_signature, wrong_aud, wrong_iss, wrong_nonce, expired, unknown_kid,
                             alg_none, no_id_token, email_only_in_userinfo, error_at_token, error_at_userinfo
  POST /_control/consent     {"mode": "ask" | "approve" | "deny"}: "approve"/"deny" answer /authorize at once
  POST /_control/expires_in  {"seconds": n}: lifetime of the access tokens issued next
  POST /_control/expire      {"access_token": t}: that token is expired from now on (userinfo refuses it)
  POST /_control/reset       users, misbehaviour, consent mode, codes and tokens back to the start (clients stay)
  GET  /_control/codes       every code issued: code, client_id, redirect_uri, sub, nonce, redeemed, failed_redemptions
  GET  /_control/tokens      every token issued: access_token, refresh_token, client_id, sub, expires_at, revoked,
                             grant_type, auth_method
  GET  /_control/requests    the paths and methods the provider answered (newest last)
"""
import base64
import copy
import json
import secrets
import threading
import time
import zlib

from authlib.integrations.flask_oauth2 import AuthorizationServer, ResourceProtector
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6749 import ClientMixin, TokenMixin, grants
from authlib.oauth2.rfc6750 import BearerTokenGenerator, BearerTokenValidator
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oidc.core import UserInfo
from authlib.oidc.core.grants import OpenIDCode
from flask import jsonify, request
from joserfc.jwk import RSAKey
from markupsafe import escape

from fakeserver import FakeServer


FLAGS = {"bad_signature", "wrong_aud", "wrong_iss", "wrong_nonce", "expired", "unknown_kid", "alg_none", "no_id_token",
         "email_only_in_userinfo", "error_at_token", "error_at_userinfo"}
DEFAULT_USER = {"sub": "1001", "email": "someone@example.com", "email_verified": True, "name": "Some One"}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Client(ClientMixin):
    def __init__(self, client_id, secret, redirect_uris, auth_methods):
        self.client_id, self.secret, self.redirect_uris, self.auth_methods = client_id, secret, redirect_uris, auth_methods

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return self.redirect_uris[0] if self.redirect_uris else None

    def get_allowed_scope(self, scope):
        return scope

    def check_redirect_uri(self, redirect_uri):
        return redirect_uri in self.redirect_uris

    def check_client_secret(self, client_secret):
        return secrets.compare_digest(client_secret, self.secret)

    def check_endpoint_auth_method(self, method, endpoint):
        return endpoint != "token" or method in self.auth_methods

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type in ("authorization_code", "refresh_token")


class Code:
    """An issued authorization code (OIDC's AuthorizationCodeMixin methods, duck-typed)."""

    def __init__(self, code, client_id, redirect_uri, scope, user, nonce, challenge, method):
        self.code, self.client_id, self.redirect_uri, self.scope, self.user = code, client_id, redirect_uri, scope, user
        self.nonce, self.code_challenge, self.code_challenge_method = nonce, challenge, method
        self.auth_time, self.redeemed, self.failed_redemptions = int(time.time()), False, 0

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    def get_nonce(self):
        return self.nonce

    def get_auth_time(self):
        return self.auth_time

    def get_acr(self):
        return None

    def get_amr(self):
        return None

    def public(self):
        return {"code": self.code, "client_id": self.client_id, "redirect_uri": self.redirect_uri, "scope": self.scope,
                "sub": self.user["sub"], "nonce": self.nonce, "redeemed": self.redeemed,
                "failed_redemptions": self.failed_redemptions}


class Token(TokenMixin):
    def __init__(self, data, client, user, grant_type, auth_method):
        self.data, self.client, self.user = data, client, user
        self.issued_at, self.revoked, self.grant_type, self.auth_method = time.time(), False, grant_type, auth_method
        self.expires_at = self.issued_at + data.get("expires_in", 3600)

    def check_client(self, client):
        return client.get_client_id() == self.client.get_client_id()

    def get_scope(self):
        return self.data.get("scope", "")

    def get_expires_in(self):
        return int(self.expires_at - self.issued_at)

    def is_expired(self):
        return time.time() >= self.expires_at

    def is_revoked(self):
        return self.revoked

    def get_user(self):
        return self.user

    def get_client(self):
        return self.client

    def public(self):
        return {"access_token": self.data["access_token"], "refresh_token": self.data.get("refresh_token"),
                "client_id": self.client.client_id, "sub": self.user["sub"], "scope": self.get_scope(),
                "expires_at": self.expires_at, "revoked": self.revoked, "grant_type": self.grant_type,
                "auth_method": self.auth_method}


class OAuthProvider(FakeServer):
    def __init__(self, host="127.0.0.1"):
        self.lock = threading.RLock()
        self.clients = {}
        self.key = RSAKey.generate_key(2048, parameters={"kid": "test-key-1", "use": "sig", "alg": "RS256"})
        super().__init__("oauth_provider", host)
        self.issuer = self.base
        self.reset()
        self._build()

    # MARK: - Control (Python side)

    def reset(self):
        with self.lock:
            self.user = dict(DEFAULT_USER)
            self.flags, self.consent_mode, self.expires_in = set(), "ask", 3600
            self.codes, self.tokens, self.requests = {}, [], []

    def add_client(self, client_id, secret, redirect_uris, auth_methods=("client_secret_basic", "client_secret_post")):
        with self.lock:
            self.clients[client_id] = Client(client_id, secret, list(redirect_uris), set(auth_methods))

    def next_user(self, **user):
        assert "sub" in user, "a user needs a sub"
        with self.lock:
            self.user = {"email_verified": True, "name": "", **user}

    def misbehave(self, *flags):
        unknown = set(flags) - FLAGS
        assert not unknown, f"unknown misbehaviour {unknown}"
        with self.lock:
            self.flags = set(flags)

    def token_lifetime(self, seconds):
        """The expires_in of the access tokens issued from now on."""
        with self.lock:
            self.expires_in = int(seconds)

    def expire(self, access_token):
        with self.lock:
            for token in self.tokens:
                if token.data["access_token"] == access_token:
                    token.expires_at = time.time() - 1

    def code_list(self):
        with self.lock:
            return [code.public() for code in self.codes.values()]

    def token_list(self):
        with self.lock:
            return [token.public() for token in self.tokens]

    def token_for(self, access_token):
        with self.lock:
            return next((t for t in self.tokens if t.data["access_token"] == access_token), None)

    def jwks(self):
        return {"keys": [self.key.as_dict(private=False)]}

    # MARK: - The identity

    def github_id(self, user):
        if "github_id" in user:
            return int(user["github_id"])
        return int(user["sub"]) if str(user["sub"]).isdigit() else zlib.crc32(user["sub"].encode())

    def claims(self, user, scope, with_email=True):
        info = UserInfo(sub=str(user["sub"]))
        if "profile" in scope.split():
            info.update(name=user.get("name", ""), preferred_username=user.get("login", ""))
        if with_email and "email" in scope.split() and user.get("email"):
            info.update(email=user["email"], email_verified=bool(user.get("email_verified")))
        return info

    def github_emails(self, user):
        if "emails" in user:
            return user["emails"]
        if not user.get("email"):
            return []
        return [{"email": user["email"], "primary": True, "verified": bool(user.get("email_verified")),
                 "visibility": "public"}]

    # MARK: - Authlib wiring

    def _build(self):
        provider = self

        class CodeGrant(grants.AuthorizationCodeGrant):
            TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

            def save_authorization_code(self, code, req):
                with provider.lock:
                    provider.codes[code] = Code(code, req.client.client_id, req.payload.redirect_uri, req.payload.scope,
                                                copy.deepcopy(req.user), req.payload.data.get("nonce"),
                                                req.payload.data.get("code_challenge"),
                                                req.payload.data.get("code_challenge_method"))

            def query_authorization_code(self, code, client):
                with provider.lock:
                    found = provider.codes.get(code)
                    if found and found.client_id == client.client_id:
                        if not found.redeemed:
                            return found
                        found.failed_redemptions += 1
                return None

            def delete_authorization_code(self, authorization_code):
                with provider.lock:
                    authorization_code.redeemed = True

            def authenticate_user(self, authorization_code):
                return authorization_code.user

        class RefreshGrant(grants.RefreshTokenGrant):
            TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]
            INCLUDE_NEW_REFRESH_TOKEN = True

            def authenticate_refresh_token(self, refresh_token):
                with provider.lock:
                    return next((t for t in provider.tokens if t.data.get("refresh_token") == refresh_token
                                 and not t.revoked), None)

            def authenticate_user(self, credential):
                return credential.user

            def revoke_old_credential(self, credential):
                with provider.lock:
                    credential.revoked = True

        class OpenID(OpenIDCode):
            def exists_nonce(self, nonce, req):
                with provider.lock:
                    return any(c.nonce == nonce and c.client_id == req.payload.client_id for c in provider.codes.values())

            def resolve_client_private_key(self, client):
                return provider.key

            def get_client_claims(self, client):
                flags, now = provider.flags, int(time.time())
                claims = {"iss": provider.issuer + ("/elsewhere" if "wrong_iss" in flags else ""),
                          "aud": ["someone-else"] if "wrong_aud" in flags else [client.get_client_id()]}
                if "expired" in flags:
                    claims.update(iat=now - 7200, exp=now - 3600, auth_time=now - 7200)
                return claims

            def get_encode_header(self, client):
                return {"alg": "RS256", "kid": "unknown-key" if "unknown_kid" in provider.flags else provider.key.kid}

            def get_authorization_code_claims(self, authorization_code):
                claims = super().get_authorization_code_claims(authorization_code)
                if "wrong_nonce" in provider.flags:
                    claims["nonce"] = "not-the-nonce-" + secrets.token_hex(4)
                return claims

            def generate_user_info(self, user, scope):
                return provider.claims(user, scope, with_email="email_only_in_userinfo" not in provider.flags)

            def encode_id_token(self, token, req):
                encoded = super().encode_id_token(token, req)
                header, payload, signature = encoded.split(".")
                if "bad_signature" in provider.flags:
                    raw = bytearray(base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4)))
                    raw[len(raw) // 2] ^= 0xFF
                    signature = b64url(bytes(raw))
                if "alg_none" in provider.flags:
                    header, signature = b64url(json.dumps({"alg": "none", "typ": "JWT"}).encode()), ""
                return ".".join((header, payload, signature))

            def process_token(self, grant, response):
                token = super().process_token(grant, response)
                if "no_id_token" in provider.flags:
                    token.pop("id_token", None)
                return token

        def save_token(data, req):
            with provider.lock:
                grant_type = req.payload.grant_type if req.payload else "authorization_code"
                provider.tokens.append(Token(dict(data), req.client, copy.deepcopy(req.user), grant_type, req.auth_method))

        self.authorization = AuthorizationServer(self.app, query_client=lambda cid: self.clients.get(cid), save_token=save_token)
        self.authorization.register_token_generator("default", BearerTokenGenerator(
            lambda **_: secrets.token_urlsafe(32), lambda **_: secrets.token_urlsafe(40),
            lambda client, grant_type: self.expires_in))
        self.authorization.register_grant(CodeGrant, [CodeChallenge(required=True), OpenID(require_nonce=False)])
        self.authorization.register_grant(RefreshGrant)

        class Validator(BearerTokenValidator):
            def authenticate_token(self, token_string):
                return provider.token_for(token_string)

        self.protect = ResourceProtector()
        self.protect.register_token_validator(Validator())
        self._routes()

    # MARK: - Routes

    def _routes(self):
        app, provider = self.app, self

        @app.before_request
        def remember():
            with provider.lock:
                provider.requests.append((request.method, request.path))

        @app.get("/.well-known/openid-configuration")
        def discovery():
            base = provider.issuer
            return jsonify(issuer=base, authorization_endpoint=base + "/authorize", token_endpoint=base + "/token",
                           userinfo_endpoint=base + "/userinfo", jwks_uri=base + "/jwks", response_types_supported=["code"],
                           subject_types_supported=["public"], id_token_signing_alg_values_supported=["RS256"],
                           scopes_supported=["openid", "email", "profile"], code_challenge_methods_supported=["S256"],
                           grant_types_supported=["authorization_code", "refresh_token"],
                           token_endpoint_auth_methods_supported=["client_secret_basic", "client_secret_post"],
                           claims_supported=["sub", "iss", "aud", "exp", "iat", "nonce", "email", "email_verified", "name"])

        @app.get("/jwks")
        def jwks():
            return jsonify(provider.jwks())

        @app.route("/authorize", methods=["GET", "POST"])
        def authorize():
            with provider.lock:
                user, mode = copy.deepcopy(provider.user), provider.consent_mode
            try:
                grant = provider.authorization.get_consent_grant(end_user=user)
            except OAuth2Error as error:
                return jsonify(error=error.error, error_description=error.description), 400
            if not request.values.get("code_challenge") or request.values.get("code_challenge_method") != "S256":
                return jsonify(error="invalid_request", error_description="PKCE with S256 is required"), 400
            decision = request.form.get("decision") if request.method == "POST" else None
            if decision is None and mode == "ask":
                return consent_page(grant, user)
            approved = (decision or mode) == "approve"
            return provider.authorization.create_authorization_response(grant=grant, grant_user=user if approved else None)

        def consent_page(grant, user):
            who = f"{user.get('name') or user['sub']} ({user.get('email') or 'no email'})"
            return (f"<!doctype html><html><head><title>Test provider: consent</title></head><body><main>"
                    f"<h1>Allow {escape(grant.client.client_id)}?</h1><p id=\"user\">Signed in as {escape(who)}</p>"
                    f"<p id=\"scope\">Scope: {escape(request.args.get('scope', ''))}</p>"
                    f"<form method=\"post\" action=\"{escape(request.full_path)}\">"
                    f"<button id=\"approve\" name=\"decision\" value=\"approve\">Approve</button>"
                    f"<button id=\"deny\" name=\"decision\" value=\"deny\">Deny</button></form></main></body></html>")

        @app.post("/token")
        def token():
            if "error_at_token" in provider.flags:
                return jsonify(error="server_error", error_description="the test provider was told to fail"), 500
            return provider.authorization.create_token_response()

        def bearer_user():
            """The user of the request's valid Bearer token, or None."""
            try:
                return provider.protect.acquire_token().user
            except OAuth2Error:
                return None

        @app.route("/userinfo", methods=["GET", "POST"])
        def userinfo():
            if "error_at_userinfo" in provider.flags:
                return jsonify(error="server_error"), 500
            user = bearer_user()
            if user is None:
                return jsonify(error="invalid_token"), 401, {"WWW-Authenticate": 'Bearer error="invalid_token"'}
            scope = provider.protect.acquire_token().get_scope()
            return jsonify(dict(provider.claims(user, scope)))

        @app.get("/user")
        def github_user():
            user = bearer_user() if "error_at_userinfo" not in provider.flags else None
            if user is None:
                return jsonify(message="Bad credentials"), 401
            public = next((e["email"] for e in provider.github_emails(user) if e.get("visibility") == "public"), None)
            return jsonify(id=provider.github_id(user), login=user.get("login") or f"user{provider.github_id(user)}",
                           name=user.get("name") or None, email=public)

        @app.get("/user/emails")
        def github_emails():
            user = bearer_user() if "error_at_userinfo" not in provider.flags else None
            if user is None:
                return jsonify(message="Bad credentials"), 401
            return jsonify(provider.github_emails(user))

        # MARK: X (Twitter) shapes
        app.add_url_rule("/i/oauth2/authorize", "x_authorize", authorize, methods=["GET", "POST"])

        @app.post("/2/oauth2/token")
        def x_token():
            if not request.headers.get("Authorization", "").startswith("Basic "):
                return jsonify(error="unauthorized_client", error_description="Missing valid authorization header"), 401
            return token()

        @app.get("/2/users/me")
        def x_users_me():
            try:
                found = provider.protect.acquire_token()
            except OAuth2Error:
                found = None
            if found is None or "error_at_userinfo" in provider.flags:
                return jsonify(title="Unauthorized", type="about:blank", status=401, detail="Unauthorized"), 401
            if "users.read" not in found.get_scope().split():
                return jsonify(title="Forbidden", type="about:blank", status=403,
                               detail="Missing scope users.read"), 403
            user = found.user
            return jsonify(data={"id": str(user["sub"]), "name": user.get("name") or "",
                                 "username": user.get("login") or f"user{user['sub']}"})

        # MARK: Facebook shapes
        app.add_url_rule("/v19.0/dialog/oauth", "facebook_dialog", authorize, methods=["GET", "POST"])

        def graph_error(message, status, code):
            return jsonify(error={"message": message, "type": "OAuthException", "code": code}), status

        @app.post("/v19.0/oauth/access_token")
        def facebook_token():
            if "Authorization" in request.headers or not request.form.get("client_secret"):
                return graph_error("Missing client_secret parameter.", 400, 1)
            answer = token()
            if isinstance(answer, tuple) or answer.status_code != 200:
                return answer
            issued = answer.get_json()
            return jsonify({key: issued[key] for key in ("access_token", "token_type", "expires_in") if key in issued})

        @app.get("/v19.0/me")
        def facebook_me():
            try:
                found = provider.protect.acquire_token()
            except OAuth2Error:
                found = None
            if found is None or "error_at_userinfo" in provider.flags:
                return graph_error("Invalid OAuth access token data.", 400, 190)
            user, fields = found.user, request.args.get("fields", "id,name").split(",")
            me = {"id": str(user["sub"])}
            if "name" in fields:
                me["name"] = user.get("name") or ""
            if "email" in fields and "email" in found.get_scope().split() and user.get("email") and user.get("email_verified"):
                me["email"] = user["email"]
            return jsonify(me)

        # Control API (tests only).
        @app.post("/_control/next_user")
        def control_user():
            provider.next_user(**request.get_json())
            return jsonify(ok=True)

        @app.post("/_control/misbehave")
        def control_misbehave():
            provider.misbehave(*request.get_json().get("flags", []))
            return jsonify(ok=True)

        @app.post("/_control/consent")
        def control_consent():
            mode = request.get_json()["mode"]
            assert mode in ("ask", "approve", "deny")
            with provider.lock:
                provider.consent_mode = mode
            return jsonify(ok=True)

        @app.post("/_control/expires_in")
        def control_expires_in():
            provider.token_lifetime(request.get_json()["seconds"])
            return jsonify(ok=True)

        @app.post("/_control/expire")
        def control_expire():
            provider.expire(request.get_json()["access_token"])
            return jsonify(ok=True)

        @app.get("/_control/codes")
        def control_codes():
            return jsonify(provider.code_list())

        @app.get("/_control/tokens")
        def control_tokens():
            return jsonify(provider.token_list())

        def answered():
            with provider.lock:
                return list(provider.requests)
        provider.control_routes(answered)


def s256_challenge(verifier: str) -> str:
    """PKCE's S256 code challenge of `verifier`."""
    import hashlib
    return b64url(hashlib.sha256(verifier.encode()).digest())


if __name__ == "__main__":
    running = OAuthProvider().start()
    print(f"test OAuth provider at {running.issuer}", flush=True)
    threading.Event().wait()
