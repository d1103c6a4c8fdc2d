"""httpfuzz: the pieces of the HTTP-level fuzz (test_http_fuzz.py) — a raw-socket client, the signed-in material the
requests borrow (session cookies, CSRF tokens, API tokens), a seeded generator of hostile requests for every route and
method, and the bookkeeping (status histogram, bad answers, RSS samples, the figures block).

Requests are built as bytes, so they can carry what no HTTP library sends: invalid UTF-8 in the request line and
headers, junk methods, duplicate, huge or empty headers, and a Content-Length that does not match the body.
"""
import json
import random
import socket
import string
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import quote_plus

import requests

from http_client import CSRF, REQUEST_TIMEOUT, Browser
from users import unique_email

BASE = "/account"
PASSWORD = "correct horse battery"
MAX_BODY = 65536  # fastcgi.max_body_bytes (default); nginx's client_max_body_size is 1m
NGINX_MAX_BODY = 1024 * 1024
BAD_STATUSES = {500, 502, 503, 504}
FRONTDOOR_MARK = b"\r\nContent-Security-Policy: "  # frontdoor sets it on every answer; nginx's own answers lack it

# MARK: - The routes (relative to BASE) with the fields their forms or JSON bodies carry

FORM_FIELDS = {
    "": [], "sign_up": ["email", "password", "password_confirmation", "invite"],
    "sign_in": ["email", "password", "remember_me", "rd", "add"], "sign_out": ["rd"],
    "confirm": ["token"], "confirmation/new": ["email"], "password/new": ["email"],
    "password/edit": ["token", "password", "password_confirmation", "reset_password_token"],
    "browserid/sign_in": ["email", "password", "rd", "ephemeral"],
    "browserid/provision": [], "browserid/authenticate": [], "browserid/certify": ["email", "pubkey", "ephemeral"],
    "settings": ["language", "name", "display_name"],
    "settings/password": ["current_password", "password", "password_confirmation"],
    "settings/emails": ["email"], "settings/emails/resend": ["id"], "settings/emails/remove": ["id"],
    "settings/emails/primary": ["id"], "settings/sessions": [], "settings/sessions/revoke": ["handle"],
    "settings/sessions/revoke_others": [], "settings/delete": ["password", "current_password", "email"],
    "settings/reauthenticate": ["email", "password", "rd"], "switch": ["to", "back"],
    "language": ["lang", "back", "scope"], "settings/connections": [], "settings/connections/unlink": ["provider"],
    "auth/email": ["email"], "auth/link": ["email", "password"], "auth/pick": ["choice"], "internal/provider_token": [],
    "auth/check": [], "metrics": [], "verify": ["assertion", "audience"], "residences/confirm": ["token"],
    "auth/github": ["purpose", "rd", "invite"], "auth/github/callback": [], "health": [], "health/ready": [],
}
JSON_FIELDS = {
    "v1/users": ["email", "password", "passwordConfirmation", "currentPassword", "language", "displayName"],
    "v1/users/sign_in": ["email", "password"], "v1/users/sign_out": [],
    "v1/users/password": ["email", "resetPasswordToken", "password", "passwordConfirmation", "currentPassword"],
    "v1/users/auth/facebook": ["oauthToken", "uid", "email"], "v1/users/auth/google": ["oauthToken", "uid", "email"],
    "v1/users/auth/x": ["oauthToken", "uid", "code", "codeVerifier", "redirectUri"],
    "v1/users/auth/twitter": ["oauthToken", "uid", "code", "codeVerifier", "redirectUri"],
    "v1/residences": ["email"], "v1/residences/{id}/verify": ["secret"], "verify": ["assertion", "audience"],
    "v1/users/sign_in/second_factor": ["challenge", "code"],
}
ROOT_PATHS = ["/.well-known/browserid", "/", "/internal/frontdoor/check", "/favicon.ico", "/account", "/account/"]
QUERY_KEYS = ["token", "rd", "email", "state", "code", "provider", "account", "return_to", "site_name", "add",
              "invite", "error", "lang", "assertion", "audience"]
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
JUNK_METHODS = ["TRACE", "CONNECT", "PROPFIND", "MKCOL", "FOO", "get", "Post", "X" * 300, "G\xe9T", "BREW", "-", "PRI"]
GET_ONLY = {"", "confirm", "browserid/sign_in", "browserid/provision",
            "browserid/authenticate", "settings/sessions", "settings/connections", "internal/provider_token", "auth/check",
            "metrics", "auth/github/callback", "health", "health/ready"}
