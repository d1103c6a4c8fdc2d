"""X (Twitter) sign-in end to end, with the test provider speaking X's shapes (oauth_provider.py): the web flow (PKCE
S256 at /i/oauth2/authorize, HTTP Basic at /2/oauth2/token, /2/users/me with no email) through the "X didn't give us a
verified address" page and a confirmation mail, back to the same account on the next sign-in; the provider's tokens
kept sealed for the backend (internal/provider_token, refreshed with Basic); and the native API
`POST v1/users/auth/x` (and `…/auth/twitter`) with an authorization code the app got with our client id, or, only where
the operator switched the form on (`native_access_tokens`), with a user access token checked at users/me, whose
session never counts as a recent sign-in.

Stack `x_stack`: confirmation on, mail through SMTP to the sink, one provider id "twitter" (preset twitter) whose three
endpoints are on the test provider; its client at the provider takes HTTP Basic only, and also knows the native
app's redirect URI NATIVE_REDIRECT. `x_tokens_stack`: the same with `native_access_tokens: true`.
"""
import itertools
import secrets
from urllib.parse import parse_qs, urlparse

import pytest
import requests
from selenium.webdriver.common.by import By

from api_client import Api
from chromium_driver import page_wait
from http_client import REQUEST_TIMEOUT, Browser, page_text
from mails import mail_text
from social import account_ids, identities, social_sign_in, social_stack, social_start
from users import unique_email
from waits import wait_for
from devise_api import NEW_PASSWORD, check_error, check_unauthorized, check_user, works
from oauth_provider import s256_challenge

PROVIDER = "twitter"
NATIVE_REDIRECT = "com.example.frontdoor:/x-callback"
SUBJECTS = itertools.count(2 * 10**9 + 1)  # X ids are numeric strings; each test user its own


def x_stack_with(tmp_path_factory, oauth_server, smtp, **options):
    issuer = oauth_server.issuer
    entry = {"id": PROVIDER, "kind": "twitter", "authorization_endpoint": issuer + "/i/oauth2/authorize",
             "token_endpoint": issuer + "/2/oauth2/token", "userinfo_endpoint": issuer + "/2/users/me", **options}
    config = {"confirmation.required": "true", **smtp.settings()}
    for stack in social_stack(tmp_path_factory, oauth_server, config, providers=(entry,)):
        client = stack.social[PROVIDER]
        oauth_server.add_client(client["client_id"], client["client_secret"],
                                [f"{stack.base}/auth/{PROVIDER}/callback", NATIVE_REDIRECT], auth_methods=("client_secret_basic",))
        yield stack


@pytest.fixture(scope="module")
def x_stack(tmp_path_factory, oauth_server, smtp):
    yield from x_stack_with(tmp_path_factory, oauth_server, smtp)


@pytest.fixture(scope="module")
def x_tokens_stack(tmp_path_factory, oauth_server, smtp):
    yield from x_stack_with(tmp_path_factory, oauth_server, smtp, native_access_tokens="true")


def x_person(provider):
    """The provider's next user: an X account (id, username, name) without any email; returns its id."""
    sub = str(next(SUBJECTS))
    provider.next_user(sub=sub, name="Xavier Post", login=f"xavier{sub[-4:]}")
    return sub


def signed_in_as(browser):
    home = browser.get("/")
    return page_text(home) if home.status_code == 200 else ""


def x_account(stack, provider, smtp):
    """A new X user who gave an address on the web and confirmed it in the same browser: (sub, email, account id)."""
    sub, email, browser = x_person(provider), unique_email("x"), Browser(stack)
    assert urlparse(social_sign_in(browser, PROVIDER).url).path == "/account/auth/email"
    assert "Check your email" in page_text(browser.post("/auth/email", {"email": email}, allow_redirects=True))
    assert browser.get(smtp.link(email, "/confirm?token=").replace("&amp;", "&")).status_code in (302, 303)
    [account] = account_ids(stack, email)
    return sub, email, account


def native_code(stack, provider, client_id=None, redirect=NATIVE_REDIRECT, verifier=None):
    """What a native app does with X's OAuth 2.0: PKCE authorize for `client_id` (default the stack's), approve, and
    read the code off its redirect. Returns (code, verifier)."""
    verifier = verifier or secrets.token_urlsafe(48)
    query = {"response_type": "code", "client_id": client_id or stack.social[PROVIDER]["client_id"], "redirect_uri": redirect,
             "scope": "users.read tweet.read offline.access", "state": secrets.token_urlsafe(12),
             "code_challenge": s256_challenge(verifier), "code_challenge_method": "S256"}
    url = provider.issuer + "/i/oauth2/authorize?" + requests.compat.urlencode(query)
    answer = requests.post(url, data={"decision": "approve"}, allow_redirects=False, timeout=REQUEST_TIMEOUT)
    assert answer.status_code == 302 and answer.headers["Location"].startswith(redirect), (answer.status_code, answer.text)
    return parse_qs(urlparse(answer.headers["Location"]).query)["code"][0], verifier


