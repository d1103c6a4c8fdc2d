"""The devise-ios JSON API through nginx (`<base>/v1/users`), sent exactly as devise-ios sends it: JSON bodies under
"user", Content-Type and Accept application/json, X-User-Email + X-User-Token once signed in (helper B).

Stacks: api_stack (confirmation off, outbox, lockout after 3 failures), mail_stack (confirmation on, SMTP sink),
provider_stack / closed_provider_stack (google and facebook presets checking tokens with native_provider.py).
The Api client (conftest) checks on every answer that it is JSON and sets no cookie.
"""
import re
import time
from urllib.parse import parse_qs, urlparse

import pytest
import requests

from conftest import ISO_MILLIS, Api, Browser, token_digest, token_handle, unique_email

PASSWORD = "correct horse battery"
NEW_PASSWORD = "staple battery horse"
USER_KEYS = {"id", "email", "authenticationToken", "createdAt", "updatedAt"}
TOKEN = re.compile(r"^[A-Za-z0-9_-]{43}$")
FAILED = "Invalid email or password."


def check_user(response, status, email=None):
    """The devise-ios user JSON: its five keys, a token of 43 chars, the two times in ISO 8601 with milliseconds."""
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert set(body) == {"user"}, body
    user = body["user"]
    assert set(user) - {"unconfirmedEmail"} == USER_KEYS, user
    assert isinstance(user["id"], int)
    assert TOKEN.match(user["authenticationToken"] or ""), user
    assert ISO_MILLIS.fullmatch(user["createdAt"]) and ISO_MILLIS.fullmatch(user["updatedAt"]), user
    if email is not None:
        assert user["email"] == email
    return body


def check_error(response, status, message=None):
    """The 4xx error object {"error":{"message","code":0,"status"}}; returns it."""
    assert response.status_code == status, (response.status_code, response.text)
    error = response.json()["error"]
    assert isinstance(error, dict), response.text
    assert error["code"] == 0 and error["status"] == status and isinstance(error["message"], str) and error["message"]
    if message is not None:
        assert error["message"] == message, error
    return error


def check_unauthorized(response, message=None):
    """The 401 answer {"error":"<message>"} (Devise's failure app)."""
    assert response.status_code == 401, (response.status_code, response.text)
    body = response.json()
    assert set(body) == {"error"} and isinstance(body["error"], str) and body["error"], body
    if message is not None:
        assert body["error"] == message
    return body


def registered(stack, email=None, password=PASSWORD):
    """A new account registered through the API (confirmation off); returns (signed-in Api, user JSON)."""
    email = email or unique_email("api")
    api = Api(stack)
    body = check_user(api.post("/users", {"user": {"email": email, "password": password}}), 201, email)
    return api.signed_in_as(body), body


def works(api):
    """True when the client's headers authenticate (a PUT that changes nothing), False on 401."""
    response = api.put("/users", {"user": {}})
    if response.status_code == 401:
        check_unauthorized(response)
        return False
    check_user(response, 200)
    return True


def account_id(stack, email):
    return stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email.lower())[0][0]


def audit(stack, account, event):
    return [row[0] for row in stack.query("SELECT detail FROM audit WHERE accountId = ? AND event = ? ORDER BY id", account, event)]


def make_stale(stack, token):
    """The token last entered a password long ago (beyond session.reauthenticate_after)."""
    stack.query("UPDATE session SET authenticatedAt = 0 WHERE digest = ?", token_digest(token))
    assert stack.query("SELECT authenticatedAt FROM session WHERE digest = ?", token_digest(token)) == [(0,)]


def unique_id(prefix):
    return f"{prefix}-{time.time_ns()}"


# MARK: - Register

@pytest.mark.parametrize("path", ["/users", "/users/"])
def test_register_answers_201_with_the_user_and_a_token(api_stack, path):
    email = unique_email("reg")
    response = Api(api_stack).post(path, {"user": {"email": email, "password": PASSWORD}})
    body = check_user(response, 201, email)
    assert body["user"]["id"] == account_id(api_stack, email)
    assert works(Api(api_stack, email, body["user"]["authenticationToken"]))


