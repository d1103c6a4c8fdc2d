"""Usernames and what apps get (docs/headers.md), through nginx on the run's backend: a username chosen at sign-up
(`identity.username: optional`) and changed in settings reaches the protected app as Remote-User at its next request,
the display name as Remote-Name, the account id as Remote-Account-Id (`gate.account_id: header`); the JSON API's
user object reads back the username, display name and declared profile fields an app registered."""
import html
import re
import subprocess

import pytest

from api_client import Api
from devise_api import PASSWORD, check_error, check_user
from http_client import Browser
from stack import BIN, new_stack
from test_gate import EchoApp, origin, server_files
from users import unique_email

PROFILE_YAML = """profile:
  fields:
    - name: phone
      label: Phone
      type: tel
"""


@pytest.fixture(scope="module")
def upstream():
    with EchoApp() as server:
        yield server.port


@pytest.fixture(scope="module")
def identity_stack(tmp_path_factory, request, upstream):
    yield from new_stack(tmp_path_factory, request,
                         {"confirmation.required": "false", "mail.transport": "outbox", "identity.username": "optional",
                          "gate.account_id": "header"},
                         server_files(upstream), extra_yaml=PROFILE_YAML)


def sign_up(stack, email, username):
    browser = Browser(stack)
    answer = browser.post("/sign_up", {"email": email, "username": username, "password": PASSWORD, "password_confirmation": PASSWORD})
    return browser, answer


def seen(page, header):
    return re.search(rf"^{header}=(.*)$", page.text, re.M).group(1)


def account_of(stack, email):
    [(account,)] = stack.query("SELECT accountId FROM emailAddress WHERE address = ?", email)
    return account


def test_a_username_chosen_at_sign_up_reaches_the_app_and_another_case_of_it_is_taken(identity_stack):
    stack = identity_stack
    email = unique_email("chooser")
    name = "Ann.Lee-" + email.split("@")[0][-6:]
    browser, answer = sign_up(stack, email, name)
    assert answer.status_code == 303, answer.text
    shown = browser.get(origin(stack) + "/app/")
    assert shown.status_code == 200
    assert seen(shown, "Remote-User") == name and seen(shown, "Remote-Name") == name
    assert seen(shown, "Remote-Account-Id") == str(account_of(stack, email))

    other = unique_email("copycat")
    _, refused = sign_up(stack, other, name.upper())
    assert refused.status_code == 200 and "has already been taken" in html.unescape(refused.text)
    assert stack.query("SELECT COUNT(*) FROM emailAddress WHERE address = ?", other) == [(0,)]
    _, invalid = sign_up(stack, other, "42")
    assert invalid.status_code == 200 and "must start with a letter" in html.unescape(invalid.text)


def test_an_empty_username_is_made_from_the_address(identity_stack):
    stack = identity_stack
    email = unique_email("Maker")
    browser, answer = sign_up(stack, email, "")
    assert answer.status_code == 303
    assert seen(browser.get(origin(stack) + "/app/"), "Remote-User") == email.split("@")[0].lower()


def test_a_username_and_display_name_changed_in_settings_reach_the_app_at_its_next_request(identity_stack):
    stack = identity_stack
    email = unique_email("renamer")
    browser, _ = sign_up(stack, email, "")
    settings = browser.get("/settings")
    assert settings.status_code == 200 and 'id="username"' in settings.text and "readonly" not in settings.text.split('id="username"')[1].split(">")[0]
    new_name = "renamed-" + email.split("@")[0][-6:]
    saved = browser.post("/settings", {"username": new_name, "display_name": "Zoë Renamed", "phone": "", "language": ""})
    assert saved.status_code == 303, saved.text
    shown = browser.get(origin(stack) + "/app/")
    assert seen(shown, "Remote-User") == new_name
    # The header's UTF-8 bytes, as the app received them (WSGI hands headers over as latin-1 text).
    name_line = re.search(r"^Remote-Name=(.*)$", shown.content.decode("utf-8"), re.M).group(1)
    assert name_line.encode("latin-1").decode("utf-8") == "Zoë Renamed"
    assert stack.query("SELECT COUNT(*) FROM audit WHERE event = 'username_changed' AND accountId = ?", account_of(stack, email)) == [(1,)]


def test_the_api_user_object_reads_back_the_username_display_name_and_declared_fields(identity_stack):
    stack = identity_stack
    email = unique_email("app")
    name = "app-" + email.split("@")[0][-6:]
    registered = check_user(Api(stack).post("/users", {"user": {"email": email, "password": PASSWORD, "username": name,
                                                                "phone": "+33 1 23 45 67 89"}}), 201, email)
    user = registered["user"]
    assert user["username"] == name and user["displayName"] == ""
    assert user["profile"] == {"phone": "+33 1 23 45 67 89"} and user["phone"] == "+33 1 23 45 67 89", "devise-ios reads it top-level"
    api = Api(stack, email, user["authenticationToken"])
    updated = check_user(api.put("/users", {"user": {"displayName": "App User", "username": name + "x"}}), 200, email)["user"]
    assert (updated["username"], updated["displayName"]) == (name + "x", "App User")
    error = check_error(api.put("/users", {"user": {"username": "root"}}), 422)
    assert error["errors"] == {"username": ["Username is reserved"]}
    made = check_user(Api(stack).post("/users", {"user": {"email": unique_email("Made"), "password": PASSWORD}}), 201)["user"]
    assert made["username"] == made["email"].split("@")[0].lower() and made["profile"] == {}


def test_the_operator_reads_and_sets_a_username_from_the_command_line(identity_stack):
    stack = identity_stack
    email = unique_email("cli")
    browser, _ = sign_up(stack, email, "")

    def username(*args):
        return subprocess.run([BIN, "user", "username", email, *args, "--config", str(stack.config_path)],
                              capture_output=True, text=True, timeout=60)

    shown = username()
    assert shown.returncode == 0 and shown.stdout == f"{email}: {email.split('@')[0].lower()}\n", shown
    refused = username("--set", "Admin")
    assert refused.returncode == 1 and refused.stderr.strip().endswith("Username is reserved"), refused
    changed = username("--set", "ops-" + email.split("@")[0][-6:])
    assert changed.returncode == 0, changed
    assert seen(browser.get(origin(stack) + "/app/"), "Remote-User") == "ops-" + email.split("@")[0][-6:]
