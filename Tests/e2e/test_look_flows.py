"""The look and accessibility pass (look.py) for the pages only a flow reaches: a mailed link (password reset,
residence approval), a form sent (the check-your-email page), the BrowserID dialog another site opens, and the pages
of social sign-in through the tests' OIDC provider. English and French, 360 px and 1280 px wide.

Stacks: bid_stack (confirmation on, outbox mail, BrowserID) and social (confirmation off, providers "corp" and
"github" on the test provider).
"""
import itertools
from urllib.parse import urlencode

import pytest
import requests
from selenium.webdriver.common.by import By

from chromium_driver import make_chromium, page_wait
from http_client import Browser
from mails import outbox_link
from users import confirmed_user, unique_email
from look import (LANGS, PASSWORD, WIDTHS, check_page, fill, language_cookie, page_lang, prepare, show, sign_up, submit,
                  switch_language)


SUBJECTS = itertools.count(10**9 + 1)  # each provider user of this module its own subject (never one drawn twice)


@pytest.fixture(scope="module")
def driver():
    chromium = make_chromium()
    yield chromium
    chromium.quit()


def fresh(driver, stack, lang):
    """A browser with nothing but the switcher's language cookie for `stack`."""
    driver.delete_all_cookies()
    language_cookie(driver, stack, lang)


def at_each_width(driver, url, name, lang, ready=None):
    """`url` (or what `url(width)` opens) at each width, checked (every width, even after a failure, so each gets
    its screenshot); `ready(driver)` asserts it is the page meant."""
    failures = []
    for width in WIDTHS:
        show(driver, url, width) if isinstance(url, str) else url(width)
        if ready:
            ready(driver)
        try:
            check_page(driver, name, width, lang)
        except AssertionError as failure:
            failures.append(str(failure).split("\n")[0])
    assert failures == [], "\n".join(failures)


# MARK: - Mailed links and sent forms

@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_check_email_after_sign_up(bid_stack, driver, lang, width):
    fresh(driver, bid_stack, lang)
    prepare(driver, width)
    sign_up(driver, bid_stack)
    assert driver.find_elements(By.CSS_SELECTOR, "main p.message-text"), "the check-your-email message"
    assert not driver.find_elements(By.CSS_SELECTOR, "main form"), "not the form again"
    check_page(driver, "check_email", width, lang)


@pytest.fixture(scope="module")
def reset_link(bid_stack):
    """The link of a password reminder mailed to a confirmed account."""
    _, email = confirmed_user(bid_stack, PASSWORD)
    assert Browser(bid_stack).post("/password/new", {"email": email}).status_code in (200, 303)
    return outbox_link(bid_stack, email, "/password/edit?token=")


@pytest.mark.parametrize("lang", LANGS)
def test_password_reset_form_with_a_valid_token(bid_stack, driver, reset_link, lang):
    fresh(driver, bid_stack, lang)

    def the_form(d):
        assert d.find_element(By.ID, "password").is_displayed() and d.find_element(By.ID, "password_confirmation")
    at_each_width(driver, reset_link, "password_edit", lang, the_form)


@pytest.fixture(scope="module")
def residence_link(bid_stack):
    """The approval link of a residence a native app asked for."""
    email = unique_email("look-res")
    answer = requests.post(bid_stack.base + "/v1/residences", json={"email": email}, timeout=10)
    assert answer.status_code == 201, answer.text
    return outbox_link(bid_stack, email, "/residences/confirm?token=")


@pytest.mark.parametrize("lang", LANGS)
def test_residence_approval_page(bid_stack, driver, residence_link, lang):
    fresh(driver, bid_stack, lang)
    at_each_width(driver, residence_link, "residence_confirm", lang,
                  lambda d: d.find_element(By.ID, "allow").is_displayed() or pytest.fail("no Allow button"))


# MARK: - The BrowserID dialog (full page: the redirect flow of a site at another origin)

def dialog_url(stack):
    return stack.base + "/browserid/sign_in?" + urlencode({"return_to": "http://shop.example:8000/after",
                                                          "site_name": "Example Shop"})


