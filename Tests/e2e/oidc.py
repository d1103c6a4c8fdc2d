"""Frontdoor as an OpenID Connect provider, from the outside: what the OIDC tests (test_oidc_*.py) share.

- Client: one `oidc.clients` entry (docs/openid-connect.md); its secret is written to `<id>.secret` in the stack's
  folder, and the config names that file. oidc_stack() starts a stack (a module fixture does `yield from` it) with
  those clients and `oidc.*` settings; the stack gets `.clients` (by id) and `.issuer` (public_url + base path).
- discovery(), key_set(), verified(): the provider's metadata, its JWKS as joserfc keys, a JWT checked against them.
- id_token_claims(): an ID token checked as a relying party must (signature, iss, aud, exp, iat, nonce, azp).
- Person / new_person(): an account, signed in with an http_client.Browser (no JavaScript).
- authorize(): what a browser does with an authorization URL: follows redirects, signs in on Frontdoor's page when
  asked (or confirms it is the person, for prompt=login and max_age), answers the consent page, and stops at the redirect to the client (Outcome.location) or at a page that is
  not a redirect (Outcome.response: an error page).
- authlib_session() / sign_in_with_authlib(): Authlib's OAuth2Session as the client, code + PKCE S256 + nonce + state.
- BackChannelReceiver: a loopback HTTP server that takes back-channel logout POSTs and validates each logout token
  (signature with the JWKS, iss, aud, iat, exp, jti, events, sid, no nonce, typ logout+jwt).
"""
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urljoin, urlsplit

import requests
from authlib.integrations.requests_client import OAuth2Session
from authlib.common.security import generate_token
from joserfc import jwt
from joserfc.jwk import KeySet

from http_client import REQUEST_TIMEOUT, Browser, page_text
from ports import free_port
from stack import Stack, running
from hosts import run_cli
from users import unique_email
from waits import wait_for

PASSWORD = "correct horse battery"
LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout"


# MARK: - Clients and stacks


@dataclass
class Client:
    """One `oidc.clients` entry. Options left at their empty value are not written (Frontdoor's defaults apply)."""
    id: str
    redirect_uris: list
    public: bool = False
    name: str = ""
    scopes: str = ""
    allow: str = ""
    second_factor: str = ""
    first_party: bool = False
    subject: str = ""
    post_logout_redirect_uris: list = field(default_factory=list)
    backchannel_logout_uri: str = ""
    api_sign_in: bool = False
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(32))

    def __post_init__(self):
        if self.public:
            self.secret = None

    @property
    def redirect_uri(self):
        return self.redirect_uris[0]

    def yaml(self, folder):
        """The list item for this client, its secret written to `folder/<id>.secret` (mode 0600)."""
        lines = [f"    - id: {json.dumps(self.id)}"]
        if self.public:
            lines.append("      public: true")
        else:
            path = folder / f"{self.id}.secret"
            path.write_text(self.secret + "\n")
            path.chmod(0o600)
            lines.append(f"      secret_file: {json.dumps(str(path))}")
        lines.append(f"      redirect_uris: {json.dumps(self.redirect_uris)}")
        for key in ("name", "scopes", "allow", "second_factor", "subject", "backchannel_logout_uri"):
            if getattr(self, key):
                lines.append(f"      {key}: {json.dumps(getattr(self, key))}")
        if self.post_logout_redirect_uris:
            lines.append(f"      post_logout_redirect_uris: {json.dumps(self.post_logout_redirect_uris)}")
        for key in ("first_party", "api_sign_in"):
            if getattr(self, key):
                lines.append(f"      {key}: true")
        return "\n".join(lines) + "\n"


def oidc_section(folder, clients, settings=None, more_clients=""):
    """The config's `oidc:` section: `settings` (e.g. {"code_lifetime": "1s"}), then the clients' list, then
    `more_clients` (list items as text, e.g. copied from the docs)."""
    lines = ["oidc:"] + [f"  {key}: {json.dumps(str(value))}" for key, value in (settings or {}).items()]
    return "\n".join(lines) + "\n  clients:\n" + "".join(client.yaml(folder) for client in clients) + more_clients


def oidc_stack(tmp_path_factory, clients, settings=None, config=None, host="127.0.0.1", more_clients=""):
    """Generator for a started stack (confirmation off, outbox mail) with `clients` and `oidc.*` `settings`."""
    folder = tmp_path_factory.mktemp("oidc")
    values = {"confirmation.required": "false", "mail.transport": "outbox", **(config or {})}
    more = more_clients(folder) if callable(more_clients) else more_clients
    stack = Stack(folder, values, extra_yaml=oidc_section(folder, clients, settings, more), host=host)
    stack.clients = {client.id: client for client in clients}
    stack.issuer = stack.base
    yield from running(stack)


