"""What the BrowserID browser tests share: Chromium with or without popup blocking and third-party cookies, waits,
and the steps of Frontdoor's dialog (sign in if asked, choose the address, continue)."""
from selenium.webdriver.common.by import By

from chromium_driver import make_chromium, page_wait

PASSWORD = "correct horse battery"


def make_driver(block_third_party=False, block_popups=False):
    """chromedriver turns popup blocking off by itself; `block_popups` keeps it on (window.open outside a click gets
    null, as in a person's browser). `block_third_party`: third-party cookies and storage blocked."""
    prefs = {"profile.cookie_controls_mode": 1, "profile.block_third_party_cookies": True} if block_third_party else None
    if block_popups:
        return make_chromium(prefs=prefs, exclude=("disable-popup-blocking",))
    return make_chromium("--disable-popup-blocking", prefs=prefs)


def wait(driver, condition, timeout=20):
    return page_wait(driver, timeout).until(lambda d: condition(d))


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def sign_in_in_dialog(driver, email):
    """On the dialog: sign in if asked, then choose the address and continue."""
    if driver.find_elements(By.ID, "password"):
        driver.find_element(By.ID, "email").clear()
        driver.find_element(By.ID, "email").send_keys(email)
        driver.find_element(By.ID, "password").send_keys(PASSWORD)
        driver.find_element(By.ID, "browserid-sign-in").click()
    button = wait(driver, lambda d: d.find_elements(By.ID, "browserid-continue") and d.find_element(By.ID, "browserid-continue"))
    wait(driver, lambda d: button.is_enabled())
    driver.find_element(By.CSS_SELECTOR, f"input[name=email][value='{email}']").click()
    button.click()


def to_popup(driver, main):
    """Switches to the dialog's popup window once it is open and showing the dialog."""
    wait(driver, lambda d: len(d.window_handles) == 2)
    driver.switch_to.window([h for h in driver.window_handles if h != main][0])
    wait(driver, lambda d: "/browserid/sign_in" in d.current_url)


def sign_in_through_popup(driver, rp, email, button):
    """Presses `button` on the relying party's page, signs in as `email` in the dialog's popup, and switches back to
    the page; returns the page's window handle."""
    main = driver.current_window_handle
    driver.find_element(By.ID, button).click()
    to_popup(driver, main)
    wait(driver, lambda d: rp.origin in text(d, "rp-origin") or d.find_elements(By.ID, "password"))
    sign_in_in_dialog(driver, email)
    driver.switch_to.window(main)
    return main


def sign_in_to_frontdoor(driver, stack, email):
    """The browser signs in on Frontdoor's own sign-in page (a first-party session cookie)."""
    driver.get(stack.base + "/sign_in")
    driver.find_element(By.ID, "email").send_keys(email)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "form[action$=\"/sign_in\"] button[type=submit]").click()
    wait(driver, lambda d: "/sign_in" not in d.current_url)
