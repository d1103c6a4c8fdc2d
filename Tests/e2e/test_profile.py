"""Declared profile fields through nginx: on the sign-up form, stored with the account, shown and changed on settings."""
import html
import itertools
import re
import subprocess

import pytest

from http_client import Browser
from stack import BIN, new_stack
from users import unique_email

PASSWORD = "correct horse battery"

# The example (a required, unique username of 4 to 20 characters, "should have at least 4 characters",
# shown as "Username"), and a field that only the settings page asks for.
PROFILE_YAML = """profile:
  fields:
    - name: username
      label: Username
      required: true
      min_length: 4
      max_length: 20
      pattern: "[A-Za-z0-9_]+"
      unique: true
      autocomplete: username
      messages:
        too_short: "should have at least 4 characters"
        invalid: "may hold only letters, digits and _"
    - name: city
      label: Home town
      max_length: 40
      sign_up: false
"""


@pytest.fixture(scope="module")
def profile_stack(tmp_path_factory, request):
    """Confirmation off, outbox mail, and the declared fields above."""
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox"},
                         extra_yaml=PROFILE_YAML)


NAMES = itertools.count(1)


def unique_name(prefix="user"):
    """A username not used yet in this module's stack (at most 20 characters for the prefixes used here)."""
    return f"{prefix}_{next(NAMES)}"


def sign_up(browser, email, username, password=PASSWORD, **extra):
    return browser.post("/sign_up", {"email": email, "username": username, "password": password,
                                     "password_confirmation": password, **extra})


def field(page, name):
    """The <input> tag for `name` in the page's HTML."""
    match = re.search(r'<input id="%s"[^>]*>' % re.escape(name), page)
    assert match, f"no input {name} in the page"
    return match.group(0)


def error_of(page, name):
    match = re.search(r'<p class="field-error" id="%s-error">([^<]*)</p>' % re.escape(name), page)
    return html.unescape(match.group(1)) if match else None


def accounts_with(stack, email):
    return stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", email.lower())[0][0]


def test_the_sign_up_form_shows_the_declared_sign_up_fields(profile_stack):
    first = Browser(profile_stack).get("/sign_up")
    assert first.status_code == 200
    assert '<label for="username">Username</label>' in first.text
    assert 'name="username" type="text" autocomplete="username" value=""' in field(first.text, "username")
    assert 'name="city"' not in first.text, "a field with sign_up: false is asked only in the settings"
    # The empty form is cached for signed-out visitors: the next one gets the field too, with a token of their own.
    second = Browser(profile_stack).get("/sign_up")
    assert '<label for="username">Username</label>' in second.text
    token = re.compile(r'name="csrf_token" value="([^"]+)"')
    assert token.search(first.text).group(1) != token.search(second.text).group(1)


def test_a_too_short_username_is_worded_as_declared_and_the_other_values_are_kept(profile_stack):
    browser = Browser(profile_stack)
    email = unique_email("short")
    page = sign_up(browser, email, "abc")
    assert page.status_code == 200
    assert error_of(page.text, "username") == "Username should have at least 4 characters"
    assert f'value="{email}"' in field(page.text, "email")
    assert 'value="abc"' in field(page.text, "username")
    assert 'value=""' in field(page.text, "password"), "passwords are never sent back"
    assert accounts_with(profile_stack, email) == 0

    # Every problem at once: a blank username and a mismatched confirmation, the address kept.
    both = browser.post("/sign_up", {"email": email, "username": " ", "password": PASSWORD, "password_confirmation": "other"})
    assert error_of(both.text, "username") == "Username can't be blank"
    assert error_of(both.text, "password_confirmation") == "Password confirmation doesn't match Password"
    bad = sign_up(browser, email, "ann lee")
    assert error_of(bad.text, "username") == "Username may hold only letters, digits and _"
    assert accounts_with(profile_stack, email) == 0


def test_a_username_another_account_holds_is_taken_whatever_its_case(profile_stack):
    name = unique_name("Taken")
    assert sign_up(Browser(profile_stack), unique_email("first"), name).status_code == 303
    email = unique_email("second")
    page = sign_up(Browser(profile_stack), email, name.upper())
    assert page.status_code == 200
    assert error_of(page.text, "username") == "Username has already been taken"
    assert f'value="{name.upper()}"' in field(page.text, "username")
    assert accounts_with(profile_stack, email) == 0


def test_sign_up_stores_the_username_with_the_account(profile_stack):
    browser = Browser(profile_stack)
    email, name = unique_email("stored"), unique_name("Ann")
    done = sign_up(browser, email, f"  {name} ", city="Leeds")
    assert done.status_code == 303 and done.headers["Location"] == "/account/"
    rows = profile_stack.query("""SELECT field, value, uniqueValue FROM profileValue JOIN emailAddress USING (accountId)
                                  WHERE normalizedAddress = ? ORDER BY field""", email.lower())
    assert rows == [("username", name, name.lower())], "trimmed; city is not a sign-up field, so not taken from the form"