def test_register_refuses_invalid_input_with_the_validation_error_object(api_stack):
    api = Api(api_stack)
    for body in ({}, {"user": {}}):
        error = check_error(api.post("/users", body), 422)
        assert error["message"].startswith("Validation failed: ")
        assert {"email", "password"} <= set(error["errors"]), error
    error = check_error(api.post("/users", {"user": {"email": "not-an-address", "password": PASSWORD}}), 422)
    assert error["message"] == "Validation failed: Email is not a valid email address"
    assert error["errors"] == {"email": ["Email is not a valid email address"]}
    email = unique_email("mismatch")
    error = check_error(api.post("/users", {"user": {"email": email, "password": PASSWORD, "passwordConfirmation": "other"}}), 422)
    assert error["message"] == "Validation failed: Password confirmation doesn't match Password"
    assert api_stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", email) == [(0,)]


def test_bodies_that_are_not_json_objects_are_refused(api_stack):
    api = Api(api_stack)
    check_error(api.post("/users", data="email=a@example.com"), 400)
    check_error(api.post("/users", data='["user"]'), 400)
    check_error(api.post("/users", data='{"user":{}}', headers={"Content-Type": "text/plain"}), 415)


def test_register_is_403_when_sign_up_is_closed(closed_mail_stack):
    email = unique_email("closed")
    check_error(Api(closed_mail_stack).post("/users", {"user": {"email": email, "password": PASSWORD}}), 403)
    assert account_ids_of(closed_mail_stack, email) == []


def test_unknown_paths_and_methods_answer_the_error_object(api_stack):
    check_error(Api(api_stack).call("GET", "/users/sign_in"), 405)
    check_error(Api(api_stack).call("GET", "/users/nothing-here"), 404)


# MARK: - Sign in and out, authentication

def test_sign_in_answers_a_new_token_each_time_and_one_message_for_every_failure(api_stack):
    first, body = registered(api_stack)
    email = body["user"]["email"]
    signed_in = check_user(Api(api_stack).post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}}), 201, email)
    again = check_user(Api(api_stack).post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}}), 201, email)
    tokens = {body["user"]["authenticationToken"], signed_in["user"]["authenticationToken"], again["user"]["authenticationToken"]}
    assert len(tokens) == 3 and signed_in["user"]["id"] == body["user"]["id"]
    assert all(works(Api(api_stack, email, token)) for token in tokens)
    for wrong in ({"email": email, "password": "wrong password"}, {"email": unique_email("nobody"), "password": PASSWORD},
                  {"email": email}, {}):
        check_unauthorized(Api(api_stack).post("/users/sign_in", {"user": wrong}), FAILED)


def test_sign_in_is_audited_as_api(api_stack):
    api, body = registered(api_stack)
    email = body["user"]["email"]
    check_user(Api(api_stack).post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}}), 201)
    assert "api" in audit(api_stack, body["user"]["id"], "sign_in")
    check_unauthorized(Api(api_stack).post("/users/sign_in", {"user": {"email": email, "password": "nope nope nope"}}))
    assert len(audit(api_stack, body["user"]["id"], "sign_in_failed")) == 1


def test_sign_out_revokes_the_token_and_is_audited(api_stack):
    api, body = registered(api_stack)
    other = Api(api_stack).signed_in_as(check_user(
        Api(api_stack).post("/users/sign_in", {"user": {"email": api.email, "password": PASSWORD}}), 201))
    response = api.delete("/users/sign_out")
    assert response.status_code == 200 and response.json() == {}
    assert not works(api)
    check_unauthorized(api.delete("/users/sign_out"))
    assert works(other), "only that token ends"
    assert audit(api_stack, body["user"]["id"], "sign_out") == ["api"]
    check_unauthorized(Api(api_stack).delete("/users/sign_out"))


def test_wrong_or_missing_headers_and_browser_cookies_are_refused(api_stack):
    api, body = registered(api_stack)
    stranger, _ = registered(api_stack)
    check_unauthorized(Api(api_stack).put("/users", {"user": {}}))
    check_unauthorized(Api(api_stack, api.email, "x" * 43).put("/users", {"user": {}}))
    check_unauthorized(Api(api_stack, stranger.email, api.token).put("/users", {"user": {}}))
    check_unauthorized(Api(api_stack, api.email, "").put("/users", {"user": {}}))
    # A browser signed in to the account: its session cookie is no API credential
    browser = Browser(api_stack)
    assert browser.post("/sign_in", {"email": api.email, "password": PASSWORD}).status_code == 303
    cookie = browser.cookie("frontdoor_session")
    assert cookie
    response = requests.put(api_stack.base + "/v1/users", json={"user": {"displayName": "Cookie"}}, timeout=10,
                            headers={"Accept": "application/json", "Cookie": f"frontdoor_session={cookie}"})
    check_unauthorized(response)
    # Nor as the token
    check_unauthorized(Api(api_stack, api.email, cookie).put("/users", {"user": {"displayName": "Cookie"}}))
    assert api_stack.query("SELECT displayName FROM account WHERE id = ?", body["user"]["id"]) == [("",)]