def another_apps_token(stack, provider):
    """A user access token for the provider's current user that another X app (its own client id and secret) got
    through X's ordinary flow: what any app the person authorised holds."""
    other, secret = "another-x-app-" + secrets.token_hex(4), secrets.token_urlsafe(24)
    provider.add_client(other, secret, [NATIVE_REDIRECT], auth_methods=("client_secret_basic",))
    code, verifier = native_code(stack, provider, client_id=other)
    answer = requests.post(provider.issuer + "/2/oauth2/token", auth=(other, secret), timeout=REQUEST_TIMEOUT,
                           data={"grant_type": "authorization_code", "code": code, "redirect_uri": NATIVE_REDIRECT,
                                 "code_verifier": verifier})
    assert answer.status_code == 200, answer.text
    token = answer.json()["access_token"]
    assert provider.token_for(token).client.client_id == other
    return token


def native_sign_in(stack, route="x", **user):
    return Api(stack).post(f"/users/auth/{route}", {"user": {"provider": "x", **user}})


# MARK: - The web flow


def test_the_authorization_request_is_x_shaped(x_stack, oauth_provider):
    start = social_start(Browser(x_stack), PROVIDER)
    assert start.status_code == 303
    location = start.headers["Location"]
    assert location.startswith(oauth_provider.issuer + "/i/oauth2/authorize?")
    query = {key: values[0] for key, values in parse_qs(urlparse(location).query).items()}
    assert query["client_id"] == x_stack.social[PROVIDER]["client_id"] and query["response_type"] == "code"
    assert query["scope"] == "users.read tweet.read offline.access" and query["code_challenge_method"] == "S256"
    assert len(query["code_challenge"]) == 43 and query["state"] and "nonce" not in query
    assert query["redirect_uri"] == f"{x_stack.base}/auth/{PROVIDER}/callback"


def test_chromium_signs_up_with_x_and_is_asked_for_an_address(x_stack, oauth_provider, smtp, chromium):
    sub, email = x_person(oauth_provider), unique_email("xchrome")
    wait = page_wait(chromium)
    chromium.get(x_stack.base + "/sign_in")
    button = chromium.find_element(By.CSS_SELECTOR, f"button[data-provider={PROVIDER}]")
    assert "Sign in with X" in button.text
    button.click()
    wait.until(lambda d: d.current_url.startswith(oauth_provider.issuer + "/i/oauth2/authorize"))
    assert "no email" in chromium.find_element(By.ID, "user").text
    chromium.find_element(By.ID, "approve").click()
    wait.until(lambda d: urlparse(d.current_url).path == "/account/auth/email")
    assert "X didn't give us a verified email address." in chromium.find_element(By.TAG_NAME, "main").text
    chromium.find_element(By.NAME, "email").send_keys(email)
    chromium.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait.until(lambda d: "Check your email" in d.find_element(By.TAG_NAME, "main").text)
    assert smtp.link(email, "/confirm?token=")
    [account] = account_ids(x_stack, email)
    assert [i["accountId"] for i in identities(x_stack, PROVIDER) if i["subject"] == sub] == [account]