def test_settings_show_and_change_the_profile(profile_stack):
    browser = Browser(profile_stack)
    email, name = unique_email("settings"), unique_name("Bea")
    assert sign_up(browser, email, name).status_code == 303
    page = browser.get("/settings")
    assert page.status_code == 200
    assert 'aria-current="page"' in re.search(r'<nav class="settings-nav".*?(<a href="/account/settings"[^>]*>)', page.text, re.S).group(1)
    assert '<label for="display_name">Display name</label>' in page.text
    assert " required" not in re.search(r'<input id="display_name"[^>]*>', page.text).group(0), "optional: not marked required"
    assert " required" in re.search(r'<input id="username"[^>]*>', page.text).group(0)
    assert f'value="{name}"' in field(page.text, "username")
    assert '<label for="city">Home town</label>' in page.text and 'value=""' in field(page.text, "city")

    new_name = unique_name("Beatrice")
    saved = browser.post("/settings", {"display_name": "Bea Lee", "username": new_name, "city": "Leeds"})
    assert saved.status_code == 303 and saved.headers["Location"] == "/account/settings"
    after = browser.get("/settings")
    assert "Your profile was updated." in after.text
    assert 'value="Bea Lee"' in field(after.text, "display_name") and f'value="{new_name}"' in field(after.text, "username")
    assert 'value="Leeds"' in field(after.text, "city")
    account = profile_stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email.lower())[0][0]
    assert profile_stack.query("SELECT displayName FROM account WHERE id = ?", account) == [("Bea Lee",)]
    assert profile_stack.query("SELECT field, value FROM profileValue WHERE accountId = ? ORDER BY field", account) == [
        ("city", "Leeds"), ("username", new_name)]
    assert profile_stack.query("SELECT detail FROM audit WHERE accountId = ? AND event = 'profile_updated'", account) == [
        ("display_name, username, city",)]

    # Problems: all shown, typed values kept, nothing changed.
    wrong = browser.post("/settings", {"display_name": "x" * 101, "username": "ab", "city": "Leeds"})
    assert wrong.status_code == 200
    assert error_of(wrong.text, "display_name") == "Display name is too long (maximum is 100 characters)"
    assert error_of(wrong.text, "username") == "Username should have at least 4 characters"
    assert 'value="ab"' in field(wrong.text, "username") and f'value="{"x" * 101}"' in field(wrong.text, "display_name")
    other = unique_name("Other")
    assert sign_up(Browser(profile_stack), unique_email("other"), other).status_code == 303
    taken = browser.post("/settings", {"display_name": "Bea Lee", "username": other.lower(), "city": ""})
    assert error_of(taken.text, "username") == "Username has already been taken"
    assert profile_stack.query("SELECT field, value FROM profileValue WHERE accountId = ? ORDER BY field", account) == [
        ("city", "Leeds"), ("username", new_name)]

    # Emptying an optional field removes it.
    assert browser.post("/settings", {"display_name": "", "username": new_name, "city": ""}).status_code == 303
    assert profile_stack.query("SELECT field FROM profileValue WHERE accountId = ?", account) == [("username",)]
    assert profile_stack.query("SELECT displayName FROM account WHERE id = ?", account) == [("",)]


def test_settings_need_a_session_and_a_csrf_token(profile_stack):
    anonymous = Browser(profile_stack)
    gone = anonymous.get("/settings")
    assert gone.status_code == 302 and gone.headers["Location"] == "/account/sign_in?rd=%2Faccount%2Fsettings"
    browser = Browser(profile_stack)
    email, name = unique_email("csrf"), unique_name("Cy")
    assert sign_up(browser, email, name).status_code == 303
    forged = browser.post("/settings", {"display_name": "Mallory", "username": name}, csrf=False)
    assert forged.status_code == 403
    assert profile_stack.query("""SELECT displayName FROM account JOIN emailAddress ON accountId = account.id
                                  WHERE normalizedAddress = ?""", email.lower()) == [("",)]


def test_config_check_prints_the_fields_and_refuses_a_bad_one(profile_stack, tmp_path):
    env = {"PATH": "/usr/bin:/bin"}
    good = subprocess.run([BIN, "config", "check", "--config", str(profile_stack.config_path)], env=env,
                          capture_output=True, text=True, timeout=30)
    assert good.returncode == 0, good.stderr
    assert '    - name: "username"\n      label: "Username"\n      required: true\n      min_length: 4\n' in good.stdout
    assert '      too_short: "should have at least 4 characters"' in good.stdout
    # The output reads back the same.
    (tmp_path / "effective.yml").write_text(good.stdout)
    again = subprocess.run([BIN, "config", "check", "--config", str(tmp_path / "effective.yml")], env=env,
                           capture_output=True, text=True, timeout=30)
    assert again.returncode == 0 and again.stdout == good.stdout, again.stderr

    bad_config = tmp_path / "bad.yml"
    bad_config.write_text(profile_stack.config_path.read_text().replace("min_length: 4", "min_length: four"))
    bad = subprocess.run([BIN, "config", "check", "--config", str(bad_config)], env=env, capture_output=True, text=True, timeout=30)
    assert bad.returncode == 1
    assert 'profile.fields.username.min_length: must be a whole number up to 10000 (got "four")' in bad.stderr
    assert bad.stdout == ""