@pytest.mark.parametrize("lang", LANGS)
def test_browserid_dialog_signed_out(bid_stack, driver, lang):
    fresh(driver, bid_stack, lang)
    at_each_width(driver, dialog_url(bid_stack), "browserid_signed_out", lang,
                  lambda d: d.find_element(By.ID, "browserid-sign-in").is_displayed() or pytest.fail("no sign-in form"))


@pytest.fixture(scope="module")
def bid_account(bid_stack):
    return confirmed_user(bid_stack, PASSWORD)[1]


@pytest.mark.parametrize("lang", LANGS)
def test_browserid_dialog_signed_in(bid_stack, driver, bid_account, lang):
    fresh(driver, bid_stack, lang)
    driver.get(dialog_url(bid_stack))
    fill(driver, email=bid_account, password=PASSWORD)
    submit(driver, "#browserid-sign-in")
    page_wait(driver).until(lambda d: d.find_elements(By.ID, "browserid-continue"))
    switch_language(driver, lang)  # the account's own language comes first once signed in

    def choosing(d):
        assert d.find_element(By.CSS_SELECTOR, f"input[name=email][value='{bid_account}']").is_selected()
        page_wait(d).until(lambda d: d.find_element(By.ID, "browserid-continue").is_enabled())
    at_each_width(driver, dialog_url(bid_stack), "browserid_signed_in", lang, choosing)


# MARK: - Social sign-in through the tests' provider

def person(provider, email=None):
    """The provider's next user: a new subject with `email` (verified), or none."""
    user = {"sub": str(next(SUBJECTS)), "name": "Social Person"}
    if email:
        user.update(email=email, email_verified=True)
    provider.next_user(**user)


def through_corp(driver, stack, provider):
    """Presses "Sign in with Corp SSO", approves at the provider, and waits to be back at Frontdoor."""
    driver.get(stack.base + "/sign_in")
    driver.find_element(By.CSS_SELECTOR, "button[data-provider=corp]").click()
    page_wait(driver).until(lambda d: d.current_url.startswith(provider.issuer + "/authorize"))
    driver.find_element(By.ID, "approve").click()
    page_wait(driver).until(lambda d: d.current_url.startswith(stack.base) and page_lang(d))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_sign_in_and_sign_up_with_providers(social, driver, lang, width):
    fresh(driver, social, lang)
    for page in ("sign_in", "sign_up"):
        show(driver, f"{social.base}/{page}", width)
        assert len(driver.find_elements(By.CSS_SELECTOR, "main .social button")) == 2
        check_page(driver, f"{page}_providers", width, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_social_email_page(social, driver, oauth_provider, lang):
    fresh(driver, social, lang)
    person(oauth_provider)
    through_corp(driver, social, oauth_provider)
    assert driver.current_url.startswith(social.base + "/auth/email"), driver.current_url
    at_each_width(driver, social.base + "/auth/email", "social_email", lang)

    def sent_with_an_error(width):
        show(driver, social.base + "/auth/email", width)
        fill(driver, email="nobody@")
        submit(driver)
    at_each_width(driver, sent_with_an_error, "social_email_errors", lang,
                  lambda d: d.find_element(By.CSS_SELECTOR, "main .field-error").text or pytest.fail("no error"))


@pytest.mark.parametrize("lang", LANGS)
def test_social_link_page(social, driver, oauth_provider, lang):
    email = unique_email("look-link")
    taken = Browser(social).post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert taken.status_code == 303
    fresh(driver, social, lang)
    person(oauth_provider, email)
    through_corp(driver, social, oauth_provider)
    assert driver.current_url.startswith(social.base + "/auth/link"), driver.current_url
    at_each_width(driver, social.base + "/auth/link", "social_link", lang,
                  lambda d: d.find_element(By.ID, "password").is_displayed() or pytest.fail("no password field"))


@pytest.mark.parametrize("lang", LANGS)
def test_settings_connections(social, driver, oauth_provider, lang):
    fresh(driver, social, lang)
    person(oauth_provider, unique_email("look-social"))
    through_corp(driver, social, oauth_provider)  # signed up with the provider, in the browser's language
    at_each_width(driver, social.base + "/settings/connections", "settings_connections", lang,
                  lambda d: d.find_element(By.CSS_SELECTOR, "li.connection[data-provider=corp]"))
