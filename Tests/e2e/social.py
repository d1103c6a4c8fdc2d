"""Social sign-in in the tests: the `social:` config section, stacks on the tests' OAuth/OIDC provider
(oauth_provider.py) or native-token stand-in (native_provider.py), and the browser's round trip through a provider."""
import json
import secrets
from urllib.parse import urljoin

from http_client import REQUEST_TIMEOUT
from stack import Stack, running


def social_provider_yaml(provider, entries, key_file):
    """The `social:` section for `entries` (dicts: id, client_id, client_secret, kind "oidc" or "github", and any
    option to write as is, overriding the defaults; an option set to None is left out). By default an "oidc" entry's
    issuer is `provider`, and a "github" entry's four endpoints are on `provider`."""
    lines = ["social:", f"  token_key_file: {json.dumps(str(key_file))}", '  token_allowed_addresses: "127.0.0.1, ::1"',
             "  http_timeout: 5s", "  providers:"]
    for entry in entries:
        kind = entry.get("kind", "oidc")
        options = {"id": entry["id"], "preset": kind}
        if kind == "oidc":
            options.update(issuer=provider.issuer, scopes="openid email profile")
        elif kind == "github":
            options.update(authorization_endpoint=provider.issuer + "/authorize", token_endpoint=provider.issuer + "/token",
                           userinfo_endpoint=provider.issuer + "/user", emails_endpoint=provider.issuer + "/user/emails")
        options.update({k: v for k, v in entry.items() if k != "kind"})
        written = [(k, v) for k, v in options.items() if v is not None]
        for index, (key, value) in enumerate(written):
            lines.append(f"    {'- ' if index == 0 else '  '}{key}: {json.dumps(str(value))}")
    return "\n".join(lines) + "\n"


# The providers a social stack has by default: "corp" (OIDC, named "Corp SSO") and "github" (the github preset, with
# its endpoints on the test provider).
SOCIAL_PROVIDERS = ({"id": "corp", "kind": "oidc", "name": "Corp SSO"}, {"id": "github", "kind": "github"})


def social_stack(tmp_path_factory, provider, config=None, providers=SOCIAL_PROVIDERS, extra_yaml=""):
    """Generator for a stack with social sign-in providers on `provider` (a fixture does `yield from` it).

    Each entry gets its own client id and secret, registered with the provider with the exact redirect URI
    <base>/auth/<id>/callback. `config`: dotted settings (default: confirmation off, mail to an outbox folder).
    The stack's `social` attribute maps each provider id to its entry (client_id, client_secret, ...)."""
    folder = tmp_path_factory.mktemp("stack")
    entries = [{"client_id": f"{p['id']}-{secrets.token_hex(4)}", "client_secret": secrets.token_urlsafe(24), **p}
               for p in providers]
    settings = {"confirmation.required": "false", "mail.transport": "outbox", **(config or {})}
    stack = Stack(folder, settings, extra_yaml=social_provider_yaml(provider, entries, folder / "social-tokens.key") + extra_yaml)
    for entry in entries:
        provider.add_client(entry["client_id"], entry["client_secret"], [f"{stack.base}/auth/{entry['id']}/callback"])
    stack.social = {entry["id"]: entry for entry in entries}
    yield from running(stack)


def social_start(browser, provider_id, page="/sign_in", **fields):
    """Presses "Sign in with <provider>" on `page` (a form post to auth/<id>); returns frontdoor's answer (a 303 to
    the provider's authorization URL when all is well)."""
    data = {"csrf_token": browser.token(page), **fields}
    return browser.post(f"/auth/{provider_id}", data, csrf=False)


def through_provider(browser, start, decision="approve"):
    """Follows frontdoor's redirect `start` to the provider, answers its consent page with `decision`, and returns
    the callback URL the provider sends the browser back to (not followed, so a test can replay it)."""
    assert start.status_code == 303, (start.status_code, start.text[:500])
    authorize = start.headers["Location"]
    consent = browser.session.get(authorize, allow_redirects=False, timeout=REQUEST_TIMEOUT)
    if consent.status_code == 200:
        assert 'id="approve"' in consent.text, consent.text
        consent = browser.session.post(authorize, data={"decision": decision}, allow_redirects=False, timeout=REQUEST_TIMEOUT)
    assert consent.status_code == 302, (consent.status_code, consent.text[:500])
    return consent.headers["Location"]


def finish(browser, callback):
    """Goes to `callback` (absolute, or a path such as a Location header's) and follows frontdoor's redirects;
    returns the last response."""
    url = urljoin(browser.base + "/", callback)
    return browser.seen(browser.session.get(url, allow_redirects=True, timeout=REQUEST_TIMEOUT, verify=browser.verify))


def social_sign_in(browser, provider_id, decision="approve", page="/sign_in", **fields):
    """The whole round trip: button, provider, callback; returns the last page."""
    return finish(browser, through_provider(browser, social_start(browser, provider_id, page, **fields), decision))


def account_ids(stack, email):
    """The ids of the accounts holding `email` (normally none or one)."""
    return [row[0] for row in stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email.lower())]


def identities(stack, provider_id=None):
    """socialIdentity rows as dicts (optionally of one provider)."""
    if provider_id:
        return stack.records("SELECT * FROM socialIdentity WHERE provider = ?", provider_id)
    return stack.records("SELECT * FROM socialIdentity")


def native_stack(tmp_path_factory, provider, config=None):
    """Generator for a stack whose providers "google" and "facebook" (the presets) check native tokens with
    `provider`; every endpoint points there, so nothing leaves the machine. The stack's `social` attribute maps each id
    to its entry (client_id, client_secret, native_client_ids)."""
    folder = tmp_path_factory.mktemp("stack")
    google = {"id": "google", "kind": "google", "client_id": f"web-{secrets.token_hex(4)}.apps.googleusercontent.com",
              "client_secret": secrets.token_urlsafe(24), "native_client_ids": f"ios-{secrets.token_hex(4)}.apps.googleusercontent.com",
              "authorization_endpoint": provider.base + "/o/oauth2/v2/auth", "token_endpoint": provider.base + "/token",
              "userinfo_endpoint": provider.base + "/oauth2/v3/userinfo", "tokeninfo_endpoint": provider.base + "/tokeninfo"}
    facebook = {"id": "facebook", "kind": "facebook", "client_id": str(secrets.randbelow(10**15) + 10**15),
                "client_secret": secrets.token_hex(16), "native_client_ids": None,
                "authorization_endpoint": provider.base + "/v19.0/dialog/oauth",
                "token_endpoint": provider.base + "/v19.0/oauth/access_token",
                "userinfo_endpoint": provider.base + "/v19.0/me?fields=id,name,email",
                "tokeninfo_endpoint": provider.base + "/debug_token"}
    provider.facebook_app(facebook["client_id"], facebook["client_secret"])
    settings = {"confirmation.required": "false", "mail.transport": "outbox", **(config or {})}
    stack = Stack(folder, settings, extra_yaml=social_provider_yaml(provider, [google, facebook], folder / "social-tokens.key"))
    stack.social = {"google": google, "facebook": facebook}
    yield from running(stack)
