"""navigator.id.get() and getVerifiedEmail(), Persona's older one-shot API, in Chromium with popup blocking on (as in a
person's browser: window.open works from a click, and is blocked outside one). The popup path, cancel, and the
redirect flow a blocked popup falls back to by itself, whose answer reaches the page's next get() call or its
get(callback, {silent: true}) at load. The relying party's back end verifies every assertion with /verify."""
import pytest
from selenium.webdriver.common.by import By

from bid_browser import PASSWORD, sign_in_in_dialog, sign_in_through_popup, text, to_popup, wait
from users import confirmed_user


pytestmark = pytest.mark.driver_options(block_popups=True)   # as in a person's browser


def answers(driver):
    return driver.execute_script("return window.answers")


def get_without_a_click(driver, rp):
    """get() from script, outside any click: the popup is blocked and the page goes to the dialog itself."""
    driver.execute_script("navigator.id.get(window.take, {siteName: 'Legacy RP'})")
    wait(driver, lambda d: "/browserid/sign_in?return_to=" in d.current_url)
    assert len(driver.window_handles) == 1, "no popup was opened"
    wait(driver, lambda d: d.find_elements(By.ID, "rp-origin"))
    assert rp.origin in text(driver, "rp-origin")


def test_get_and_get_verified_email_use_the_popup_and_cancel_calls_back_null(bid_stack, rp, driver):
    _, email = confirmed_user(bid_stack, PASSWORD)
    driver.get(rp.origin + "/legacy")
    main = sign_in_through_popup(driver, rp, email, "get")
    wait(driver, lambda d: text(d, "result") == email)
    assert rp.verified[-1]["status"] == "okay" and rp.verified[-1]["audience"] == rp.origin
    # getVerifiedEmail: signed in at Frontdoor now, so the dialog goes straight to choosing the address.
    driver.find_element(By.ID, "get-email").click()
    to_popup(driver, main)
    wait(driver, lambda d: rp.origin in text(d, "rp-origin"))
    sign_in_in_dialog(driver, email)
    driver.switch_to.window(main)
    wait(driver, lambda d: len(answers(d)) == 2 and text(d, "result") == email)
    assert len(rp.verified) == 2 and rp.verified[-1]["status"] == "okay"
    driver.find_element(By.ID, "get").click()
    to_popup(driver, main)
    button = wait(driver, lambda d: d.find_elements(By.ID, "browserid-continue") and d.find_element(By.ID, "browserid-continue"))
    wait(driver, lambda d: button.is_enabled())
    driver.find_element(By.ID, "browserid-cancel").click()
    driver.switch_to.window(main)
    wait(driver, lambda d: text(d, "result") == "cancelled")
    assert answers(driver)[2:] == [None] and len(rp.verified) == 2


def test_a_blocked_popup_falls_back_to_the_redirect_flow_and_the_next_get_gets_the_assertion(bid_stack, rp, driver):
    _, email = confirmed_user(bid_stack, PASSWORD)
    driver.get(rp.origin + "/legacy?from=here")
    get_without_a_click(driver, rp)
    sign_in_in_dialog(driver, email)
    wait(driver, lambda d: d.current_url == rp.origin + "/legacy?from=here")   # back, the answer taken out of the address
    assert answers(driver) == [], "nothing is called back before the page asks"
    driver.find_element(By.ID, "get").click()
    wait(driver, lambda d: text(d, "result") == email)
    assert len(driver.window_handles) == 1, "the answer was there: no popup"
    assert rp.verified[-1]["status"] == "okay" and rp.verified[-1]["audience"] == rp.origin


def test_after_the_redirect_a_silent_get_at_load_gets_the_assertion(bid_stack, rp, driver):
    _, email = confirmed_user(bid_stack, PASSWORD)
    driver.get(rp.origin + "/legacy?silent=1")
    wait(driver, lambda d: d.execute_script("return window.silent === null"))   # nothing came back: null, no dialog
    assert len(driver.window_handles) == 1 and "/legacy" in driver.current_url
    get_without_a_click(driver, rp)
    sign_in_in_dialog(driver, email)
    wait(driver, lambda d: text(d, "result") == email)
    assert driver.current_url == rp.origin + "/legacy?silent=1"
    assert isinstance(driver.execute_script("return window.silent"), str)
    assert rp.verified[-1]["status"] == "okay"


def test_a_redirect_cancelled_in_the_dialog_answers_the_next_get_with_null(bid_stack, rp, driver):
    driver.get(rp.origin + "/legacy")
    get_without_a_click(driver, rp)
    driver.find_element(By.ID, "browserid-cancel").click()
    wait(driver, lambda d: d.current_url == rp.origin + "/legacy")
    driver.find_element(By.ID, "get").click()
    wait(driver, lambda d: text(d, "result") == "cancelled")
    assert answers(driver) == [None] and len(driver.window_handles) == 1 and rp.verified == []