def test_an_x_user_gives_an_address_confirms_it_and_lands_in_the_same_account_again(x_stack, oauth_provider, smtp):
    sub, email, browser = x_person(oauth_provider), unique_email("xweb"), Browser(x_stack)
    asked = social_sign_in(browser, PROVIDER)
    assert urlparse(asked.url).path == "/account/auth/email", asked.url
    assert "X didn't give us a verified email address." in page_text(asked) and 'name="email"' in asked.text
    assert [i for i in identities(x_stack, PROVIDER) if i["subject"] == sub] == []
    [issued] = [t for t in oauth_provider.token_list() if t["sub"] == sub]
    assert issued["auth_method"] == "client_secret_basic" and issued["grant_type"] == "authorization_code"
    assert ["POST", "/2/oauth2/token"] in [list(r) for r in oauth_provider.requests]
    assert ["GET", "/2/users/me"] in [list(r) for r in oauth_provider.requests]

    sent = browser.post("/auth/email", {"email": email}, allow_redirects=True)
    assert sent.status_code == 200 and "Check your email" in page_text(sent)
    [account] = account_ids(x_stack, email)
    assert x_stack.query("SELECT verifiedAt FROM emailAddress WHERE accountId = ?", account) == [(None,)]
    [identity] = [i for i in identities(x_stack, PROVIDER) if i["subject"] == sub]
    assert identity["accountId"] == account

    early = Browser(x_stack)
    assert "You have to confirm your email address" in page_text(social_sign_in(early, PROVIDER))
    assert not signed_in_as(early)

    # Followed in the browser that signed in with X: the address proves the X sign-in too, and the link stays.
    assert browser.get(smtp.link(email, "/confirm?token=").replace("&amp;", "&")).status_code in (302, 303)
    later = Browser(x_stack)
    social_sign_in(later, PROVIDER)
    assert f"Signed in as {email}" in signed_in_as(later)
    assert account_ids(x_stack, email) == [account]
    assert [i["accountId"] for i in identities(x_stack, PROVIDER) if i["subject"] == sub] == [account], "no second link"


def test_a_token_endpoint_refusal_creates_nothing(x_stack, oauth_provider):
    sub = x_person(oauth_provider)
    oauth_provider.misbehave("error_at_token")
    before = x_stack.count("socialIdentity"), x_stack.count("account")
    answer = social_sign_in(Browser(x_stack), PROVIDER)
    assert answer.status_code < 500 and urlparse(answer.url).path != "/account/auth/email"
    assert (x_stack.count("socialIdentity"), x_stack.count("account")) == before
    assert [t for t in oauth_provider.token_list() if t["sub"] == sub] == []


# MARK: - An address typed for someone else (account pre-hijacking)


def reset_password(stack, browser, smtp, email, password="a brand new passphrase"):
    """The owner of `email` asks for a reset link and sets `password` through it in `browser`; returns the reset page
    as shown before submitting, and the answer to the submission."""
    assert browser.post("/password/new", {"email": email}).status_code == 200
    link = smtp.link(email, "/password/edit?token=").replace("&amp;", "&")
    token = link.split("token=", 1)[1]
    shown = browser.get(link)
    assert shown.status_code == 200, page_text(shown)[:300]
    done = browser.post("/password/edit", {"token": token, "password": password, "password_confirmation": password})
    return shown, done


def test_an_x_user_who_types_someone_elses_address_is_not_linked_once_its_owner_confirms_it(x_stack, oauth_provider, smtp):
    sub, victim, attacker = x_person(oauth_provider), unique_email("victim"), Browser(x_stack)
    assert urlparse(social_sign_in(attacker, PROVIDER).url).path == "/account/auth/email"
    assert "Check your email" in page_text(attacker.post("/auth/email", {"email": victim}, allow_redirects=True))
    [account] = account_ids(x_stack, victim)

    # The owner of the address follows the link mailed to it, in their own browser, and sets a password.
    owner = Browser(x_stack)
    confirmed = owner.get(smtp.link(victim, "/confirm?token=").replace("&amp;", "&"), allow_redirects=True)
    assert confirmed.status_code == 200
    assert "X was not linked to this account" in page_text(confirmed)
    _, done = reset_password(x_stack, owner, smtp, victim)
    assert done.status_code == 303 and f"Signed in as {victim}" in signed_in_as(owner)

    # The X user comes back through X: not into the owner's account, and the gate does not let them in.
    oauth_provider.next_user(sub=sub, name="Xavier Post", login=f"xavier{sub[-4:]}")
    again = social_sign_in(attacker, PROVIDER)
    assert victim not in signed_in_as(attacker) and victim not in page_text(again)
    assert attacker.get("/auth/check").status_code == 401
    assert [i for i in identities(x_stack, PROVIDER) if i["accountId"] == account] == []
    assert x_stack.query("SELECT COUNT(*) FROM session WHERE accountId = ?", account) == [(1,)], "the owner's session only"


def test_the_reset_page_and_the_password_changed_mail_name_the_linked_providers(x_stack, oauth_provider, smtp):
    _, email, _ = x_account(x_stack, oauth_provider, smtp)
    shown, done = reset_password(x_stack, Browser(x_stack), smtp, email)
    assert "Sign-in with X is also linked to this account." in page_text(shown)
    assert done.status_code == 303
    mail = smtp.wait_for_mail(email, "Sign-in with these providers also opens your account:")
    listed = mail_text(mail["message"]).split("also opens your account:", 1)[1].split("If one of them", 1)[0]
    assert listed.split() == ["X"], mail["text"]