def callback_uri(name="callback"):
    """A loopback redirect URI nothing listens on: a test reads the redirect's Location and never follows it."""
    return f"http://127.0.0.1:{free_port()}/{name}"


# MARK: - Metadata, keys, tokens


def discovery(stack):
    """The provider's metadata (cached on the stack)."""
    if not getattr(stack, "metadata", None):
        answer = requests.get(stack.issuer + "/.well-known/openid-configuration", timeout=REQUEST_TIMEOUT)
        assert answer.status_code == 200, answer.text[:300]
        stack.metadata = answer.json()
    return stack.metadata


def key_set(stack):
    """The JWKS as published now, as joserfc keys."""
    answer = requests.get(discovery(stack)["jwks_uri"], timeout=REQUEST_TIMEOUT)
    assert answer.status_code == 200, answer.text[:300]
    return KeySet.import_key_set(answer.json())


def verified(stack, token, algorithms=("RS256", "ES256")):
    """A JWT whose signature one of the published keys checks: (header, claims). Fails the test otherwise."""
    decoded = jwt.decode(token, key_set(stack), algorithms=list(algorithms))
    return decoded.header, decoded.claims


def id_token_claims(stack, client, token, nonce=None, leeway=60):
    """The claims of an ID token checked as OpenID Connect Core 3.1.3.7 asks of a relying party."""
    header, claims = verified(stack, token)
    assert header.get("kid"), header
    assert claims["iss"] == stack.issuer
    audience = claims["aud"] if isinstance(claims["aud"], list) else [claims["aud"]]
    assert client.id in audience
    if len(audience) > 1:
        assert claims.get("azp") == client.id
    now = time.time()
    assert claims["exp"] > now - leeway and claims["iat"] <= now + leeway
    assert isinstance(claims["sub"], str) and 0 < len(claims["sub"]) <= 255 and claims["sub"].isascii()
    if nonce is not None:
        assert claims.get("nonce") == nonce
    return claims


# MARK: - People and browsers


@dataclass
class Person:
    browser: Browser
    email: str
    password: str = PASSWORD

    @property
    def username(self):
        return self.browser.stack.query("SELECT a.username FROM account a JOIN emailAddress e ON e.accountId = a.id "
                                        "WHERE e.address = ?", self.email)[0][0]

    @property
    def account_id(self):
        return self.browser.stack.query("SELECT accountId FROM emailAddress WHERE address = ?", self.email)[0][0]

    def sign_in(self):
        answer = self.browser.post("/sign_in", {"email": self.email, "password": self.password})
        assert answer.status_code == 303, page_text(answer)[:500]

    def set_display_name(self, name):
        """The name the profile settings page saves (the `name` claim)."""
        answer = self.browser.post("/settings", {"display_name": name, "username": self.username})
        assert answer.status_code == 303, page_text(answer)[:500]

    def sign_out(self):
        answer = self.browser.post("/sign_out", {})
        assert answer.status_code == 303, page_text(answer)[:500]


def new_person(stack, prefix="oidc", signed_in=True):
    """A new account (the stack does not ask for confirmation), signed in unless `signed_in` is False."""
    email = unique_email(prefix)
    person = Person(Browser(stack), email)
    answer = person.browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert answer.status_code in (200, 303), page_text(answer)[:500]
    person.browser = Browser(stack)   # whatever sign-up did, start from a browser with no session
    if signed_in:
        person.sign_in()
    return person


class Forms(HTMLParser):
    """The forms of a page: [{"action", "method", "fields": {name: value}, "buttons": [(name, value, text)]}]."""

    def __init__(self, text):
        super().__init__()
        self.forms, self.button = [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"action": attrs.get("action") or "", "method": (attrs.get("method") or "get").lower(),
                               "fields": {}, "buttons": []})
        elif not self.forms:
            return
        elif tag == "input" and attrs.get("name"):
            kind = (attrs.get("type") or "text").lower()
            if kind == "submit":
                self.forms[-1]["buttons"].append((attrs["name"], attrs.get("value") or "", attrs.get("value") or ""))
            elif kind not in ("checkbox", "radio") or "checked" in attrs:
                self.forms[-1]["fields"][attrs["name"]] = attrs.get("value") or ""
        elif tag == "button" and (attrs.get("type") or "submit").lower() == "submit":
            self.button = [attrs.get("name") or "", attrs.get("value") or "", ""]

    def handle_data(self, data):
        if self.button is not None:
            self.button[2] += data

    def handle_endtag(self, tag):
        if tag == "button" and self.button is not None and self.forms:
            self.forms[-1]["buttons"].append(tuple(part.strip() if i == 2 else part for i, part in enumerate(self.button)))
            self.button = None


