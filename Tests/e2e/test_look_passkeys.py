"""The look of the passkey pages (see look.py): axe-clean, no overflow, no English left, screenshots at a phone's and
a desktop's width, light and dark, in every language. On this stack (public_url on localhost) the passkey buttons show;
the look pass of test_look.py runs on 127.0.0.1, where they do not (an IP address cannot be a relying party)."""
import pytest
from selenium.webdriver.common.by import By

from chromium_driver import make_chromium, page_wait
from look import LANGS, WIDTHS, check_page, language_cookie, show, sign_up, switch_language
from stack import Stack, running
from test_passkeys import NO_AUTOFILL, account_id, add_passkey, another_authenticator, chromium_with_authenticator


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    yield from running(Stack(tmp_path_factory.mktemp("passkeys-look"), {"confirmation.required": "false", "mail.transport": "outbox"},
                             host="localhost"))

@pytest.fixture(scope="module")
def with_passkeys(stack):
    """A signed-in Chromium whose account has two passkeys, one with a counter that went back."""
    chromium = chromium_with_authenticator(autofill=False)
    email = sign_up(chromium, stack)
    add_passkey(chromium, stack, "Work laptop")
    another_authenticator(chromium)
    add_passkey(chromium, stack, "Pixel 8 Pro (2nd, kitchen drawer), 2026-11-29")
    stack.query("UPDATE passkey SET counterWentBackAt = createdAt, lastUsedAt = createdAt WHERE accountId = ? AND name = 'Work laptop'",
                account_id(stack, email))
    yield chromium
    chromium.quit()


@pytest.fixture(scope="module")
def anonymous_chromium():
    chromium = make_chromium()
    chromium.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NO_AUTOFILL})
    yield chromium
    chromium.quit()


LOOKS = [pytest.param(lang, width, dark, id=f"{lang}-{width}{'-dark' if dark else ''}")
         for lang in LANGS for width in WIDTHS for dark in (False, True)]


def shown(driver, selector):
    page_wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, selector).is_displayed())


@pytest.mark.parametrize("lang, width, dark", LOOKS)
def test_the_passkeys_page_looks_right(stack, with_passkeys, lang, width, dark):
    driver = with_passkeys
    show(driver, stack.base + "/", width, dark)
    switch_language(driver, lang)
    show(driver, stack.base + "/settings/passkeys", width, dark)
    shown(driver, "form[data-passkey=register]")
    assert len(driver.find_elements(By.CSS_SELECTOR, ".passkey")) == 2
    assert len(driver.find_elements(By.CSS_SELECTOR, ".passkey-warning")) == 1
    check_page(driver, "settings_passkeys_list", width, lang, dark)


@pytest.mark.parametrize("lang, width, dark", LOOKS)
def test_the_reauthentication_page_offers_the_passkey(stack, with_passkeys, lang, width, dark):
    driver = with_passkeys
    show(driver, stack.base + "/", width, dark)
    switch_language(driver, lang)
    show(driver, stack.base + "/settings/reauthenticate", width, dark)
    shown(driver, "form[data-passkey=reauthenticate]")
    check_page(driver, "reauthenticate_passkey", width, lang, dark)


@pytest.mark.parametrize("lang, width, dark", LOOKS)
def test_the_sign_in_page_offers_the_passkey_button(stack, anonymous_chromium, lang, width, dark):
    driver = anonymous_chromium
    driver.delete_all_cookies()
    language_cookie(driver, stack, lang)
    show(driver, stack.base + "/sign_in", width, dark)
    shown(driver, "form[data-passkey=sign_in]")
    check_page(driver, "sign_in_passkey", width, lang, dark)
