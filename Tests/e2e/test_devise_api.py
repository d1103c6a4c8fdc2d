"""The devise-ios JSON API through nginx (`<base>/v1/users`), sent exactly as devise-ios sends it: JSON bodies under
"user", Content-Type and Accept application/json, X-User-Email + X-User-Token once signed in.

Stacks: api_stack (confirmation off, outbox, lockout after 3 failures), mail_stack (confirmation on, SMTP sink),
provider_stack / closed_provider_stack (google and facebook presets checking tokens with native_provider.py).
The Api client (api_client.py) checks on every answer that it is JSON and sets no cookie.
"""

import pytest
import requests

from api_client import Api, token_handle
from http_client import Browser
from users import unique_email
from devise_api import account_ids_of, check_user, check_error, check_unauthorized, registered, works, account_id, audit, make_stale, PASSWORD, NEW_PASSWORD, FAILED

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
