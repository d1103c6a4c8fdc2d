"""The devise-ios JSON API client of a stack (Api) and the digests and handles of its tokens."""
import base64
import hashlib
import json
import re

import requests

from http_client import REQUEST_TIMEOUT

API_HEADERS = {"Content-Type": "application/json", "Accept": "application/json"}
ISO_MILLIS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


class Api:
    """A devise-ios client of `stack`'s `<base>/v1`: every request sends Content-Type and Accept application/json
    (a body as JSON; DELETE none unless given), and X-User-Email + X-User-Token once `email` and `token` are set. No
    cookie jar: each call is a plain request. Every answer is checked to be JSON and to set no cookie."""

    def __init__(self, stack, email=None, token=None, user_agent=None):
        self.stack, self.email, self.token = stack, email, token
        self.base = stack.base + "/v1"
        self.extra = {"User-Agent": user_agent} if user_agent else {}

    def call(self, method, path, body=None, auth=True, headers=None, data=None):
        sent = {**API_HEADERS, **self.extra}
        if auth and self.email is not None and self.token is not None:
            sent.update({"X-User-Email": self.email, "X-User-Token": self.token})
        sent.update(headers or {})
        if body is not None:
            data = json.dumps(body)
        response = requests.request(method, self.base + path, data=data, headers=sent, timeout=REQUEST_TIMEOUT, allow_redirects=False)
        assert "Set-Cookie" not in response.headers, (method, path, response.headers["Set-Cookie"])
        assert response.headers.get("Content-Type", "").startswith("application/json"), (method, path, response.headers)
        return response

    def post(self, path, body=None, **kw):
        return self.call("POST", path, body, **kw)

    def put(self, path, body=None, **kw):
        return self.call("PUT", path, body, **kw)

    def delete(self, path, body=None, **kw):
        return self.call("DELETE", path, body, **kw)

    def signed_in_as(self, user_json):
        """Takes the email and token of a user JSON answer as this client's credentials; returns self."""
        self.email, self.token = user_json["user"]["email"], user_json["user"]["authenticationToken"]
        return self


def token_digest(token):
    """The stored digest of a session or API token (43 chars of base64url): SHA-256 of its 32 raw bytes."""
    return hashlib.sha256(base64.urlsafe_b64decode(token + "=")).digest()


def token_handle(token):
    """The handle the sessions page shows for a session or API token: the first 16 bytes of its digest, in hex."""
    return token_digest(token)[:16].hex()