# MARK: - The provider's tokens, kept for the backend


def provider_token(stack, email):
    return requests.get(stack.base + "/internal/provider_token", params={"email": email, "provider": PROVIDER},
                        timeout=REQUEST_TIMEOUT)


def test_x_tokens_are_sealed_and_handed_to_the_backend_and_refreshed_with_basic(x_stack, oauth_provider, smtp):
    oauth_provider.token_lifetime(1)
    sub, email, _ = x_account(x_stack, oauth_provider, smtp)
    oauth_provider.token_lifetime(3600)
    [first] = [t for t in oauth_provider.token_list() if t["sub"] == sub]
    assert first["refresh_token"], "offline.access gives a refresh token"
    stored = x_stack.store.stored_bytes()
    assert first["access_token"].encode() not in stored and first["refresh_token"].encode() not in stored
    [identity] = [i for i in identities(x_stack, PROVIDER) if i["subject"] == sub]
    assert identity["sealedTokens"] and identity["tokenExpiresAt"]

    def refreshed():
        answer = provider_token(x_stack, email)
        assert answer.status_code == 200, answer.text
        return answer.json() if answer.json()["access_token"] != first["access_token"] else None
    body = wait_for(refreshed, what="a refreshed X token")
    known = {t["access_token"]: t for t in oauth_provider.token_list()}
    renewed = known[body["access_token"]]
    assert renewed["grant_type"] == "refresh_token" and renewed["auth_method"] == "client_secret_basic"
    assert "users.read" in body["scope"] and body["token_type"].lower() == "bearer"
    me = requests.get(oauth_provider.issuer + "/2/users/me", headers={"Authorization": "Bearer " + body["access_token"]},
                      timeout=REQUEST_TIMEOUT)
    assert me.status_code == 200 and me.json()["data"]["id"] == sub and "email" not in me.json()["data"]


# MARK: - The native path: POST v1/users/auth/x


def test_a_native_code_signs_in_to_the_linked_account_and_its_tokens_are_kept(x_stack, oauth_provider, smtp):
    sub, email, account = x_account(x_stack, oauth_provider, smtp)
    code, verifier = native_code(x_stack, oauth_provider)
    body = check_user(native_sign_in(x_stack, code=code, code_verifier=verifier, redirect_uri=NATIVE_REDIRECT), 201, email)
    assert body["user"]["id"] == account and works(Api(x_stack, email, body["user"]["authenticationToken"]))
    [redeemed] = [c for c in oauth_provider.code_list() if c["code"] == code]
    assert redeemed["redeemed"] and redeemed["redirect_uri"] == NATIVE_REDIRECT
    latest = [t for t in oauth_provider.token_list() if t["sub"] == sub][-1]
    assert latest["auth_method"] == "client_secret_basic"
    assert provider_token(x_stack, email).json()["access_token"] == latest["access_token"]


FORM_OFF = ("X sign-in from an app needs an authorization code (code, code_verifier and redirect_uri): this server does "
            "not take X access tokens.")
RECENT = "This needs a recent sign-in: sign in again, then retry."


def test_an_access_token_is_refused_while_the_operator_has_not_switched_the_form_on(x_stack, oauth_provider, smtp):
    sub, email, account = x_account(x_stack, oauth_provider, smtp)
    sessions = x_stack.count("session")
    for token in (another_apps_token(x_stack, oauth_provider), provider_token(x_stack, email).json()["access_token"]):
        oauth_provider.requests.clear()
        check_error(native_sign_in(x_stack, oauth_token=token, uid=sub), 422, FORM_OFF)
        assert ["GET", "/2/users/me"] not in [list(r) for r in oauth_provider.requests], "refused before asking X"
    assert x_stack.count("session") == sessions
    code, verifier = native_code(x_stack, oauth_provider)
    check_user(native_sign_in(x_stack, code=code, code_verifier=verifier, redirect_uri=NATIVE_REDIRECT), 201, email)


