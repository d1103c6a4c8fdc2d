"""Google's and Facebook's browser sign-in through nginx in Chromium, against the tests' provider speaking each preset's
shape (oauth_provider.py): `google` is OpenID Connect (discovery, an RS256 ID token carrying the verified address,
HTTP Basic at the token endpoint); `facebook` is plain OAuth 2.0 (the secret in the form, a token answer without
refresh or ID token) with the person read from Graph's `me?fields=id,name,email`.

For each: the person signs up through the provider's consent page, lands signed in, and the gate (auth/check) answers
200 with their address in Remote-Email; signed out, they sign in again through the provider into the same account.
"""
import itertools

import pytest
import requests
from selenium.webdriver.common.by import By

from chromium_driver import page_wait
from http_client import REQUEST_TIMEOUT
from social import account_ids, identities, social_stack
from users import unique_email

SUBJECTS = itertools.count(10**15 + 7)   # each person of this module its own provider subject (numeric, as both use)


@pytest.fixture(scope="module")
def presets(tmp_path_factory, oauth_server):
    """Confirmation off, outbox mail; "google" (the google preset with its issuer on the tests' provider) and
    "facebook" (the facebook preset with its three endpoints there, in Facebook's paths)."""
    base = oauth_server.issuer
    providers = ({"id": "google", "kind": "google", "issuer": base},
                 {"id": "facebook", "kind": "facebook", "authorization_endpoint": base + "/v19.0/dialog/oauth",
                  "token_endpoint": base + "/v19.0/oauth/access_token",
                  "userinfo_endpoint": base + "/v19.0/me?fields=id,name,email"})
    yield from social_stack(tmp_path_factory, oauth_server, providers=providers)


# provider id → (button's name, the path of the consent page, the preset's scopes, its client authentication at the
# token endpoint, requests frontdoor must have made to the provider, requests of the other shapes it must not have made)
FLOWS = {
    "google": ("Google", "/authorize", "openid email profile", "client_secret_basic", {("POST", "/token"), ("GET", "/jwks")},
               {("GET", "/userinfo"), ("POST", "/v19.0/oauth/access_token"), ("GET", "/v19.0/me")}),
    "facebook": ("Facebook", "/v19.0/dialog/oauth", "email public_profile", "client_secret_post",
                 {("POST", "/v19.0/oauth/access_token"), ("GET", "/v19.0/me")},
                 {("POST", "/token"), ("GET", "/jwks"), ("GET", "/userinfo"), ("GET", "/.well-known/openid-configuration")}),
}


def gate(stack, token):
    """auth/check asked with only the session cookie `token`, as nginx's auth_request asks it."""
    return requests.get(stack.base + "/auth/check", headers={"Cookie": f"frontdoor_session={token}"},
                        allow_redirects=False, timeout=REQUEST_TIMEOUT)


@pytest.mark.parametrize("provider_id", list(FLOWS))
def test_chromium_signs_in_through_the_preset_and_passes_the_gate(presets, oauth_provider, chromium, provider_id):
    name, consent_path, scope, auth_method, used, unused = FLOWS[provider_id]
    sub, email = str(next(SUBJECTS)), unique_email(provider_id)
    oauth_provider.next_user(sub=sub, email=email, email_verified=True, name="Pat " + name)
    wait = page_wait(chromium)

    def through_the_provider(expected):
        chromium.get(presets.base + "/sign_in")
        chromium.find_element(By.CSS_SELECTOR, f"button[data-provider={provider_id}]").click()
        wait.until(lambda d: d.current_url.startswith(oauth_provider.issuer + consent_path))
        assert email in chromium.find_element(By.ID, "user").text
        assert chromium.find_element(By.ID, "scope").text == f"Scope: {scope}"
        chromium.find_element(By.ID, "approve").click()
        wait.until(lambda d: d.current_url.startswith(presets.base) and expected in d.find_element(By.TAG_NAME, "main").text)
        assert f"Signed in as {email}" in chromium.find_element(By.TAG_NAME, "main").text
        return chromium.get_cookie("frontdoor_session")["value"]

    token = through_the_provider(f"Welcome! Your account was created with {name}.")
    [account] = account_ids(presets, email)
    answer = gate(presets, token)
    assert answer.status_code == 200, answer.text
    [(username,)] = presets.query("SELECT username FROM account WHERE id = ?", account)
    assert (answer.headers["Remote-Email"], answer.headers["Remote-User"]) == (email, username)
    assert presets.query("SELECT verifiedAt IS NOT NULL FROM emailAddress WHERE accountId = ?", account) == [(True,)]
    [identity] = [i for i in identities(presets, provider_id) if i["subject"] == sub]
    assert identity["accountId"] == account and identity["email"] == email
    client_id = presets.social[provider_id]["client_id"]
    assert [t["auth_method"] for t in oauth_provider.token_list() if t["client_id"] == client_id] == [auth_method]
    asked = set(oauth_provider.requests)
    assert used <= asked and not unused & asked, f"{provider_id}: the preset's own endpoints only ({sorted(asked)})"

    chromium.delete_all_cookies()
    assert gate(presets, token).status_code == 200, "the first session is still live"
    again = through_the_provider("Signed in successfully.")
    assert again != token and account_ids(presets, email) == [account]
    answer = gate(presets, again)
    assert answer.status_code == 200 and answer.headers["Remote-Email"] == email
    assert gate(presets, "x" * 43).status_code == 401