ROUTE_METHODS = {route: ["GET"] if route in GET_ONLY else ["GET", "POST"] for route in FORM_FIELDS}
ROUTE_METHODS.update({route: ["POST"] for route in ["browserid/certify", "settings/emails/resend",
                                                    "settings/emails/remove", "settings/emails/primary",
                                                    "settings/sessions/revoke", "settings/sessions/revoke_others", "switch",
                                                    "language", "settings/connections/unlink", "auth/github", "verify"]})
ROUTE_METHODS.update({"v1/users": ["POST", "PUT", "DELETE"], "v1/users/sign_in": ["POST"],
                      "v1/users/sign_out": ["DELETE"], "v1/users/password": ["POST", "PUT"],
                      "v1/users/auth/facebook": ["POST"], "v1/users/auth/google": ["POST"], "v1/residences": ["POST"],
                      "v1/residences/{id}/verify": ["POST"], "v1/users/auth/x": ["POST"], "v1/users/auth/twitter": ["POST"]})
ROUTE_METHODS.update({"v1/users/sign_in/second_factor": ["POST"]})
FORM_ROUTES = list(FORM_FIELDS)
API_ROUTES = list(JSON_FIELDS)

# MARK: - Values: valid ones the handlers accept, and the hostile ones


def invalid_utf8(rng):
    return rng.choice([b"\xff", b"\xfe\xff", b"\xc3", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf",
                       b"\xe2\x82", b"\x80\x80\x80", b"a\xffb"])


def percent_garbage(rng):
    return rng.choice([b"%", b"%z", b"%ZZ", b"%c3", b"%ff%fe", b"%00", b"%%%", b"%2", b"%u00e9", b"%C0%AF", b"%ED%A0%80",
                       b"+%+", b"%0d%0aSet-Cookie:%20x=1", b"%E2%82"])


def text_value(rng):
    return rng.choice(["", " ", "\t", "0", "-1", "1", "true", "null", "99999999999999999999999999", "1e309", "NaN",
                       "é", "日本語", "\u202e\u0041", "a\u0301", "\U0001F600" * 3, "\x00", "a\x00b", "\r\nX-Injected: 1",
                       "<script>alert(1)</script>", "' OR 1=1 --", "../../../etc/passwd", "https://evil.example/",
                       "//evil.example", "javascript:alert(1)", "/account/settings", "\\\\evil", "@", "a@", "@b",
                       "a@b", "x" * 129, "en", "fr", "de", "zz", "en-US", "1.5", "[]", "{}"])


