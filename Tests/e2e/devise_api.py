"""Helpers shared by the devise-ios API tests: the user JSON and error shapes, accounts made over the API."""
import itertools
import re

from api_client import ISO_MILLIS, Api, token_digest
from users import unique_email

PASSWORD = "correct horse battery"
NEW_PASSWORD = "staple battery horse"
USER_KEYS = {"id", "email", "authenticationToken", "createdAt", "updatedAt", "username", "displayName", "profile"}
TOKEN = re.compile(r"^[A-Za-z0-9_-]{43}$")
FAILED = "Invalid email or password."


def check_user(response, status, email=None):
    """The devise-ios user JSON: its five keys and Frontdoor's three (username, displayName, profile: the declared fields,
    which also come at the top level), a token of 43 chars, the two times in ISO 8601 with milliseconds."""
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert set(body) == {"user"}, body
    user = body["user"]
    assert set(user) - {"unconfirmedEmail"} - set(user.get("profile", {})) == USER_KEYS, user
    assert isinstance(user["username"], str) and user["username"] and isinstance(user["displayName"], str), user
    assert all(user[name] == value for name, value in user["profile"].items() if name not in USER_KEYS), user
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


IDS = itertools.count(1)


def unique_id(prefix):
    """A provider subject no other call in this run gets (a counter: the clock can repeat or go back)."""
    return f"{prefix}-{next(IDS)}"


def unique_number():
    """A numeric provider user id (Facebook's are digits) no other call in this run gets."""
    return str(10**15 + next(IDS))


def account_ids_of(stack, email):
    return [row[0] for row in stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email.lower())]
