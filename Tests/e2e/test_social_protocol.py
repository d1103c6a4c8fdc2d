"""Social sign-in's protocol checks through nginx, at the requests level: what frontdoor sends to the provider, and
every way a callback can be wrong (state, code, ID token, provider failures, another browser). Each refusal leaves no
account, identity or session behind, and answers with the catalog's message, never a 500.

Uses the `social` stack (providers "corp" = OIDC "Corp SSO" and "github" on the tests' provider) and, for an
unreachable provider, a stack of its own whose provider is stopped mid-flow or never listened.
"""
import copy
import itertools
import secrets
import socket
from urllib.parse import parse_qs, urlencode, urlparse, urlunparse

import pytest

from http_client import Browser, page_text
from social import finish, identities, social_stack, social_start, through_provider
from users import unique_email

NAME = "Corp SSO"
STATE_INVALID = "That sign-in attempt has expired or was already used. Please start again."
FAILED = "We couldn't sign you in with {provider}: it did not answer as expected."
SUBJECTS = itertools.count(1)


def counts(stack):
    return {table: stack.count(table) for table in ("account", "emailAddress", "socialIdentity", "session")}


def new_user(provider, **extra):
    """Makes the provider's next user a fresh one with a verified address; returns (sub, email)."""
    sub, email = f"sub-{next(SUBJECTS)}", unique_email("proto")
    provider.next_user(sub=sub, email=email, email_verified=True, name="Proto User", **extra)
    return sub, email


def query_of(url):
    return {k: v[0] for k, v in parse_qs(urlparse(url).query).items()}


def with_query(url, **changes):
    parts = urlparse(url)
    return urlunparse(parts._replace(query=urlencode({**query_of(url), **changes})))


def assert_refused(stack, browser, response, message, before):
    """A refusal: no 500 anywhere, the message shown on the sign-in page, nothing created, the browser signed out."""
    for r in [*response.history, response]:
        assert r.status_code < 500, (r.status_code, r.url, r.text[:500])
    text = page_text(response)
    assert message in text, text[:3000]
    assert counts(stack) == before, "nothing created"
    assert not browser.cookie("frontdoor_session"), "no session"
    home = browser.get("/")
    assert home.status_code == 302 and "/sign_in" in home.headers["Location"]


def test_the_start_sends_the_browser_to_the_provider_with_pkce_a_nonce_and_a_binding_cookie(social, oauth_provider):
    browser = Browser(social)
    start = social_start(browser, "corp")
    assert start.status_code == 303
    location = start.headers["Location"]
    assert location.startswith(oauth_provider.issuer + "/authorize?")
    query = query_of(location)
    assert query["response_type"] == "code" and query["client_id"] == social.social["corp"]["client_id"]
    assert query["redirect_uri"] == f"{social.base}/auth/corp/callback"
    assert set(query["scope"].split()) >= {"openid", "email"}
    assert query["code_challenge_method"] == "S256" and len(query["code_challenge"]) == 43
    assert len(query["state"]) >= 22 and len(query["nonce"]) >= 16
    cookie = next(h for h in start.raw.headers.getlist("Set-Cookie") if h.startswith("frontdoor_oauth="))
    attributes = [part.strip().lower() for part in cookie.split(";")[1:]]
    assert "httponly" in attributes and "samesite=lax" in attributes and "path=/account" in attributes
    assert len(cookie.split(";")[0].split("=", 1)[1]) == 43, "32 random bytes, base64url"
    # A second start in the same browser keeps its binding cookie and makes a new state.
    again = social_start(browser, "corp")
    assert not any(h.startswith("frontdoor_oauth=") for h in again.raw.headers.getlist("Set-Cookie"))
    assert query_of(again.headers["Location"])["state"] != query["state"]


def test_the_start_needs_the_csrf_token(social, oauth_provider):
    browser = Browser(social)
    browser.get("/sign_in")
    refused = browser.post("/auth/corp", {"csrf_token": "forged"}, csrf=False)
    assert refused.status_code == 403 and "Location" not in refused.headers


def test_a_wrong_state_is_refused(social, oauth_provider):
    new_user(oauth_provider)
    browser, before = Browser(social), counts(social)
    callback = through_provider(browser, social_start(browser, "corp"))
    answer = finish(browser, with_query(callback, state=secrets.token_urlsafe(32)))
    assert_refused(social, browser, answer, STATE_INVALID, before)
    assert not any(code["redeemed"] for code in oauth_provider.code_list()), "no code redeemed for a wrong state"