def form_with_action(response, ending):
    """The first form on the page whose action's path ends with `ending`, or None."""
    for form in Forms(response.text).forms:
        if urlsplit(form["action"]).path.endswith(ending):
            return form
    return None


def submit(browser, response, form, choice=None, extra=None):
    """Sends `form` (from the page `response`; GET or POST, as it says) as a browser would, with the submit button
    whose name, value or text matches `choice` (a word, any case), and `extra` fields."""
    data = dict(form["fields"])
    if form["buttons"]:
        buttons = form["buttons"]
        if choice:
            buttons = [b for b in buttons if any(choice.lower() in part.lower() for part in b)] or buttons
        name, value, _ = buttons[0]
        if name:
            data[name] = value
    data.update(extra or {})
    target = urljoin(response.url, form["action"] or response.url)
    if form["method"] == "get":
        return browser.get(target.split("?", 1)[0], params=data)
    return browser.post(target, data, csrf=False)


@dataclass
class Outcome:
    location: str = None        # the redirect to the client (its redirect URI with code or error), when one came
    response: object = None     # the last answer: a page that was neither a redirect nor a form to fill in
    consented: bool = False     # the consent page was shown (and answered)
    signed_in: bool = False     # the sign-in page was shown (and filled in)

    @property
    def query(self):
        """The redirect's query (or fragment) parameters, one value each."""
        parts = urlsplit(self.location)
        return {key: values[0] for key, values in parse_qs(parts.query or parts.fragment).items()}


def authorize(person, url, consent="allow", sign_in=True, hops=12):
    """Follows `url` (an authorization request) as the person's browser: redirects inside Frontdoor are followed, the
    sign-in page (or "Confirm it's you") is filled in with the person's address and password when `sign_in`, the
    consent page is answered with the button matching `consent` ("allow" / "deny"); stops at a redirect that leaves
    Frontdoor's base (to the client) or at a page it cannot go on from."""
    browser, outcome = person.browser, Outcome()
    frontdoor = (browser.stack.base + "/", getattr(browser.stack, "issuer", browser.stack.base) + "/")
    answer = browser.get(url)
    for _ in range(hops):
        if answer.status_code in (301, 302, 303, 307):
            target = urljoin(answer.url, answer.headers["Location"])
            if not target.startswith(frontdoor):
                outcome.location = target
                return outcome
            answer = browser.get(target)
            continue
        if answer.status_code == 200 and sign_in and form_with_action(answer, "/sign_in"):
            outcome.signed_in = True
            form = form_with_action(answer, "/sign_in")
            answer = submit(browser, answer, form, extra={"email": person.email, "password": person.password})
            continue
        if answer.status_code == 200 and sign_in and form_with_action(answer, "settings/reauthenticate"):
            outcome.signed_in = True   # prompt=login, max_age: "Confirm it's you" with the password
            form = form_with_action(answer, "settings/reauthenticate")
            answer = submit(browser, answer, form, extra={"password": person.password})
            continue
        consent_form = form_with_action(answer, "oidc/consent") if answer.status_code == 200 else None
        if consent_form and consent:
            outcome.consented = True
            answer = submit(browser, answer, consent_form, consent)
            continue
        break
    outcome.response = answer
    return outcome


# MARK: - Authlib as the client


def authlib_session(stack, client, scope="openid profile email groups", **kw):
    """Authlib's OAuth2Session for `client`: PKCE S256, client_secret_basic (none for a public client)."""
    method = "none" if client.public else kw.pop("token_endpoint_auth_method", "client_secret_basic")
    return OAuth2Session(client.id, client.secret, scope=scope, redirect_uri=kw.pop("redirect_uri", client.redirect_uri),
                         code_challenge_method="S256", token_endpoint_auth_method=method, **kw)


@dataclass
class SignIn:
    session: OAuth2Session
    token: dict
    claims: dict
    nonce: str
    outcome: Outcome


def authorization_url(stack, session, **params):
    """(url, state, nonce, verifier) of a new authorization request (nonce and code_verifier made here)."""
    verifier, nonce = generate_token(64), params.pop("nonce", generate_token(20))
    url, state = session.create_authorization_url(discovery(stack)["authorization_endpoint"], code_verifier=verifier,
                                                  nonce=nonce, **params)
    return url, state, nonce, verifier


