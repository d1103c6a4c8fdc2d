"""The devise-ios API's provider rows: Google and Facebook tokens checked with native_provider.py standing in; a token
an app got from a provider's SDK signs in but is never kept for the backend in place of the web sign-in's tokens."""
import pytest
import requests

from api_client import Api
from http_client import REQUEST_TIMEOUT, Browser, page_text
from social import social_sign_in, social_stack
from users import unique_email
from devise_api import account_ids_of, check_user, check_error, registered, unique_id, unique_number, works

# MARK: - Provider tokens (native_provider.py stands in for Google and Facebook)

def provider_sign_in(stack, provider, token, uid=None, email=None):
    user = {"provider": provider, "oauth_token": token}
    if uid is not None:
        user["uid"] = uid
    if email is not None:
        user["email"] = email
    return Api(stack).post(f"/users/auth/{provider}", {"user": user})


def test_a_google_access_token_signs_up_then_in_to_the_same_account(provider_stack, native):
    client_id = provider_stack.social["google"]["client_id"]
    email, sub = unique_email("google"), unique_id("g")
    token = native.google_token(sub, client_id, email=email, name="Gina Google")
    body = check_user(provider_sign_in(provider_stack, "google", token, uid=sub, email=email), 201, email)
    assert works(Api(provider_stack).signed_in_as(body))
    assert native.calls("/tokeninfo")[-1][2] == {"access_token": token}
    rows = provider_stack.query("SELECT accountId, subject FROM socialIdentity WHERE provider = 'google' AND subject = ?", sub)
    assert rows == [(body["user"]["id"], sub)]
    again = check_user(provider_sign_in(provider_stack, "google", native.google_token(sub, client_id, email=email)), 201, email)
    assert again["user"]["id"] == body["user"]["id"]
    assert again["user"]["authenticationToken"] != body["user"]["authenticationToken"]


def test_a_google_id_token_for_a_native_client_id_signs_in(provider_stack, native):
    ios_client = provider_stack.social["google"]["native_client_ids"]
    email, sub = unique_email("gid"), unique_id("gid")
    token = native.google_token(sub, ios_client, email=email, name="Ida", id_token=True)
    check_user(provider_sign_in(provider_stack, "google", token, uid=sub), 201, email)
    assert native.calls("/tokeninfo")[-1][2] == {"id_token": token}


@pytest.mark.parametrize("case", ["other_client", "refused", "expired", "uid_mismatch", "unverified", "no_email"])
def test_google_tokens_that_do_not_check_out_are_refused(provider_stack, native, case):
    client_id = provider_stack.social["google"]["client_id"]
    email, sub = unique_email("gbad"), unique_id("gbad")
    options = {"email": email}
    if case == "other_client":
        client_id = "someone-else.apps.googleusercontent.com"
    elif case == "refused":
        options["valid"] = False
    elif case == "expired":
        options["expired"] = True
    elif case == "unverified":
        options["email_verified"] = False
    elif case == "no_email":
        options = {}
    token = native.google_token(sub, client_id, **options)
    error = check_error(provider_sign_in(provider_stack, "google", token, uid="someone-else" if case == "uid_mismatch" else sub), 422)
    if case in ("unverified", "no_email"):
        assert error["message"] == "Google did not give a verified email address. Sign in with " \
            "Google on the website once and give your address there, or sign up with your email address."
    else:
        assert error["message"] == "The Google token could not be verified."
    assert account_ids_of(provider_stack, email) == []
    assert provider_stack.query("SELECT COUNT(*) FROM socialIdentity WHERE subject = ?", sub) == [(0,)]


def test_a_facebook_token_is_checked_with_debug_token_and_graph_me(provider_stack, native):
    facebook = provider_stack.social["facebook"]
    email, user_id = unique_email("fb"), unique_number()
    token = native.facebook_token(user_id, facebook["client_id"], email=email, name="Fay Book")
    body = check_user(provider_sign_in(provider_stack, "facebook", token, uid=user_id, email=email), 201, email)
    (debug,) = native.calls("/debug_token")
    assert debug[2]["input_token"] == token and debug[2]["access_token"] == f"{facebook['client_id']}|{facebook['client_secret']}"
    assert [call[1] for call in native.calls() if call[1].endswith("/me")] == ["/v19.0/me"]
    assert works(Api(provider_stack).signed_in_as(body))
    assert provider_stack.query("SELECT accountId FROM socialIdentity WHERE provider = 'facebook' AND subject = ?", user_id) == \
        [(body["user"]["id"],)]