def test_an_api_token_is_no_session_cookie_for_pages_or_the_gate(api_stack):
    api, _ = registered(api_stack)
    as_cookie = Browser(api_stack)
    as_cookie.session.cookies.set("frontdoor_session", api.token, path="/account")
    home = as_cookie.get("/")
    assert home.status_code == 302 and home.headers["Location"].startswith("/account/sign_in")
    assert as_cookie.get("/auth/check").status_code == 401
    assert as_cookie.get("/settings/sessions").status_code == 302
    browser = Browser(api_stack)
    assert browser.post("/sign_in", {"email": api.email, "password": PASSWORD}).status_code == 303
    assert browser.get("/auth/check").status_code == 200, "the same account's real session passes the gate"


def test_api_tokens_are_listed_on_the_sessions_page_and_revoking_one_ends_it(api_stack):
    api, _ = registered(api_stack)
    browser = Browser(api_stack)
    assert browser.post("/sign_in", {"email": api.email, "password": PASSWORD}).status_code == 303
    page = browser.get("/settings/sessions")
    assert page.status_code == 200 and "App token" in page.text
    handle = token_handle(api.token)
    assert f'name="handle" value="{handle}"' in page.text
    assert works(api)
    revoked = browser.post("/settings/sessions/revoke", {"handle": handle})
    assert revoked.status_code == 303
    assert not works(api)
    assert "App token" not in browser.get("/settings/sessions").text


def test_three_failed_api_sign_ins_lock_the_account_even_for_the_right_password(api_stack):
    api, body = registered(api_stack)
    check_user(Api(api_stack).post("/users/sign_in", {"user": {"email": api.email, "password": PASSWORD}}), 201)
    for _ in range(3):
        check_unauthorized(Api(api_stack).post("/users/sign_in", {"user": {"email": api.email, "password": "wrong password"}}), FAILED)
    check_unauthorized(Api(api_stack).post("/users/sign_in", {"user": {"email": api.email, "password": PASSWORD}}), FAILED)
    assert Browser(api_stack).post("/sign_in", {"email": api.email, "password": PASSWORD}).status_code == 200
    assert len(audit(api_stack, body["user"]["id"], "lockout")) == 1


# MARK: - Update, password, delete

def test_update_changes_only_the_keys_sent_and_echoes_the_token(api_stack):
    api, body = registered(api_stack)
    response = api.put("/users", {"user": {"displayName": "Ann Example"}})
    updated = check_user(response, 200, api.email)
    assert updated["user"]["authenticationToken"] == api.token
    assert updated["user"]["id"] == body["user"]["id"]
    assert api_stack.query("SELECT displayName FROM account WHERE id = ?", body["user"]["id"]) == [("Ann Example",)]
    check_user(api.put("/users", {"user": {}}), 200)
    assert api_stack.query("SELECT displayName FROM account WHERE id = ?", body["user"]["id"]) == [("Ann Example",)]
    error = check_error(api.put("/users", {"user": {"email": "not-an-address"}}), 422)
    assert error["message"].startswith("Validation failed: ") and "email" in error["errors"]