def sign_in_with_authlib(stack, client, person, scope="openid profile email groups", consent="allow", **params):
    """The whole code flow: Authlib makes the request, the person's browser answers it (authorize()), Authlib checks
    the state and redeems the code with the verifier; the ID token is checked (id_token_claims)."""
    session = authlib_session(stack, client, scope=scope)
    url, state, nonce, verifier = authorization_url(stack, session, **params)
    outcome = authorize(person, url, consent=consent)
    assert outcome.location, page_text(outcome.response)[:800] if outcome.response is not None else outcome
    assert outcome.query.get("state") == state, outcome.location
    assert "code" in outcome.query, outcome.location
    token = session.fetch_token(discovery(stack)["token_endpoint"], authorization_response=outcome.location,
                                code_verifier=verifier, state=state)
    claims = id_token_claims(stack, client, token["id_token"], nonce=nonce)
    return SignIn(session, token, claims, nonce, outcome)


def token_request(stack, client, data, auth="basic"):
    """A POST to the token endpoint (or any client-authenticated endpoint via data["_endpoint"]) with the client's
    credentials as `auth` says: "basic", "post" or None (public client: client_id in the form)."""
    data = dict(data)
    url = data.pop("_endpoint", None) or discovery(stack)["token_endpoint"]
    kw = {}
    if auth == "basic" and client.secret:
        kw["auth"] = (client.id, client.secret)
    elif auth == "post" and client.secret:
        data.update(client_id=client.id, client_secret=client.secret)
    else:
        data["client_id"] = client.id
    return requests.post(url, data=data, timeout=REQUEST_TIMEOUT, **kw)


def userinfo(stack, access_token):
    return requests.get(discovery(stack)["userinfo_endpoint"], headers={"Authorization": f"Bearer {access_token}"},
                        timeout=REQUEST_TIMEOUT)


# MARK: - Back-channel logout receiver


class BackChannelReceiver:
    """A loopback HTTP server taking back-channel logout requests for client `client_id` of `stack` (any path). Each logout
    token is validated (OpenID Connect Back-Channel Logout 1.0, 2.6) and kept in `received` as (claims, error):
    error None when it passed. Answers 200 to a valid token, 400 otherwise (as the spec asks)."""

    def __init__(self, client_id, stack=None):
        """`stack` may be set later (the receiver's URI goes into the stack's config before the stack exists)."""
        self.stack, self.client_id = stack, client_id
        self.received, self.lock = [], threading.Lock()
        self.port = free_port()
        self.uri = f"http://127.0.0.1:{self.port}/backchannel-logout"
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode()
                kind = self.headers.get("Content-Type", "")
                claims, error = receiver.validate(body, kind)
                with receiver.lock:
                    receiver.received.append((claims, error))
                self.send_response(200 if error is None else 400)
                self.send_header("Cache-Control", "no-store")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def validate(self, body, content_type):
        """(claims, None) for a valid logout token, (claims or None, reason) otherwise."""
        claims = None
        try:
            if not content_type.startswith("application/x-www-form-urlencoded"):
                return None, f"content type {content_type}"
            tokens = parse_qs(body).get("logout_token", [])
            if len(tokens) != 1:
                return None, "no single logout_token"
            header, claims = verified(self.stack, tokens[0])
            checks = [
                (header.get("typ") == "logout+jwt", f"typ {header.get('typ')}"),
                (claims.get("iss") == self.stack.issuer, f"iss {claims.get('iss')}"),
                (self.client_id in (claims.get("aud") if isinstance(claims.get("aud"), list) else [claims.get("aud")]),
                 f"aud {claims.get('aud')}"),
                (abs(time.time() - claims.get("iat", 0)) < 300, f"iat {claims.get('iat')}"),
                (claims.get("exp", 0) > time.time() - 60, f"exp {claims.get('exp')}"),
                (bool(claims.get("jti")), "no jti"),
                (isinstance(claims.get("events", {}).get(LOGOUT_EVENT), dict), f"events {claims.get('events')}"),
                (bool(claims.get("sid")), "no sid"),
                ("nonce" not in claims, "a nonce"),
            ]
            failed = [reason for ok, reason in checks if not ok]
            return claims, (", ".join(failed) or None)
        except Exception as error:   # a token that does not even parse or verify
            return claims, f"{type(error).__name__}: {error}"

    def valid_tokens(self):
        with self.lock:
            return [claims for claims, error in self.received if error is None]

    def wait_for_logout(self, sid, what="a back-channel logout"):
        """The claims of the first valid logout token naming `sid`, once one arrived."""
        return wait_for(lambda: next((c for c in self.valid_tokens() if c.get("sid") == sid), None), what=what)


def in_group(stack, person, group):
    """Makes `group` (if needed) and puts the person in it, with the operator's commands."""
    run_cli(stack, "group", "add", group)
    result = run_cli(stack, "user", "groups", person.email, "--add", group)
    assert result.returncode == 0, (result.stdout, result.stderr)
