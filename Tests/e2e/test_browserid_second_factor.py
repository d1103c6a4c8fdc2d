"""BrowserID's dialog for an account with one-time codes, in Chromium: after the password in the dialog's popup the
second step (sign_in/second_factor, the same page as the sign-in's) asks the code inside the popup, then the dialog
goes on to choosing the address, and the relying party gets an assertion it verifies with Frontdoor's /verify. The
session the dialog made counts two factors. The native bridge's page (an app's web view) takes the same second step.

Stacks: bid_stack (confirmation on, outbox mail; the relying party is relying_party.py on another site) and
test_browserid_native's native_stack (an app's origin listed).
"""
from selenium.webdriver.common.by import By

from bid_browser import PASSWORD, text, to_popup, wait
from test_browserid_native import ORIGIN, callbacks, native_stack, page, web_view  # noqa: F401 (fixtures)
from two_step import enrol
from users import confirmed_user


def test_the_dialog_asks_the_code_after_the_password_then_certifies(bid_stack, rp, driver):
    browser, email = confirmed_user(bid_stack, PASSWORD)
    enrolment = enrol(browser)
    driver.get(rp.origin + "/")
    wait(driver, lambda d: text(d, "ready") == "ready")
    main = driver.current_window_handle
    driver.find_element(By.ID, "signin").click()
    to_popup(driver, main)
    wait(driver, lambda d: d.find_elements(By.ID, "password"))
    driver.find_element(By.ID, "email").clear()
    driver.find_element(By.ID, "email").send_keys(email)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    driver.find_element(By.ID, "browserid-sign-in").click()

    # The second step, in the popup, returning to the dialog (rd) once the code is right.
    wait(driver, lambda d: "/sign_in/second_factor" in d.current_url and d.find_elements(By.ID, "code"))
    assert "rd=" in driver.current_url and "browserid" in driver.current_url, driver.current_url
    driver.find_element(By.ID, "code").send_keys("000000" if enrolment.code(30) != "000000" else "111111")
    driver.find_element(By.CSS_SELECTOR, "form[action$='/sign_in/second_factor'] button[type=submit]").click()
    wait(driver, lambda d: d.find_elements(By.ID, "code-error"))
    driver.find_element(By.ID, "code").send_keys(enrolment.code(30))
    driver.find_element(By.CSS_SELECTOR, "form[action$='/sign_in/second_factor'] button[type=submit]").click()

    button = wait(driver, lambda d: d.find_elements(By.ID, "browserid-continue") and d.find_element(By.ID, "browserid-continue"))
    assert "/browserid/sign_in" in driver.current_url
    wait(driver, lambda d: button.is_enabled())
    driver.find_element(By.CSS_SELECTOR, f"input[name=email][value='{email}']").click()
    button.click()
    driver.switch_to.window(main)
    wait(driver, lambda d: len(d.window_handles) == 1)
    wait(driver, lambda d: text(d, "result") == email)
    assert rp.verified[-1]["status"] == "okay" and rp.verified[-1]["email"] == email

    account = bid_stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email.lower())[0][0]
    # The dialog's session, the newest of the account's (the enrolling browser has the other), has two factors.
    rows = bid_stack.query("SELECT factors FROM session WHERE accountId = ? AND kind = 'browser' ORDER BY createdAt DESC", account)
    assert len(rows) == 2 and rows[0][0] == 2, rows


def test_the_native_bridge_asks_the_code_after_the_password_then_answers_the_app(native_stack, web_view):
    browser, email = confirmed_user(native_stack, PASSWORD)
    enrolment = enrol(browser)
    web_view.get(page(native_stack, ORIGIN + "/"))
    wait(web_view, lambda d: d.find_elements(By.ID, "password"))
    web_view.find_element(By.ID, "email").send_keys(email)
    web_view.find_element(By.ID, "password").send_keys(PASSWORD)
    web_view.find_element(By.ID, "browserid-sign-in").click()
    wait(web_view, lambda d: "/sign_in/second_factor" in d.current_url and d.find_elements(By.ID, "code"))
    web_view.find_element(By.ID, "code").send_keys(enrolment.code(30))
    web_view.find_element(By.CSS_SELECTOR, "form[action$='/sign_in/second_factor'] button[type=submit]").click()
    button = wait(web_view, lambda d: d.find_elements(By.ID, "browserid-continue") and d.find_element(By.ID, "browserid-continue"))
    assert "/browserid/native?origin=" in web_view.current_url, "the second step came back to the bridge's page"
    button.click()
    wait(web_view, lambda d: len(callbacks(d)) == 1)
    assert callbacks(web_view)[0].startswith("browserid-origin://didSucceedWithAssertion?data=")