def huge_value(rng):
    size = rng.choice([300, 1000, 5000, 20000, MAX_BODY - 50, MAX_BODY + 10])
    return rng.choice(["a", "é", "%", "&", "=", "\U0001F600"]) * (size // 4 if rng.random() < 0.3 else size)


def email_value(rng, material):
    choices = [lambda: unique_email("fuzz"), lambda: rng.choice(material.emails() or ["nobody@example.com"]),
               lambda: "UPPER-" + unique_email("case").upper(), lambda: " " + unique_email("space") + " ",
               lambda: "a" * 70 + "@" + "b" * 250 + ".com", lambda: "user@[127.0.0.1]", lambda: "\"quoted\"@example.com",
               lambda: "user@exämple.com", lambda: "user+tag@example.com", lambda: "no-at-sign", lambda: "a@@b.c"]
    return rng.choice(choices)()


def field_value(rng, name, material):
    """A value for field `name`: mostly plausible (so handlers go deep), otherwise hostile (text or bytes)."""
    roll = rng.random()
    if roll < 0.55:
        if "email" in name or name in ("to", "uid"):
            return email_value(rng, material)
        if "password" in name:
            return rng.choice([PASSWORD, PASSWORD, "staple battery horse", "short", "x" * 200, ""])
        if name in ("rd", "back", "return_to"):
            return rng.choice(["/account/settings", "/", "http://127.0.0.1/", "https://evil.example/x", "//evil", ""])
        if name in ("remember_me", "add", "ephemeral"):
            return rng.choice(["1", "0", "true", "on", ""])
        if name in ("language", "lang"):
            return rng.choice(["en", "fr", "de", "xx", "", "EN", "en-GB"])
        if name in ("id", "handle", "account"):
            return rng.choice(["1", "2", "0", "-1", "abc", "9" * 40, material.handle(rng)])
        if name == "csrf_token":
            return material.csrf_for(rng, material.sender)
        return text_value(rng)
    if roll < 0.8:
        return text_value(rng)
    if roll < 0.9:
        return huge_value(rng)
    return invalid_utf8(rng) + rng.choice([b"", b"x", percent_garbage(rng)])


def encode_value(rng, value):
    """A form or query value as bytes: properly percent-encoded, or sent raw."""
    if isinstance(value, bytes):
        return value
    if rng.random() < 0.85:
        return quote_plus(value).encode()
    return value.encode("utf-8", "surrogatepass")


# MARK: - The signed-in material requests borrow


@dataclass
class Slot:
    """One browser (signed in when `email` is set) and its cookies and CSRF token, refreshed between chunks."""
    browser: Browser
    email: str = ""
    remember: bool = False
    cookie: str = ""
    csrf: str = ""


@dataclass
class ApiSlot:
    email: str = ""
    token: str = ""


class Material:
    """Real credentials on the stack: signed-in browser sessions (one remembered), an anonymous browser with its
    pre-session CSRF cookie, and an API token. `refresh` checks each still works and signs in again (or signs up a new
    account) when the fuzz signed it out, changed its password or deleted it."""

    def __init__(self, stack):
        self.stack = stack
        self.slots = [Slot(Browser(stack)), Slot(Browser(stack), remember=True)]
        self.anonymous = Slot(Browser(stack))
        self.api = ApiSlot()
        self.renewals = 0
        self.sender = None  # the slot whose cookies the request being generated carries, if any

    def emails(self):
        return [slot.email for slot in self.slots if slot.email] + ([self.api.email] if self.api.email else [])

    def handle(self, rng):
        return rng.choice(["00" * 16, "ff" * 16, "zz", ""])

    def csrf_for(self, rng, slot=None):
        """The CSRF token of `slot` (the request's sender) mostly, else another browser's."""
        if slot is not None and rng.random() < 0.8:
            return slot.csrf
        return rng.choice([slot.csrf for slot in self.slots + [self.anonymous]])

    def refresh(self):
        for slot in self.slots:
            if not slot.email or not self.signed_in(slot):
                self.sign_in(slot)
            slot.cookie = cookie_header(slot.browser)
        if not self.anonymous.csrf:
            self.anonymous.csrf = self.anonymous.browser.token("/sign_in")
            self.anonymous.cookie = cookie_header(self.anonymous.browser)
        if not self.api.token or not self.api_works():
            self.api_sign_in()

    def signed_in(self, slot):
        return slot.browser.get("/settings").status_code == 200

    def sign_in(self, slot):
        """Signs the slot's browser in again, or (account deleted, password changed, locked) into a new account."""
        slot.browser.session.cookies.clear()
        if not slot.email or self.post_sign_in(slot) != 303:
            slot.email = unique_email("fuzzpool")
            answer = slot.browser.post("/sign_up", {"email": slot.email, "password": PASSWORD,
                                                    "password_confirmation": PASSWORD})
            assert answer.status_code == 303, (answer.status_code, answer.text[:300])
            if slot.remember:
                slot.browser.session.cookies.clear()
                assert self.post_sign_in(slot) == 303
        self.renewals += 1
        slot.csrf = CSRF.search(slot.browser.get("/settings").text).group(1)

    @staticmethod
    def post_sign_in(slot):
        form = {"email": slot.email, "password": PASSWORD, "remember_me": "1" if slot.remember else ""}
        return slot.browser.post("/sign_in", form).status_code

    def api_works(self):
        answer = requests.put(self.stack.base + "/v1/users", data='{"user":{}}', timeout=REQUEST_TIMEOUT,
                              headers={"Content-Type": "application/json", "X-User-Email": self.api.email,
                                       "X-User-Token": self.api.token})
        return answer.status_code == 200

    def api_sign_in(self):
        self.api.email = unique_email("fuzzapi")
        answer = requests.post(self.stack.base + "/v1/users", timeout=REQUEST_TIMEOUT, headers={"Content-Type": "application/json"},
                               data=json.dumps({"user": {"email": self.api.email, "password": PASSWORD}}))
        assert answer.status_code == 201, (answer.status_code, answer.text)
        self.api.token = answer.json()["user"]["authenticationToken"]
        self.renewals += 1


def cookie_header(browser):
    return "; ".join(f"{c.name}={c.value}" for c in browser.session.cookies)


# MARK: - The request on the wire, and sending it


@dataclass
class Wire:
    """One request as bytes. `truncated`: it declares more body than it sends (the client then closes its side, so
    nginx may give up without answering)."""
    raw: bytes
    label: str
    truncated: bool = False
    route: str = ""
    method: str = ""


@dataclass
class Answer:
    status: object  # an int, or "no answer" / "timeout" / "refused"
    head: bytes = b""
    seconds: float = 0.0


def send(port, wire, timeout=60.0):
    """Sends `wire` to nginx on its own connection and reads the whole answer; returns its final status. `timeout`
    bounds each socket operation: a hang is a bad answer, but a slow one on a loaded machine is not."""
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
            try:
                connection.sendall(wire.raw)
                if wire.truncated:
                    connection.shutdown(socket.SHUT_WR)
            except (BrokenPipeError, ConnectionResetError):
                pass  # nginx may answer (say 413) and close before reading everything: read what it said
            data = read_all(connection)
    except socket.timeout:
        return Answer("timeout", seconds=time.monotonic() - started)
    except ConnectionRefusedError:
        return Answer("refused", seconds=time.monotonic() - started)
    return parse_answer(data, time.monotonic() - started)


def read_all(connection):
    chunks = []
    while True:
        try:
            chunk = connection.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def parse_answer(data, seconds):
    """The status of the last status line before the body (1xx interim answers skipped)."""
    while data.startswith(b"HTTP/"):
        head, _, rest = data.partition(b"\r\n\r\n")
        parts = head.split(b"\r\n", 1)[0].split(b" ", 2)
        status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else "unparsable"
        if isinstance(status, int) and 100 <= status < 200:
            data = rest
            continue
        return Answer(status, head[:2000], seconds)
    return Answer("no answer", data[:200], seconds)


# MARK: - The generator


class Generator:
    """A seeded stream of hostile requests: each picks a target, a method, who sends it, a body, a query, headers and
    a framing, independently, so every combination comes up."""

    def __init__(self, seed, port, material):
        self.rng = random.Random(seed)
        self.port = port
        self.material = material

    def request(self):
        rng = self.rng
        route, path = self.target()
        method = self.method(route)
        cookies, headers = self.identity()
        body, content_type, kind = self.body(route, method)
        query = self.query()
        headers += self.headers(content_type)
        line_path = path + (b"?" + query if query else b"")
        version = rng.choice([b"HTTP/1.1"] * 60 + [b"HTTP/1.0"] * 3 + [b"HTTP/1.2", b"HTTP/2.0", b"FOO/1.1", b"HTTP/1.1 x"])
        if cookies:
            headers.append((b"Cookie", cookies))
        raw, truncated, framing = self.frame(method, line_path, version, headers, body)
        label = f"{method.decode('latin-1')[:12]} {route or '(root)'} {kind} {framing}"
        return Wire(raw, label, truncated, route, method.decode("latin-1"))

    # The target

    def target(self):
        rng = self.rng
        roll = rng.random()
        if roll < 0.6:
            route = rng.choice(FORM_ROUTES)
        elif roll < 0.85:
            route = rng.choice(API_ROUTES)
        elif roll < 0.92:
            path = rng.choice(ROOT_PATHS)
            return path, path.encode()
        else:
            return "junk path", self.junk_path()
        text = route.replace("{id}", rng.choice(["abc", "0", "x" * 300, "%2F", "..", "é", "%ff", "a b"]))
        path = (BASE + "/" + text).encode() if text else (BASE + "/").encode()
        if rng.random() < 0.06:
            path = self.mutate_path(path)
        return route, path

    def mutate_path(self, path):
        rng = self.rng
        return rng.choice([path + b"/", path.replace(b"/", b"//"), path + b"/.", path + b"/..", path + b"%00",
                           path + b"%ff", path + invalid_utf8(rng), path.replace(b"_", b"%5F"), path.upper(),
                           path + b";jsessionid=1", path + b"#frag", path.replace(b"/account", b"/account/./")])

    def junk_path(self):
        rng = self.rng
        return rng.choice([b"*", b"/account/../etc/passwd", b"/account/static/../../frontdoor.yml", b"/account/%2e%2e/x",
                           b"/account/" + b"a" * rng.choice([100, 3000, 9000]), b"http://evil.example/account/sign_in",
                           b"/account/v1", b"/account/v1/", b"/account/v1/users/nothing", b"/account/v1/residences//verify",
                           b"/account/no/such/page", b"/account/static/style.css", b"/account/internal/x",
                           b"/account/" + invalid_utf8(rng), b"/account/\x00", b"/account/ sign_in", b"", b"account",
                           b"/account/auth/nope", b"/account/auth/nope/callback", b"/%", b"/account/%"])

    def method(self, route):
        rng = self.rng
        roll = rng.random()
        if roll < 0.04:
            return rng.choice(JUNK_METHODS).encode("utf-8")
        if roll < 0.7 and route in ROUTE_METHODS:
            return rng.choice(ROUTE_METHODS[route]).encode()
        return rng.choice(METHODS).encode()

    # Who sends it

    def identity(self):
        """The Cookie header value (or None) and the identity headers (API credentials)."""
        rng, material = self.rng, self.material
        headers = []
        roll = rng.random()
        material.sender = None
        if roll < 0.45:
            material.sender = rng.choice(material.slots)
            cookies = material.sender.cookie
        elif roll < 0.6:
            material.sender = material.anonymous
            cookies = material.anonymous.cookie
        elif roll < 0.75:
            cookies = self.forged_cookies()
        elif roll < 0.8:
            cookies = self.garbage_cookies()
        else:
            cookies = ""
        if rng.random() < 0.3:
            headers += self.api_credentials()
        cookie_bytes = cookies.encode("utf-8", "surrogatepass") if isinstance(cookies, str) else cookies
        return cookie_bytes or None, headers

    def forged_cookies(self):
        rng, material = self.rng, self.material
        real = rng.choice(material.slots).cookie
        parts = dict(part.split("=", 1) for part in real.split("; ") if "=" in part)
        name = rng.choice(list(parts) + ["frontdoor_session", "frontdoor_csrf", "frontdoor_accounts", "frontdoor_lang",
                                         "frontdoor_flash", "frontdoor_oauth", "frontdoor_social_pending"])
        parts[name] = self.mutated_token(parts.get(name, ""))
        return "; ".join(f"{k}={v}" for k, v in parts.items())

    def mutated_token(self, token):
        rng = self.rng
        alphabet = string.ascii_letters + string.digits + "-_"
        options = ["".join(rng.choice(alphabet) for _ in range(43)), token[:-1], token + "A", token[::-1], "",
                   "=" * 43, token.replace("-", "+"), "x" * 5000, token + "." + token, "é" * 10, "\"" + token + "\"",
                   "%41" * 20, "null", "0"]
        if token:
            index = rng.randrange(len(token))
            options.append(token[:index] + rng.choice(alphabet) + token[index + 1:])
        return rng.choice(options)

    def garbage_cookies(self):
        rng = self.rng
        return rng.choice([b"=;=;;", b"frontdoor_session", b"frontdoor_session=; frontdoor_session=x",
                           b"a=" + b"b" * 9000, b"frontdoor_session=" + invalid_utf8(rng), b";;;;", b"=",
                           b"frontdoor_lang=" + text_value(rng).encode("utf-8", "surrogatepass"),
                           b"frontdoor_accounts=" + b"A" * rng.choice([10, 500, 4000]),
                           b"frontdoor_flash=" + percent_garbage(rng), b"$Version=1; frontdoor_session=\"x\"",
                           b" frontdoor_session = x ; ", b"\x00=\x00"])

    def api_credentials(self):
        rng, api = self.rng, self.material.api
        email = rng.choice([api.email, api.email, api.email.upper(), "", "nobody@example.com", "é@é"])
        token = rng.choice([api.token, api.token, self.mutated_token(api.token)])
        headers = [(b"X-User-Email", email.encode()), (b"X-User-Token", token.encode("utf-8"))]
        return rng.sample(headers, rng.choice([1, 2, 2, 2]))

    # The body

    def body(self, route, method):
        """(body bytes, Content-Type or None, a short name of the kind)."""
        rng = self.rng
        if method in (b"GET", b"HEAD") and rng.random() < 0.8:
            return b"", None, "no-body"
        roll = rng.random()
        if route in JSON_FIELDS and roll < 0.75 or roll < 0.12:
            return self.json_body(route)
        if roll < 0.8:
            return self.form_body(route)
        if roll < 0.88:
            return self.multipart_body(route)
        return self.other_body()

    def form_fields(self, route):
        rng, material = self.rng, self.material
        names = list(FORM_FIELDS.get(route, [])) or rng.sample(QUERY_KEYS, 2)
        fields = [(name, field_value(rng, name, material)) for name in names]
        if rng.random() < 0.85:
            token = material.csrf_for(rng, material.sender)
            fields.insert(rng.randrange(len(fields) + 1), ("csrf_token", token if rng.random() < 0.9
                                                           else self.mutated_token(token)))
        return self.mutate_fields(fields)

    def mutate_fields(self, fields):
        rng = self.rng
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            if not fields:
                break
            action = rng.choice(["drop", "duplicate", "rename", "unknown", "empty"])
            index = rng.randrange(len(fields))
            name, value = fields[index]
            if action == "drop":
                fields.pop(index)
            elif action == "duplicate":
                fields.insert(index, (name, field_value(rng, name, self.material)))
            elif action == "rename":
                fields[index] = (rng.choice([name.upper(), name + "[]", "", name + " ", "user[" + name + "]"]), value)
            elif action == "unknown":
                fields.append((rng.choice(["x", "_method", "utf8", "commit", "a" * 300]), text_value(rng)))
            else:
                fields[index] = (name, "")
        return fields

    def form_body(self, route):
        rng = self.rng
        fields = self.form_fields(route)
        pairs = []
        for name, value in fields:
            key = encode_value(rng, name)
            pairs.append(key if rng.random() < 0.03 else key + b"=" + encode_value(rng, value))
        separator = rng.choice([b"&"] * 12 + [b"&&", b";", b"&amp;"])
        body = separator.join(pairs)
        if rng.random() < 0.05:
            body += percent_garbage(rng)
        body = self.maybe_pad(body)
        content_type = rng.choice([b"application/x-www-form-urlencoded"] * 8 + [
            b"application/x-www-form-urlencoded; charset=UTF-8", b"application/x-www-form-urlencoded; charset=iso-8859-1",
            b"APPLICATION/X-WWW-FORM-URLENCODED", b"text/plain", None, b"", b"application/json"])
        return body, content_type, "form"

    def maybe_pad(self, body):
        """Now and then, a body padded to around fastcgi.max_body_bytes or past nginx's limit."""
        rng = self.rng
        if rng.random() < 0.03:
            target = rng.choice([MAX_BODY - 1, MAX_BODY, MAX_BODY + 1, 200000, NGINX_MAX_BODY + 1000])
            body += b"&pad=" + b"p" * max(0, target - len(body) - 5)
        return body

    def json_body(self, route):
        rng = self.rng
        names = JSON_FIELDS.get(route) or rng.sample(QUERY_KEYS, 2)
        fields = {name: self.json_value(name) for name in names if rng.random() < 0.85}
        roll = rng.random()
        if route.startswith("v1/users") and roll < 0.8:
            document = {"user": fields}
        elif route == "v1/residences" and roll < 0.5:
            document = {"residence": fields}
        else:
            document = fields
        document = self.mutate_json(document)
        body = document if isinstance(document, bytes) else json.dumps(document).encode()
        body = self.maybe_pad_json(body)
        content_type = rng.choice([b"application/json"] * 8 + [b"application/json; charset=utf-8", b"APPLICATION/JSON",
                                                                b"application/jsonx", b"text/json", None, b""])
        return body, content_type, "json"

    def json_value(self, name):
        rng = self.rng
        roll = rng.random()
        if roll < 0.6:
            value = field_value(rng, name, self.material)
            return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else value
        return rng.choice([None, True, False, 0, -1, 1.5, 10**30, -10**30, 1e308, [], {}, [1, "a"], {"a": {"b": 1}},
                           "\ud800", "\x00", "é" * 1000])

    def mutate_json(self, document):
        rng = self.rng
        roll = rng.random()
        if roll < 0.6:
            return document
        if roll < 0.7:
            depth = rng.choice([50, 500, 5000, 30000])
            opener, closer = rng.choice([(b"[", b"]"), (b'{"a":', b"}")])
            return opener * depth + b"1" + closer * depth * (rng.random() < 0.7)
        if roll < 0.8:
            return rng.choice([b"1" * rng.choice([400, 5000, 60000]), b"1e999999", b"-0", b"NaN", b"[1e400]",
                               b'{"user":{"email":1e400}}', b'{"user":{"password":123456789012345678901234567890123}}',
                               b'{"user":{"email":-0.0e-999999}}', b"0." + b"1" * 5000])
        if roll < 0.9:
            text = json.dumps(document).encode()
            cut = rng.randrange(len(text) + 1)
            return rng.choice([text[:cut], text + b"garbage", b"\xef\xbb\xbf" + text, text.replace(b'"', b"'"),
                               text[:cut] + invalid_utf8(rng) + text[cut:], b'{"user":{"email":"\\ud800\\udc00\\ud800"}}',
                               b'{"a":1,"a":2,"user":{"email":"x"},"user":[]}', b"/* c */" + text, b"", b"  \n\t "])
        return rng.choice([[], [document], "string", 42, None, True, {"user": "text"}, {"user": [document]},
                           {"user": {"user": document}}])

    def maybe_pad_json(self, body):
        rng = self.rng
        if rng.random() < 0.03:
            size = rng.choice([MAX_BODY - 20, MAX_BODY + 1, 300000])
            return b'{"user":{"email":"' + b"a" * size + b'@example.com"}}'
        return body

    def multipart_body(self, route):
        rng = self.rng
        boundary = rng.choice([b"fuzzboundary", b"-" * 70, b"\xff\xfe", b"a b", b""])
        parts = []
        for name, value in self.form_fields(route):
            data = value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")
            parts.append(b"--" + boundary + b'\r\nContent-Disposition: form-data; name="' + name.encode() + b'"\r\n\r\n'
                         + data + b"\r\n")
        body = b"".join(parts) + (b"--" + boundary + b"--\r\n" if rng.random() < 0.8 else b"")
        declared = rng.choice([boundary, b"other", b""])
        return body, b"multipart/form-data; boundary=" + declared, "multipart"

    def other_body(self):
        rng = self.rng
        return rng.choice([
            (b"<?xml version='1.0'?><user><email>a@b</email></user>", b"application/xml", "xml"),
            (bytes(rng.randrange(256) for _ in range(rng.choice([1, 100, 3000]))), b"application/octet-stream", "binary"),
            (b"email=a%40b.c", b"text/plain; charset=utf-8", "text"),
            (b"\x1f\x8b\x08\x00garbage", b"application/x-www-form-urlencoded", "fake-gzip"),
            (b"x" * 100, invalid_utf8(rng), "bad-content-type"),
            (b"a=b", b"application/x-www-form-urlencoded; charset=" + b"x" * 2000, "long-content-type"),
        ])

    # Query string and headers

    def query(self):
        rng = self.rng
        if rng.random() < 0.5:
            return b""
        pairs = []
        for _ in range(rng.choice([1, 1, 2, 3, 6])):
            key = rng.choice(QUERY_KEYS).encode() if rng.random() < 0.9 else encode_value(rng, text_value(rng))
            value = field_value(rng, key.decode("latin-1"), self.material)
            if len(value) > 2000 and rng.random() < 0.9:
                value = value[:2000]
            pairs.append(key + b"=" + (encode_value(rng, value).replace(b" ", b"%20").replace(b"#", b"%23")))
        query = b"&".join(pairs)
        if rng.random() < 0.05:
            query += percent_garbage(rng) + invalid_utf8(rng)
        if rng.random() < 0.02:
            query += b"&q=" + b"x" * rng.choice([7000, 9000, 20000])
        return query.replace(b"\r", b"%0D").replace(b"\n", b"%0A")

    def headers(self, content_type):
        """Host, Content-Type and a few of the headers Frontdoor or nginx read, often garbage."""
        rng = self.rng
        headers = []
        host_roll = rng.random()
        if host_roll < 0.95:
            headers.append((b"Host", f"127.0.0.1:{self.port}".encode()))
        elif host_roll < 0.97:
            headers.append((b"Host", rng.choice([b"", b"evil.example", b"a" * 5000, invalid_utf8(rng), b"[::1]:80",
                                                 b"127.0.0.1:99999", b"x y", b"evil.example:80@127.0.0.1"])))
        if content_type is not None:
            headers.append((b"Content-Type", content_type))
        for _ in range(rng.choice([0, 1, 1, 2, 3, 5])):
            headers.append(self.extra_header())
        if rng.random() < 0.02:
            headers += [(b"X-Many-" + str(i).encode(), b"v") for i in range(rng.choice([50, 150]))]
        return headers

    def extra_header(self):
        rng = self.rng
        name = rng.choice([b"Accept-Language", b"Accept-Language", b"X-Forwarded-For", b"X-Forwarded-Proto",
                           b"X-Forwarded-Host", b"Authorization", b"User-Agent", b"Accept", b"Origin", b"Referer",
                           b"X-Original-URL", b"X-Original-Method", b"X-Real-IP", b"Content-Encoding", b"Expect",
                           b"Range", b"If-None-Match", b"Forwarded", b"X-Requested-With", b"Remote-User",
                           b"Remote-Email", b"X-User-Email", b"X-User-Token", b"Cookie", b"Content-Type", b"Upgrade",
                           b"Sec-Fetch-Site"])
        value = rng.choice([
            b"", b"*", b"en", b"fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", b"xx-YY;q=abc", b"en;q=1.5,fr;q=-1",
            b",".join([b"en-US"] * 2000), b";;;,,,", b"de-DE-x-private-" + b"a" * 100, b"Bearer " + b"A" * 4000,
            b"Bearer", b"Bearer \xff\xfe", b"Basic Zm9vOmJhcg==", b"1.2.3.4, 5.6.7.8", b"::1", b"not-an-ip",
            b"https", b"gopher", b"evil.example", b"gzip", b"100-continue", b"bytes=0-1", b"bytes=9-0,1-",
            b"application/json", b"text/html;q=0", b"null", b"http://evil.example", b"websocket",
            b"x" * rng.choice([100, 3000, 7000]), invalid_utf8(rng), percent_garbage(rng),
            b"a\x00b", b"\t leading and trailing \t", b"for=\"[::1]\";proto=https;by=x"])
        if name == b"Accept-Language" and rng.random() < 0.5:
            value = rng.choice([b"fr", b"de", b"en-GB,en;q=0.9", b"zz", b"*;q=0", b"fr;q=0.000001"])
        return name, value

    # Framing: Content-Length, Transfer-Encoding, and header-level damage

    def frame(self, method, line_path, version, headers, body):
        rng = self.rng
        roll = rng.random()
        truncated = False
        framing = "length"
        if body or method not in (b"GET", b"HEAD"):
            if roll < 0.82:
                headers.append((b"Content-Length", str(len(body)).encode()))
            elif roll < 0.87:
                framing = "chunked"
                headers.append((b"Transfer-Encoding", b"chunked"))
                body = self.chunked(body)
            elif roll < 0.9:
                framing = "longer-length"
                truncated = True
                headers.append((b"Content-Length", str(len(body) + rng.choice([1, 100, 10000])).encode()))
            elif roll < 0.93:
                framing = "shorter-length"
                headers.append((b"Content-Length", str(max(0, len(body) - rng.choice([1, 5, 100]))).encode()))
            elif roll < 0.96:
                framing = "no-length"
            else:
                framing = "bad-length"
                headers += rng.choice([[(b"Content-Length", b"abc")], [(b"Content-Length", b"-1")],
                                       [(b"Content-Length", b"1e3")], [(b"Content-Length", b"99999999999999999999")],
                                       [(b"Content-Length", str(len(body)).encode())] * 2,
                                       [(b"Content-Length", b"1"), (b"Content-Length", b"2")],
                                       [(b"Content-Length", str(len(body)).encode()), (b"Transfer-Encoding", b"chunked")],
                                       [(b"Transfer-Encoding", b"gzip, chunked")]])
        headers.append((b"Connection", b"close"))
        if rng.random() < 0.05:
            headers = self.damage_headers(headers)
            framing += "+damaged-headers"
        if rng.random() < 0.5:
            rng.shuffle(headers)
        head = method + b" " + line_path + b" " + version + b"\r\n"
        head += b"".join(name + b": " + value + b"\r\n" for name, value in headers)
        return head + b"\r\n" + body, truncated, framing

    def chunked(self, body):
        rng = self.rng
        size = rng.choice([1, 7, 1000, 16384])
        chunks = [body[i:i + size] for i in range(0, len(body), size)]
        encoded = b"".join(f"{len(c):x}".encode() + b"\r\n" + c + b"\r\n" for c in chunks)
        ending = rng.choice([b"0\r\n\r\n"] * 8 + [b"zz\r\n\r\n", b"0\r\nX-Trailer: 1\r\n\r\n", b"fffffffffffffffff\r\n\r\n"])
        return encoded + ending

    def damage_headers(self, headers):
        rng = self.rng
        damage = rng.choice([(b"Bad Header", b"x"), (b"", b"empty-name"), (b"X-Folded", b"a\r\n continued"),
                             (b"X-No-Colon\r\nX-Next", b"1"), (b"X-Utf8-\xff", b"v"), (b"X-Huge", b"h" * 10000)])
        return headers + [damage]


# MARK: - Bookkeeping


@dataclass
class Tally:
    """Statuses seen, the bad answers (with the exact request), and RSS samples."""
    statuses: Counter = field(default_factory=Counter)
    bad: list = field(default_factory=list)
    rss: list = field(default_factory=list)  # (requests sent so far, VmRSS in kB)
    status_lines: dict = field(default_factory=dict)  # status → the first status line seen with it
    reached: set = field(default_factory=set)  # (route, method) pairs frontdoor itself answered
    from_frontdoor: int = 0
    sent: int = 0
    bad_total: int = 0
    slowest: float = 0.0

    def record(self, wire, answer):
        if FRONTDOOR_MARK in answer.head:
            self.reached.add((wire.route, wire.method))
            self.from_frontdoor += 1
        self.sent += 1
        self.statuses[answer.status] += 1
        self.status_lines.setdefault(answer.status, answer.head.split(b"\r\n", 1)[0])
        self.slowest = max(self.slowest, answer.seconds)
        if self.is_bad(wire, answer):
            self.bad_total += 1
            if len(self.bad) < 50:
                self.bad.append((wire, answer))

    @staticmethod
    def is_bad(wire, answer):
        if answer.status in BAD_STATUSES or answer.status in ("timeout", "refused", "unparsable"):
            return True
        return answer.status == "no answer" and not wire.truncated


def rss_kib(pid):
    """VmRSS of process `pid` in kB (from /proc/<pid>/status)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


def describe(wire, answer, limit=600):
    """The exact request (bytes, shortened in the middle when long) and the answer's head, for a report."""
    raw = wire.raw if len(wire.raw) <= limit else wire.raw[:limit // 2] + b"<...%d bytes...>" % len(wire.raw) + wire.raw[-limit // 2:]
    return f"{wire.label}: {answer.status}\n  request: {raw!r}\n  answer: {answer.head[:300]!r}"

