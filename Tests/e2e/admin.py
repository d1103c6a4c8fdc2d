"""Admins for the end-to-end tests, made the way an operator makes the first one: an account with one-time codes on
(admin pages need a sign-in with two factors by default), put in the `admins` group by the CLI (`frontdoor group add
admins`, `frontdoor user groups ADDRESS --add admins`), then signed in with its password and a code — in a requests
Browser (admin_browser) or in Chromium (sign_in_chromium).

    email, enrolment = make_admin(stack)      # a stack with confirmation off
    browser = admin_browser(stack, email, enrolment)
"""
from selenium.webdriver.common.by import By

from hosts import run_cli
from http_client import Browser, page_text
from look import PASSWORD, fill, submit
from test_settings_account import signed_up
from two_step import enrol

STEP = "/sign_in/second_factor"


def grant(host, email, group="admins"):
    """`frontdoor group add GROUP` (once: "exists already" is fine) and `frontdoor user groups EMAIL --add GROUP`."""
    made = run_cli(host, "group", "add", group)
    assert made.returncode == 0 or "exists already" in made.stderr, made.stderr
    added = run_cli(host, "user", "groups", email, "--add", group)
    assert added.returncode == 0 and group in added.stdout, (added.stdout, added.stderr)


def make_admin(stack, browser=None, email=None):
    """A new account (or `browser`'s, signed in recently as `email`) with codes on, made admin; returns (email,
    enrolment). The enrolment used the current code: the first sign-in uses the next step's."""
    if browser is None:
        browser, email = signed_up(stack)
    enrolment = enrol(browser)
    grant(stack, email)
    return email, enrolment


def account_id(stack, email):
    return stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email.lower())[0][0]


def admin_browser(stack, email, enrolment, code=None):
    """A Browser signed in as the admin with its password and `code`: by default the next step's one-time code (within
    the drift the server allows). A step's code works once, so a later sign-in within the same half-minute passes a
    recovery code (`enrolment.recovery_codes[i]`, each good once) rather than wait for the next step."""
    browser = Browser(stack)
    answer = browser.post("/sign_in", {"email": email, "password": PASSWORD})
    assert answer.status_code == 303 and STEP in answer.headers["Location"], page_text(answer)[:500]
    done = browser.post(STEP, {"code": code or enrolment.code(offset=30)})
    assert done.status_code == 303, page_text(done)[:500]
    return browser


def sign_in_chromium(driver, stack, email, enrolment, offset=30):
    """Chromium signed in as the admin: the password, then the code on the second step."""
    driver.get(stack.base + "/sign_in")
    fill(driver, email=email, password=PASSWORD)
    submit(driver)
    assert STEP in driver.current_url, driver.current_url
    fill(driver, code=enrolment.code(offset=offset))
    submit(driver)
    assert STEP not in driver.current_url, driver.find_element(By.TAG_NAME, "main").text


def press(driver, form_action, section=None):
    """Submits the form in `main` whose action ends with `form_action` (within `#section` when given)."""
    scope = f"main #{section} " if section else "main "
    submit(driver, f"{scope}form[action$='{form_action}'] button[type=submit]")
