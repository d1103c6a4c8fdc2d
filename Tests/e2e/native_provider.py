"""The tests' stand-in for the token checks a native app's token goes through: Google's tokeninfo and userinfo, and
Facebook's debug_token and Graph `me`, in a fakeserver.FakeServer (Flask) on a free loopback port. Everything is in
memory.

Endpoints (point a provider's `tokeninfo_endpoint` / `userinfo_endpoint` here):
  GET /tokeninfo?id_token=… | ?access_token=…   Google: 200 with the claims as strings ({"aud","azp","sub","email",
                                                "email_verified":"true","exp","expires_in","iss",…}); an unknown or
                                                refused token: 400 {"error":"invalid_token","error_description":"Invalid Value"}
  GET /oauth2/v3/userinfo                       Google: {"sub","name","email","email_verified"} for a Bearer access token
  GET /debug_token?input_token=…&access_token=<app id>|<app secret>
                                                Facebook: {"data":{"app_id","type":"USER","is_valid":true,"user_id",
                                                "expires_at",…}}; an unknown, refused or expired token: is_valid false
                                                with an error; a wrong app access token: 400 OAuthException
  GET /me, GET /v<N>/me                         Facebook Graph: {"id","name","email"?} for the token (Bearer header or
                                                access_token parameter); an unknown token: 400 OAuthException

An expired token is answered as if the provider still described it, with its expiry in the past, so that the check
frontdoor makes itself is what refuses it.

Control (Python methods; the same over HTTP as JSON posts to /_control/<name>):
  google_token(sub, aud, email=None, email_verified=True, name="", id_token=False, valid=True, expired=False) → token
  facebook_app(app_id, secret)                 the app whose access token debug_token accepts
  facebook_token(user_id, app_id, email=None, name="", valid=True, expired=False, me_id=None) → token
                                               (me_id: the id Graph `me` answers, when it should differ)
  reset()                                      tokens and the request log forgotten (apps stay)
  calls(path=None)                             the requests answered: (method, path, query dict), oldest first
"""
import base64
import json
import secrets
import threading
import time

from flask import jsonify, request

from fakeserver import FakeServer


GOOGLE_ISSUER = "https://accounts.google.com"
INVALID_GOOGLE = {"error": "invalid_token", "error_description": "Invalid Value"}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def facebook_error(message, code=190):
    return {"error": {"message": message, "type": "OAuthException", "code": code, "fbtrace_id": secrets.token_hex(8)}}


