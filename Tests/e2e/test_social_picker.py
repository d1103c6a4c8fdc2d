"""The picker of social sign-in (SocialAuth's "Presents Picker" row) through nginx and the tests' OAuth provider:
GitHub vouches for several addresses held by different accounts, or its address is held by one account while
another is signed in in this browser; the person chooses one account, proves it (its password, or a provider
already linked to it), and the identity is linked to that account only. The picker page in Chromium (axe, widths).

Stack: `social` (confirmation off, outbox mail; providers "corp" = OIDC "Corp SSO" and "github").
"""
import itertools
import re

import pytest
from selenium.webdriver.common.by import By

from chromium_driver import make_chromium, page_wait
from http_client import Browser, page_text
from social import account_ids, finish, identities, social_sign_in, social_start, through_provider
from users import unique_email
from look import LANGS, check_page, language_cookie, page_lang, show, WIDTHS

PASSWORD = "correct horse battery"
SUBJECTS = itertools.count(2 * 10**9 + 1)  # each provider user of this module its own subject


def signed_up(stack, prefix):
    """A new account with a password, signed in in its own browser: (browser, email, account id)."""
    browser, email = Browser(stack), unique_email(prefix)
    assert browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    return browser, email, account_ids(stack, email)[0]


def github_user(provider, *verified, unverified=()):
    """The provider's next GitHub user, vouching for `verified` (the first primary); returns its subject."""
    sub = str(next(SUBJECTS))
    emails = [{"email": e, "primary": i == 0, "verified": True, "visibility": None} for i, e in enumerate(verified)]
    emails += [{"email": e, "primary": False, "verified": False, "visibility": None} for e in unverified]
    provider.next_user(sub=sub, login=f"user{sub}", name="Picker Person", email=verified[0], email_verified=True, emails=emails)
    return sub


def choices(page):
    """{address: choice index} of the picker page."""
    text = page_text(page)
    return {address: index for index, address in
            re.findall(r'data-choice="(\d+)">.*?<strong>([^<]+)</strong>', text, flags=re.S)}


def linked(stack, sub):
    return [i["accountId"] for i in identities(stack, "github") if i["subject"] == sub]


def home_text(browser):
    home = browser.get("/")
    return page_text(home) if home.status_code == 200 else ""


def test_two_accounts_holding_vouched_addresses_are_offered_and_only_the_chosen_one_is_linked(social, oauth_provider):
    _, work, _ = signed_up(social, "pick-work")
    _, home, home_id = signed_up(social, "pick-home")
    _, unproven, _ = signed_up(social, "pick-unproven")
    sub = github_user(oauth_provider, work, home, unverified=[unproven])
    browser = Browser(social)
    picker = social_sign_in(browser, "github")
    assert picker.url.endswith("/account/auth/pick"), picker.url
    offered = choices(picker)
    assert set(offered) == {work, home}, offered
    assert unproven not in page_text(picker), "an address the provider did not verify names no account"
    assert linked(social, sub) == [] and not home_text(browser), "nothing linked, nobody signed in before the choice"

    chosen = browser.post("/auth/pick", {"choice": offered[home]})
    assert chosen.status_code == 303 and chosen.headers["Location"].endswith("/auth/link")
    link_page = finish(browser, chosen.headers["Location"])
    assert f"An account with {home} already exists here." in page_text(link_page)
    assert browser.post("/auth/link", {"password": "wrong password"}).status_code == 200
    assert linked(social, sub) == []
    done = browser.post("/auth/link", {"password": PASSWORD})
    assert done.status_code == 303
    assert "GitHub is now linked to your account." in page_text(finish(browser, done.headers["Location"]))
    assert linked(social, sub) == [home_id]
    assert f"Signed in as {home}" in home_text(browser)
    gone = finish(browser, "/account/auth/pick")
    assert "That sign-in attempt has expired" in page_text(gone) and "/auth/pick" not in gone.url, "the picker works once"

    again = Browser(social)
    social_sign_in(again, "github")
    assert f"Signed in as {home}" in home_text(again), "from now on GitHub signs in to the chosen account"


def test_the_chosen_account_is_proven_through_a_provider_already_linked_to_it(social, oauth_provider):
    _, work, _ = signed_up(social, "pick-pw")
    home, corp_sub = unique_email("pick-corp"), str(next(SUBJECTS))
    oauth_provider.next_user(sub=corp_sub, email=home, email_verified=True, name="Corp Person")
    assert "Welcome!" in page_text(social_sign_in(Browser(social), "corp"))
    [home_id] = account_ids(social, home)

    sub = github_user(oauth_provider, work, home)
    browser = Browser(social)
    offered = choices(social_sign_in(browser, "github"))
    link_page = finish(browser, browser.post("/auth/pick", {"choice": offered[home]}).headers["Location"])
    text = page_text(link_page)
    assert 'name="password"' not in text and "This account has no password." in text
    assert "Sign in with Corp SSO to link" in text and 'value="link_pending"' in text

    oauth_provider.next_user(sub=corp_sub, email=home, email_verified=True, name="Corp Person")
    answer = finish(browser, through_provider(browser, social_start(browser, "corp", "/auth/link", purpose="link_pending")))
    assert "GitHub is now linked to your account." in page_text(answer)
    assert linked(social, sub) == [home_id]
    assert f"Signed in as {home}" in home_text(browser)


def test_an_account_signed_in_here_is_a_candidate_too(social, oauth_provider):
    _, work, work_id = signed_up(social, "pick-held")
    browser, mine, mine_id = signed_up(social, "pick-mine")
    sub = github_user(oauth_provider, work)
    picker = social_sign_in(browser, "github")
    assert picker.url.endswith("/account/auth/pick"), picker.url
    offered = choices(picker)
    assert set(offered) == {work, mine} and "signed in in this browser" in page_text(picker)

    link_page = finish(browser, browser.post("/auth/pick", {"choice": offered[mine]}).headers["Location"])
    assert f"An account with {mine} already exists here." in page_text(link_page)
    assert browser.post("/auth/link", {"password": PASSWORD}).status_code == 303
    assert linked(social, sub) == [mine_id] and work_id != mine_id


@pytest.fixture(scope="module")
def driver():
    chromium = make_chromium()
    yield chromium
    chromium.quit()


@pytest.mark.parametrize("lang", LANGS)
def test_the_picker_page_looks_right(social, oauth_provider, driver, lang):
    _, work, _ = signed_up(social, "look-pick-a")
    _, home, _ = signed_up(social, "look-pick-b")
    github_user(oauth_provider, work, home)
    driver.delete_all_cookies()
    language_cookie(driver, social, lang)
    driver.get(social.base + "/sign_in")
    driver.find_element(By.CSS_SELECTOR, "button[data-provider=github]").click()
    page_wait(driver).until(lambda d: d.current_url.startswith(oauth_provider.issuer + "/authorize"))
    driver.find_element(By.ID, "approve").click()
    page_wait(driver).until(lambda d: d.current_url.startswith(social.base + "/auth/pick") and page_lang(d))
    for width in WIDTHS:
        show(driver, social.base + "/auth/pick", width)
        assert len(driver.find_elements(By.CSS_SELECTOR, "main li[data-choice] button")) == 2
        check_page(driver, "social_pick", width, lang)
    driver.find_element(By.CSS_SELECTOR, "main li[data-choice='1'] button").click()
    page_wait(driver).until(lambda d: d.current_url.startswith(social.base + "/auth/link"))
    assert driver.find_element(By.ID, "password").is_displayed()