def test_a_callback_replayed_with_its_state_is_refused_the_second_time(social, oauth_provider):
    sub, email = new_user(oauth_provider)
    browser = Browser(social)
    callback = through_provider(browser, social_start(browser, "corp"))
    replayer = Browser(social)  # the same binding cookie, no session: only the spent state is in the way
    replayer.session.cookies.set_cookie(copy.copy(next(c for c in browser.session.cookies if c.name == "frontdoor_oauth")))
    first = finish(browser, callback)
    assert first.status_code == 200 and f"Signed in as {email}" in page_text(first)
    assert [i["subject"] for i in identities(social, "corp") if i["subject"] == sub] == [sub]
    before = counts(social)
    second = finish(replayer, callback)
    assert_refused(social, replayer, second, STATE_INVALID, before)


def test_a_redeemed_code_with_a_fresh_state_is_refused_and_the_provider_saw_the_second_redemption_fail(social, oauth_provider):
    new_user(oauth_provider)
    first = Browser(social)
    used = through_provider(first, social_start(first, "corp"))
    assert finish(first, used).status_code == 200
    spent_code = query_of(used)["code"]

    new_user(oauth_provider)
    browser, before = Browser(social), counts(social)
    fresh = through_provider(browser, social_start(browser, "corp"))
    answer = finish(browser, with_query(fresh, code=spent_code))
    assert_refused(social, browser, answer, FAILED.format(provider=NAME), before)
    spent = next(code for code in oauth_provider.code_list() if code["code"] == spent_code)
    assert spent["redeemed"] and spent["failed_redemptions"] == 1


@pytest.mark.parametrize("flag", ["bad_signature", "wrong_aud", "wrong_iss", "wrong_nonce", "expired", "unknown_kid",
                                  "alg_none", "error_at_token"])
def test_a_bad_answer_from_the_provider_signs_no_one_in(social, oauth_provider, flag):
    new_user(oauth_provider)
    oauth_provider.misbehave(flag)
    browser, before = Browser(social), counts(social)
    answer = finish(browser, through_provider(browser, social_start(browser, "corp")))
    assert_refused(social, browser, answer, FAILED.format(provider=NAME), before)
    assert len(oauth_provider.code_list()) == 1 and oauth_provider.code_list()[0]["redeemed"] == (flag != "error_at_token")


def test_a_failing_github_user_endpoint_signs_no_one_in(social, oauth_provider):
    new_user(oauth_provider)
    oauth_provider.misbehave("error_at_userinfo")
    browser, before = Browser(social), counts(social)
    answer = finish(browser, through_provider(browser, social_start(browser, "github")))
    assert_refused(social, browser, answer, FAILED.format(provider="GitHub"), before)


def test_a_state_from_another_browser_is_refused(social, oauth_provider):
    new_user(oauth_provider)
    victim = Browser(social)
    callback = through_provider(victim, social_start(victim, "corp"))

    stranger, before = Browser(social), counts(social)  # no binding cookie at all
    assert_refused(social, stranger, finish(stranger, callback), STATE_INVALID, before)

    other = Browser(social)  # a binding cookie of its own, from a flow it started itself
    social_start(other, "corp")
    assert other.cookie("frontdoor_oauth") and other.cookie("frontdoor_oauth") != victim.cookie("frontdoor_oauth")
    assert_refused(social, other, finish(other, callback), STATE_INVALID, before)


@pytest.fixture
def lonely(tmp_path_factory):
    """A stack with "lonely" (OIDC "Lonely SSO") on a provider of its own that a test may stop, and "gone" (OIDC
    "Gone SSO") whose issuer is a loopback port nothing listens on. Yields (stack, its provider).

    The "gone" port is held by a socket bound to it that never listens, for as long as the stack runs: a connection
    to it is refused, and no other program can take the port and answer in its place."""
    from oauth_provider import OAuthProvider
    own = OAuthProvider().start()
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        gone = f"http://127.0.0.1:{held.getsockname()[1]}"
        providers = ({"id": "lonely", "name": "Lonely SSO"}, {"id": "gone", "name": "Gone SSO", "issuer": gone})
        try:
            for stack in social_stack(tmp_path_factory, own, providers=providers):
                yield stack, own
        finally:
            own.stop()


def test_a_provider_that_stops_answering_before_the_token_exchange_signs_no_one_in(lonely):
    stack, provider = lonely
    new_user(provider)
    browser, before = Browser(stack), counts(stack)
    callback = through_provider(browser, social_start(browser, "lonely"))
    provider.stop()
    answer = finish(browser, callback)
    assert_refused(stack, browser, answer, FAILED.format(provider="Lonely SSO"), before)


def test_a_provider_that_never_answers_signs_no_one_in(lonely):
    stack, _ = lonely
    browser, before = Browser(stack), counts(stack)
    start = social_start(browser, "gone")
    assert start.status_code < 500, start.text[:500]
    answer = finish(browser, start.headers["Location"]) if start.status_code in (302, 303) else start
    assert_refused(stack, browser, answer, FAILED.format(provider="Gone SSO"), before)