class NativeProvider(FakeServer):
    def __init__(self, host="127.0.0.1"):
        super().__init__("native_provider", host)
        self.lock = threading.RLock()
        self.apps = {}
        self.reset()
        self._routes()

    # MARK: - Control (Python side)

    def reset(self):
        with self.lock:
            self.google, self.facebook, self.requests = {}, {}, []

    def facebook_app(self, app_id, secret):
        with self.lock:
            self.apps[str(app_id)] = secret

    def google_token(self, sub, aud, email=None, email_verified=True, name="", id_token=False, valid=True, expired=False):
        """A token for `sub` issued to the client `aud`; `id_token`: shaped as a JWT (three dot-separated parts)."""
        now = int(time.time())
        exp = now - 600 if expired else now + 3600
        claims = {"sub": str(sub), "aud": aud, "azp": aud, "exp": exp, "iat": now - 60}
        if email is not None:
            claims.update(email=email, email_verified=bool(email_verified))
        if id_token:
            claims.update(iss=GOOGLE_ISSUER, name=name)
            header = {"alg": "RS256", "kid": "native-test", "typ": "JWT"}
            token = ".".join([b64url(json.dumps(header).encode()), b64url(json.dumps(claims).encode()),
                              b64url(secrets.token_bytes(64))])
        else:
            token = "ya29." + secrets.token_urlsafe(32)
        with self.lock:
            self.google[token] = {"claims": claims, "name": name, "id_token": id_token, "valid": valid}
        return token

    def facebook_token(self, user_id, app_id, email=None, name="", valid=True, expired=False, me_id=None):
        now = int(time.time())
        token = "EAA" + secrets.token_urlsafe(32)
        with self.lock:
            self.facebook[token] = {"user_id": str(user_id), "app_id": str(app_id), "email": email, "name": name,
                                    "valid": valid, "expires_at": now - 600 if expired else now + 3600,
                                    "me_id": str(me_id if me_id is not None else user_id)}
        return token

    def calls(self, path=None):
        with self.lock:
            return [call for call in self.requests if path is None or call[1] == path]

    # MARK: - The endpoints

    def google_tokeninfo(self, args):
        if ("id_token" in args) == ("access_token" in args):
            return INVALID_GOOGLE, 400
        token = args.get("id_token") or args.get("access_token")
        with self.lock:
            entry = self.google.get(token)
        if entry is None or not entry["valid"] or entry["id_token"] != ("id_token" in args):
            return INVALID_GOOGLE, 400
        claims = entry["claims"]
        answer = {key: str(value).lower() if isinstance(value, bool) else str(value) for key, value in claims.items()}
        if entry["id_token"]:
            answer.update(alg="RS256", kid="native-test", typ="JWT")
        else:
            answer.pop("iat", None)
            answer.update(expires_in=str(max(0, claims["exp"] - int(time.time()))), access_type="online",
                          scope="openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile")
        return answer, 200

    def google_userinfo(self, token):
        with self.lock:
            entry = self.google.get(token)
        if entry is None or entry["id_token"] or not entry["valid"] or entry["claims"]["exp"] < time.time():
            return {"error": "invalid_request", "error_description": "Invalid Credentials"}, 401
        claims = entry["claims"]
        answer = {"sub": claims["sub"], "name": entry["name"]}
        if "email" in claims:
            answer.update(email=claims["email"], email_verified=claims["email_verified"])
        return answer, 200

    def facebook_debug_token(self, args):
        app_id, _, secret = args.get("access_token", "").partition("|")
        with self.lock:
            known_secret = self.apps.get(app_id)
            entry = self.facebook.get(args.get("input_token", ""))
        if known_secret is None or not secrets.compare_digest(known_secret, secret):
            return facebook_error("Invalid OAuth access token signature."), 400
        if entry is None or not entry["valid"]:
            return {"data": {"error": {"code": 190, "message": "Invalid OAuth access token."}, "is_valid": False,
                             "scopes": []}}, 200
        data = {"app_id": entry["app_id"], "type": "USER", "application": "Native test app",
                "data_access_expires_at": entry["expires_at"] + 86400 * 90, "expires_at": entry["expires_at"],
                "is_valid": entry["expires_at"] > time.time(), "issued_at": entry["expires_at"] - 7200,
                "scopes": ["email", "public_profile"], "user_id": entry["user_id"]}
        if not data["is_valid"]:
            data["error"] = {"code": 190, "message": "Error validating access token: Session has expired.", "subcode": 463}
        return {"data": data}, 200

    def facebook_me(self, token):
        with self.lock:
            entry = self.facebook.get(token)
        if entry is None or not entry["valid"] or entry["expires_at"] < time.time():
            return facebook_error("Invalid OAuth access token data."), 400
        answer = {"id": entry["me_id"], "name": entry["name"]}
        if entry["email"]:
            answer["email"] = entry["email"]
        return answer, 200

    def _routes(self):
        app, provider = self.app, self

        def bearer():
            header = request.headers.get("Authorization", "")
            return header[7:].strip() if header.lower().startswith("bearer ") else request.args.get("access_token", "")

        @app.before_request
        def remember():
            with provider.lock:
                provider.requests.append((request.method, request.path, request.args.to_dict()))

        @app.get("/tokeninfo")
        def tokeninfo():
            body, status = provider.google_tokeninfo(request.args)
            return jsonify(body), status

        @app.get("/oauth2/v3/userinfo")
        def userinfo():
            body, status = provider.google_userinfo(bearer())
            return jsonify(body), status

        @app.get("/debug_token")
        @app.get("/<version>/debug_token")
        def debug_token(version=None):
            body, status = provider.facebook_debug_token(request.args)
            return jsonify(body), status

        @app.get("/me")
        @app.get("/<version>/me")
        def me(version=None):
            body, status = provider.facebook_me(bearer())
            return jsonify(body), status

        # Control API (tests only).
        @app.post("/_control/google_token")
        def control_google_token():
            return jsonify(token=provider.google_token(**request.get_json()))

        @app.post("/_control/facebook_token")
        def control_facebook_token():
            return jsonify(token=provider.facebook_token(**request.get_json()))

        @app.post("/_control/facebook_app")
        def control_facebook_app():
            provider.facebook_app(**request.get_json())
            return jsonify(ok=True)

        provider.control_routes(provider.calls)


if __name__ == "__main__":
    running = NativeProvider().start()
    print(f"test native-token provider at {running.base}", flush=True)
    threading.Event().wait()
