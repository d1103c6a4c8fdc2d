"""The look and accessibility pass (look.py) for settings/two_step in its states: off, enrolling (the QR code, the key
and the code field; also with the wrong-code error, and in the dark scheme, where the QR code stays black on white),
the recovery codes shown once, and on. English, French and German, 360 px and 1280 px wide. Codes come from pyotp.
"""
import pyotp
import pytest
from selenium.webdriver.common.by import By

from look import LANGS, LOOKS, checked, driver, each_look, fill, language_cookie, prepare, show, sign_up, submit  # noqa: F401 (driver: a fixture)
from stack import new_stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory, request):
    """Confirmation off, outbox mail, and a sign-in that stays recent for a day (every change here needs one)."""
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox",
                                                     "session.reauthenticate_after": "1d"})


@pytest.mark.parametrize("lang", LANGS + ("de",))   # German: the long words ("Wiederherstellungscodes") at 360 px
def test_the_two_step_page_in_each_state(stack, driver, lang):
    driver.delete_all_cookies()
    language_cookie(driver, stack, lang)
    sign_up(driver, stack)
    page = stack.base + "/settings/two_step"
    failures = each_look(driver, page, "settings_two_step_off", lang)

    submit(driver)  # "Set up an authenticator app"
    assert driver.find_elements(By.CSS_SELECTOR, "main svg.qr-code"), "the enrolment with its QR code"
    failures += each_look(driver, page, "settings_two_step_enrol", lang)
    secret = driver.find_element(By.CSS_SELECTOR, "main .two-step-secret").text.replace(" ", "")

    for width, dark in LOOKS:
        prepare(driver, width, dark)
        fill(driver, code="000000" if pyotp.TOTP(secret).now() != "000000" else "111111")
        submit(driver)
        assert driver.find_elements(By.CSS_SELECTOR, "main .field-error"), "the wrong code's message"
        failures += checked(driver, "settings_two_step_wrong_code", width, lang, dark)

    (first_width, first_dark), *others = LOOKS
    prepare(driver, first_width, first_dark)
    fill(driver, code=pyotp.TOTP(secret).now())
    submit(driver)
    assert len(driver.find_elements(By.CSS_SELECTOR, "main .recovery-code-list li")) == 10, "the recovery codes"
    failures += checked(driver, "settings_two_step_codes", first_width, lang, first_dark)
    for width, dark in others:
        # The codes are shown once: each other look gets its own, from "new recovery codes" (the on page's first form).
        show(driver, page, width, dark)
        submit(driver)
        assert len(driver.find_elements(By.CSS_SELECTOR, "main .recovery-code-list li")) == 10
        failures += checked(driver, "settings_two_step_codes", width, lang, dark)
    failures += each_look(driver, page, "settings_two_step_on", lang)
    assert failures == [], "\n".join(failures)