def test_a_switched_on_access_token_signs_in_but_never_counts_as_a_recent_sign_in(x_tokens_stack, oauth_provider, smtp):
    stack = x_tokens_stack
    sub, email, account = x_account(stack, oauth_provider, smtp)
    # X cannot say which app a token is for, so another app's token for the same person passes here...
    body = check_user(native_sign_in(stack, oauth_token=another_apps_token(stack, oauth_provider), uid=sub), 201, email)
    api = Api(stack).signed_in_as(body)
    assert body["user"]["id"] == account and works(api)
    # ...but it is no proof that the person is here now: nothing sensitive follows from it without the password.
    new_password = {"user": {"password": NEW_PASSWORD, "passwordConfirmation": NEW_PASSWORD}}
    check_unauthorized(api.put("/users/password", new_password), RECENT)
    check_unauthorized(api.put("/users", {"user": {"email": "moved-" + email}}), RECENT)
    check_unauthorized(api.delete("/users"), RECENT)
    check_unauthorized(Api(stack).post("/users/sign_in", {"user": {"email": email, "password": NEW_PASSWORD}}))
    assert stack.query("SELECT COUNT(*) FROM account WHERE id = ?", account) == [(1,)]
    assert works(api), "the token still works for everything else"
    # The code form is bound to our client id: it counts as a sign-in, as the web flow does.
    code, verifier = native_code(stack, oauth_provider)
    bound = Api(stack).signed_in_as(check_user(native_sign_in(stack, code=code, code_verifier=verifier,
                                                              redirect_uri=NATIVE_REDIRECT), 201, email))
    check_user(bound.put("/users/password", new_password), 200, email)
    check_user(Api(stack).post("/users/sign_in", {"user": {"email": email, "password": NEW_PASSWORD}}), 201, email)


@pytest.mark.parametrize("route", ["x", "twitter"])
def test_a_native_access_token_is_checked_at_users_me(x_tokens_stack, oauth_provider, smtp, route):
    sub, email, account = x_account(x_tokens_stack, oauth_provider, smtp)
    token = provider_token(x_tokens_stack, email).json()["access_token"]
    sealed = [i["sealedTokens"] for i in identities(x_tokens_stack, PROVIDER) if i["subject"] == sub]
    oauth_provider.requests.clear()
    body = check_user(native_sign_in(x_tokens_stack, route, oauth_token=token, uid=sub), 201, email)
    assert body["user"]["id"] == account
    assert [list(r) for r in oauth_provider.requests] == [["GET", "/2/users/me"]]
    assert [i["sealedTokens"] for i in identities(x_tokens_stack, PROVIDER) if i["subject"] == sub] == sealed, \
        "a bare access token does not replace the kept tokens (and their refresh token)"


@pytest.mark.parametrize("case", ["another_app", "wrong_verifier", "replayed", "unknown_token", "uid_mismatch", "expired"])
def test_native_credentials_that_do_not_check_out_are_refused(request, oauth_provider, smtp, case):
    # The token cases need the form switched on (else every token is refused before X is asked).
    stack = request.getfixturevalue("x_stack" if case in ("another_app", "wrong_verifier", "replayed") else "x_tokens_stack")
    sub, email, account = x_account(stack, oauth_provider, smtp)
    if case in ("another_app", "wrong_verifier", "replayed"):
        other = "another-x-app-" + secrets.token_hex(4)
        oauth_provider.add_client(other, secrets.token_urlsafe(24), [NATIVE_REDIRECT], auth_methods=("client_secret_basic",))
        code, verifier = native_code(stack, oauth_provider, client_id=other if case == "another_app" else None)
        if case == "replayed":
            check_user(native_sign_in(stack, code=code, code_verifier=verifier, redirect_uri=NATIVE_REDIRECT), 201, email)
        sent = {"code": code, "code_verifier": "not-" + verifier if case == "wrong_verifier" else verifier,
                "redirect_uri": NATIVE_REDIRECT}
    else:
        token = provider_token(stack, email).json()["access_token"]
        if case == "expired":
            oauth_provider.expire(token)
        sent = {"oauth_token": "not-a-token" if case == "unknown_token" else token,
                "uid": "1" if case == "uid_mismatch" else sub}
    sessions = stack.count("session")
    check_error(native_sign_in(stack, **sent), 422, "The X token could not be verified.")
    assert stack.count("session") == sessions
    assert [i["accountId"] for i in identities(stack, PROVIDER) if i["subject"] == sub] == [account]


def test_an_x_user_never_linked_is_told_to_sign_up_with_an_address(x_stack, oauth_provider):
    sub = x_person(oauth_provider)
    code, verifier = native_code(x_stack, oauth_provider)
    accounts = x_stack.count("account")
    check_error(native_sign_in(x_stack, code=code, code_verifier=verifier, redirect_uri=NATIVE_REDIRECT), 422,
                "X did not give a verified email address. Sign in with X on the website once and give your address there, "
                "or sign up with your email address.")
    assert x_stack.count("account") == accounts and [i for i in identities(x_stack, PROVIDER) if i["subject"] == sub] == []