def test_password_change_with_camel_case_confirmation_ends_every_other_token(api_stack):
    api, body = registered(api_stack)
    other = Api(api_stack).signed_in_as(check_user(
        Api(api_stack).post("/users/sign_in", {"user": {"email": api.email, "password": PASSWORD}}), 201))
    browser = Browser(api_stack)
    assert browser.post("/sign_in", {"email": api.email, "password": PASSWORD}).status_code == 303
    error = check_error(api.put("/users/password", {"user": {"password": NEW_PASSWORD, "passwordConfirmation": "different"}}), 422)
    assert error["message"] == "Validation failed: Password confirmation doesn't match Password"
    assert works(other)

    changed = check_user(api.put("/users/password", {"user": {"password": NEW_PASSWORD, "passwordConfirmation": NEW_PASSWORD}}),
                         200, api.email)
    assert changed["user"]["authenticationToken"] == api.token
    assert works(api) and not works(other)
    assert browser.get("/").status_code == 302, "the browser session ended too"
    check_unauthorized(Api(api_stack).post("/users/sign_in", {"user": {"email": api.email, "password": PASSWORD}}), FAILED)
    check_user(Api(api_stack).post("/users/sign_in", {"user": {"email": api.email, "password": NEW_PASSWORD}}), 201)


def test_password_change_with_a_stale_token_needs_the_current_password(api_stack):
    api, _ = registered(api_stack)
    make_stale(api_stack, api.token)
    error = check_error(api.put("/users/password", {"user": {"password": NEW_PASSWORD, "passwordConfirmation": NEW_PASSWORD}}), 422)
    assert "Current password can't be blank" in error["message"]
    check_unauthorized(Api(api_stack).post("/users/sign_in", {"user": {"email": api.email, "password": NEW_PASSWORD}}))
    check_user(api.put("/users/password", {"user": {"password": NEW_PASSWORD, "passwordConfirmation": NEW_PASSWORD,
                                                   "currentPassword": PASSWORD}}), 200)
    check_user(Api(api_stack).post("/users/sign_in", {"user": {"email": api.email, "password": NEW_PASSWORD}}), 201)
    check_unauthorized(Api(api_stack, api.email, "y" * 43).put(
        "/users/password", {"user": {"password": PASSWORD, "passwordConfirmation": PASSWORD}}))


def test_delete_answers_the_deleted_user_and_needs_a_recent_sign_in_or_the_password(api_stack):
    api, body = registered(api_stack)
    deleted = check_user(api.delete("/users"), 200, api.email)
    assert deleted["user"]["id"] == body["user"]["id"] and deleted["user"]["authenticationToken"] == api.token
    assert api_stack.query("SELECT COUNT(*) FROM account WHERE id = ?", body["user"]["id"]) == [(0,)]
    check_unauthorized(api.delete("/users"))
    check_unauthorized(Api(api_stack).post("/users/sign_in", {"user": {"email": api.email, "password": PASSWORD}}), FAILED)

    stale, body = registered(api_stack)
    make_stale(api_stack, stale.token)
    check_unauthorized(stale.delete("/users"), "This needs a recent sign-in: sign in again, then retry.")
    check_error(stale.delete("/users", {"user": {"currentPassword": "wrong password"}}), 422)
    assert api_stack.query("SELECT COUNT(*) FROM account WHERE id = ?", body["user"]["id"]) == [(1,)]
    check_user(stale.delete("/users", {"user": {"currentPassword": PASSWORD}}), 200, stale.email)
    assert api_stack.query("SELECT COUNT(*) FROM account WHERE id = ?", body["user"]["id"]) == [(0,)]


def test_a_provider_that_is_not_configured_is_refused(api_stack):
    for provider in ("facebook", "google"):
        error = check_error(Api(api_stack).post(f"/users/auth/{provider}", {"user": {
            "provider": provider, "oauth_token": "EAAtoken", "uid": "1", "email": unique_email("fb")}}), 422)
        assert "not set up" in error["message"]
    assert api_stack.count("socialIdentity") == 0


# MARK: - With confirmation required (mail through SMTP)

def confirm(stack, smtp, email):
    """Follows the newest confirmation link mailed to `email`."""
    link = smtp.link(email, "/account/confirm?token=")
    assert Browser(stack).get(link).status_code == 302


def test_register_answers_the_same_for_a_new_and_a_taken_address(mail_stack, smtp):
    email = unique_email("enum")
    api = Api(mail_stack)
    first = api.post("/users", {"user": {"email": email, "password": PASSWORD}})
    assert first.status_code == 201
    expected = {"user": {"id": None, "email": email, "authenticationToken": None, "createdAt": None, "updatedAt": None},
                "confirmationSent": True}
    assert first.json() == expected
    smtp.wait_for_mail(email, "/account/confirm?token=")
    check_unauthorized(Api(mail_stack).post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}}),
                       "You have to confirm your email address before signing in.")
    taken = api.post("/users", {"user": {"email": email, "password": "another password here"}})
    assert (taken.status_code, taken.json()) == (201, expected)
    assert len(account_ids_of(mail_stack, email)) == 1

    confirm(mail_stack, smtp, email)
    signed_in = check_user(Api(mail_stack).post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}}), 201, email)
    assert signed_in["user"]["id"] == account_ids_of(mail_stack, email)[0]


