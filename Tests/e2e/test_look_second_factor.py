"""The second step of a sign-in (sign_in/second_factor) in Chromium at 360 px and 1280 px, in English and French (and
German), light and dark: the code form after a right password, and the same form sent back with a wrong code. axe-core,
overflow and leftover-English checks and the screenshots as for every page (look.py). The account enrols through the
settings page in a plain HTTP client (two_step.enrol); Chromium then signs in with its password."""
import pytest
from selenium.webdriver.common.by import By

from chromium_driver import make_chromium
from look import LANGS, WIDTHS, PASSWORD, check_page, fill, language_cookie, prepare, submit
from stack import new_stack
from test_settings_account import signed_up
from two_step import enrol


@pytest.fixture(scope="module")
def stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox"})


@pytest.fixture(scope="module")
def chromium():
    driver = make_chromium()
    yield driver
    driver.quit()


def cases():
    found = [(lang, False) for lang in LANGS] + [("de", False)] + [(lang, True) for lang in LANGS]
    return [pytest.param(lang, dark, id=f"{lang}{'-dark' if dark else ''}") for lang, dark in found]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang, dark", cases())
def test_the_second_step_and_its_wrong_code_answer(stack, chromium, lang, dark, width):
    browser, email = signed_up(stack)
    enrol(browser)
    chromium.delete_all_cookies()
    language_cookie(chromium, stack, lang)
    prepare(chromium, width, dark)
    chromium.get(stack.base + "/sign_in")
    fill(chromium, email=email, password=PASSWORD)
    submit(chromium)
    assert "/sign_in/second_factor" in chromium.current_url, chromium.current_url
    code = chromium.find_element(By.NAME, "code")
    assert code.get_attribute("autocomplete") == "one-time-code" and code.get_attribute("inputmode") in (None, "")
    check_page(chromium, "sign_in_second_factor", width, lang, dark)
    fill(chromium, code="000000x")
    submit(chromium)
    assert chromium.find_elements(By.CSS_SELECTOR, "main .field-error"), "the form came back with the field's message"
    check_page(chromium, "sign_in_second_factor_wrong", width, lang, dark)