@pytest.mark.parametrize("case", ["other_app", "refused", "expired", "uid_mismatch", "me_differs", "no_email"])
def test_facebook_tokens_that_do_not_check_out_are_refused(provider_stack, native, case):
    facebook = provider_stack.social["facebook"]
    email, user_id = unique_email("fbbad"), unique_number()
    options = {"email": email, "name": "Nope"}
    app_id = "999999" if case == "other_app" else facebook["client_id"]
    if case == "refused":
        options["valid"] = False
    elif case == "expired":
        options["expired"] = True
    elif case == "me_differs":
        options["me_id"] = "424242"
    elif case == "no_email":
        options["email"] = None
    token = native.facebook_token(user_id, app_id, **options)
    error = check_error(provider_sign_in(provider_stack, "facebook", token, uid="1" if case == "uid_mismatch" else user_id), 422)
    if case == "no_email":
        assert error["message"] == "Facebook did not give a verified email address. Sign in with " \
            "Facebook on the website once and give your address there, or sign up with your email address."
    else:
        assert error["message"] == "The Facebook token could not be verified."
    assert account_ids_of(provider_stack, email) == []
    assert provider_stack.query("SELECT COUNT(*) FROM socialIdentity WHERE provider = 'facebook'") == \
        provider_stack.query("SELECT COUNT(*) FROM socialIdentity WHERE provider = 'facebook' AND subject != ?", user_id)


def test_a_provider_address_held_by_an_account_is_never_linked_silently(provider_stack, native):
    owner, body = registered(provider_stack)
    sub = unique_id("held")
    token = native.google_token(sub, provider_stack.social["google"]["client_id"], email=owner.email)
    error = check_error(provider_sign_in(provider_stack, "google", token, uid=sub), 422)
    assert error["message"] == ("This address already has an account. Sign in to it, then connect Google in the account "
                                "settings.")
    assert provider_stack.query("SELECT COUNT(*) FROM socialIdentity WHERE subject = ?", sub) == [(0,)]
    assert account_ids_of(provider_stack, owner.email) == [body["user"]["id"]]


def test_provider_sign_up_is_refused_when_sign_up_is_closed(closed_provider_stack, native):
    email, sub = unique_email("closed"), unique_id("closed")
    token = native.google_token(sub, closed_provider_stack.social["google"]["client_id"], email=email)
    check_error(provider_sign_in(closed_provider_stack, "google", token, uid=sub), 403)
    assert account_ids_of(closed_provider_stack, email) == []


# MARK: - The tokens kept for the backend


@pytest.fixture(scope="module")
def google_web_stack(tmp_path_factory, oauth_server, native_server):
    """A "google" provider whose web flow runs on the test OAuth provider (as issuer) and whose native tokens are checked
    with the stand-in's tokeninfo."""
    entry = {"id": "google", "kind": "google", "issuer": oauth_server.issuer, "tokeninfo_endpoint": native_server.base + "/tokeninfo"}
    yield from social_stack(tmp_path_factory, oauth_server, providers=(entry,))


def provider_token(stack, provider, email):
    return requests.get(stack.base + "/internal/provider_token", params={"email": email, "provider": provider},
                        timeout=REQUEST_TIMEOUT)


def test_a_native_google_token_keeps_the_tokens_the_web_sign_in_stored(google_web_stack, oauth_provider, native):
    stack, client_id = google_web_stack, google_web_stack.social["google"]["client_id"]
    email, sub = unique_email("gweb"), unique_id("gweb")
    oauth_provider.next_user(sub=sub, email=email, name="Wendy Web")
    browser = Browser(stack)
    social_sign_in(browser, "google")
    assert f"Signed in as {email}" in page_text(browser.get("/")) and len(account_ids_of(stack, email)) == 1
    [web] = [t for t in oauth_provider.token_list() if t["sub"] == sub]
    assert web["refresh_token"]
    assert provider_token(stack, "google", email).json()["access_token"] == web["access_token"]
    sealed = stack.query("SELECT sealedTokens, tokenExpiresAt FROM socialIdentity WHERE provider = 'google' AND subject = ?", sub)
    for token in (native.google_token(sub, client_id, email=email, id_token=True), native.google_token(sub, client_id, email=email)):
        check_user(provider_sign_in(stack, "google", token, uid=sub), 201, email)
        assert provider_token(stack, "google", email).json()["access_token"] == web["access_token"], \
            "neither an ID token nor a bare access token replaces the web sign-in's tokens"
        assert stack.query("SELECT sealedTokens, tokenExpiresAt FROM socialIdentity WHERE provider = 'google' AND subject = ?",
                           sub) == sealed


@pytest.mark.parametrize("provider", ["google", "facebook"])
def test_a_token_from_a_providers_sdk_is_not_kept_for_the_backend(provider_stack, native, provider):
    entry = provider_stack.social[provider]
    if provider == "google":
        email, uid = unique_email("gsdk"), unique_id("gsdk")
        token = native.google_token(uid, entry["client_id"], email=email, id_token=True)
    else:
        email, uid = unique_email("fbsdk"), unique_number()
        token = native.facebook_token(uid, entry["client_id"], email=email, name="Sid Kay")
    check_user(provider_sign_in(provider_stack, provider, token, uid=uid), 201, email)
    answer = provider_token(provider_stack, provider, email)
    assert answer.status_code == 404 and answer.json() == {"error": "not_found"}, answer.text
    assert provider_stack.query("SELECT sealedTokens FROM socialIdentity WHERE provider = ? AND subject = ?", provider, uid) == [(None,)]