def account_ids_of(stack, email):
    return [row[0] for row in stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email.lower())]


def confirmed_api_user(stack, smtp):
    email = unique_email("conf")
    assert Api(stack).post("/users", {"user": {"email": email, "password": PASSWORD}}).status_code == 201
    confirm(stack, smtp, email)
    return Api(stack).signed_in_as(check_user(
        Api(stack).post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}}), 201, email))


def test_a_new_email_becomes_primary_once_its_mailed_link_is_followed(mail_stack, smtp):
    api = confirmed_api_user(mail_stack, smtp)
    old, new = api.email, unique_email("new")
    pending = check_user(api.put("/users", {"user": {"email": new}}), 200, old)
    assert pending["user"]["unconfirmedEmail"] == new and pending["user"]["authenticationToken"] == api.token
    check_unauthorized(Api(mail_stack, new, api.token).put("/users", {"user": {}})), "not verified yet"
    assert check_user(api.put("/users", {"user": {}}), 200)["user"]["unconfirmedEmail"] == new

    confirm(mail_stack, smtp, new)
    after = check_user(api.put("/users", {"user": {}}), 200, new)
    assert "unconfirmedEmail" not in after["user"]
    assert works(Api(mail_stack, new, api.token)), "the new primary authenticates"
    assert works(Api(mail_stack, old, api.token)), "the old address is still a verified address of the account"
    smtp.wait_for_mail(old, new)
    check_user(Api(mail_stack).post("/users/sign_in", {"user": {"email": new, "password": PASSWORD}}), 201, new)


def test_remind_answers_201_empty_for_every_well_formed_address_and_the_mailed_token_resets(mail_stack, smtp):
    api = confirmed_api_user(mail_stack, smtp)
    anonymous = Api(mail_stack)
    for email in (api.email, unique_email("unknown")):
        response = anonymous.post("/users/password", {"user": {"email": email}})
        assert response.status_code == 201 and response.json() == {}
    for email in ("", "not-an-address"):
        assert check_error(anonymous.post("/users/password", {"user": {"email": email}}), 422)["message"].startswith("Validation failed: ")

    link = smtp.link(api.email, "/account/password/edit?token=")
    token = parse_qs(urlparse(link).query)["token"][0]
    check_error(anonymous.put("/users/password", {"user": {"resetPasswordToken": token, "password": NEW_PASSWORD,
                                                          "passwordConfirmation": "different"}}), 422)
    reset = check_user(anonymous.put("/users/password", {"user": {"resetPasswordToken": token, "password": NEW_PASSWORD,
                                                                  "passwordConfirmation": NEW_PASSWORD}}), 200, api.email)
    assert reset["user"]["authenticationToken"] != api.token
    assert works(Api(mail_stack).signed_in_as(reset))
    assert not works(api), "a reset ends the other tokens"
    check_error(anonymous.put("/users/password", {"user": {"resetPasswordToken": token, "password": PASSWORD,
                                                          "passwordConfirmation": PASSWORD}}), 422)
    check_user(Api(mail_stack).post("/users/sign_in", {"user": {"email": api.email, "password": NEW_PASSWORD}}), 201)


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
        assert error["message"] == "Google did not give a verified email address. Sign up with your email address instead."
    else:
        assert error["message"] == "The Google token could not be verified."
    assert account_ids_of(provider_stack, email) == []
    assert provider_stack.query("SELECT COUNT(*) FROM socialIdentity WHERE subject = ?", sub) == [(0,)]


def test_a_facebook_token_is_checked_with_debug_token_and_graph_me(provider_stack, native):
    facebook = provider_stack.social["facebook"]
    email, user_id = unique_email("fb"), str(time.time_ns())
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
    email, user_id = unique_email("fbbad"), str(time.time_ns())
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
        assert error["message"] == "Facebook did not give a verified email address. Sign up with your email address instead."
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
