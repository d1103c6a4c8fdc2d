"""BrowserID in a real browser (Debian chromium + chromedriver, headless, through selenium): a relying party on
another site embeds include.js; the popup flow, the redirect flow, third-party cookies blocked, logout, and the
native shim. The relying party's back end verifies every assertion with Frontdoor's /verify."""
import pytest
from selenium.webdriver.common.by import By

from conftest import confirmed_user, make_chromium, page_wait
from relying_party import RelyingParty

PASSWORD = "correct horse battery"


def make_driver(block_third_party=False):
    prefs = {"profile.cookie_controls_mode": 1, "profile.block_third_party_cookies": True} if block_third_party else None
    return make_chromium("--disable-popup-blocking", prefs=prefs)


@pytest.fixture
def rp(bid_stack):
    party = RelyingParty(bid_stack.base)
    yield party
    party.stop()


@pytest.fixture
def driver():
    d = make_driver()
    yield d
    d.quit()


@pytest.fixture
def blocking_driver():
    d = make_driver(block_third_party=True)
    yield d
    d.quit()


def wait(driver, condition, timeout=20):
    return page_wait(driver, timeout).until(lambda d: condition(d))


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def calls(driver):
    return driver.execute_script("return window.calls")


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


def popup_sign_in(driver, rp, email):
    driver.get(rp.origin + "/")
    wait(driver, lambda d: text(d, "ready") == "ready")
    main = driver.current_window_handle
    driver.find_element(By.ID, "signin").click()
    wait(driver, lambda d: len(d.window_handles) == 2)
    driver.switch_to.window([h for h in driver.window_handles if h != main][0])
    wait(driver, lambda d: "/browserid/sign_in" in d.current_url)
    wait(driver, lambda d: rp.origin in text(d, "rp-origin") or d.find_elements(By.ID, "password"))
    sign_in_in_dialog(driver, email)
    driver.switch_to.window(main)
    wait(driver, lambda d: len(d.window_handles) == 1)
    wait(driver, lambda d: text(d, "result") == email)


def test_popup_flow_signs_in_on_another_site(bid_stack, rp, driver):
    _, email = confirmed_user(bid_stack, PASSWORD)
    popup_sign_in(driver, rp, email)
    assert rp.verified[-1]["status"] == "okay" and rp.verified[-1]["audience"] == rp.origin
    assert rp.verified[-1]["issuer"] == f"127.0.0.1:{bid_stack.port}"
    assert calls(driver) == {"login": 1, "logout": 0, "ready": 1, "cancel": 0}
    # Signed in at Frontdoor now: the next request goes straight to choosing the address; closing it is a cancel.
    main = driver.current_window_handle
    driver.find_element(By.ID, "signin").click()
    wait(driver, lambda d: len(d.window_handles) == 2)
    driver.switch_to.window([h for h in driver.window_handles if h != main][0])
    # The dialog learns the site's origin from the opener's answer to its "ready" message, after the page loaded; it
    # shows the origin and enables Continue then. Cancel before that would close the popup without telling the site.
    button = wait(driver, lambda d: d.find_elements(By.ID, "browserid-continue") and d.find_element(By.ID, "browserid-continue"))
    wait(driver, lambda d: button.is_enabled())
    assert rp.origin in text(driver, "rp-origin")
    driver.find_element(By.ID, "browserid-cancel").click()
    driver.switch_to.window(main)
    wait(driver, lambda d: calls(d)["cancel"] == 1)
    assert calls(driver)["login"] == 1


def test_redirect_flow_returns_with_the_assertion(bid_stack, rp, driver):
    _, email = confirmed_user(bid_stack, PASSWORD)
    driver.get(rp.origin + "/")
    wait(driver, lambda d: text(d, "ready") == "ready")
    driver.find_element(By.ID, "signin-redirect").click()
    wait(driver, lambda d: "/browserid/sign_in?return_to=" in d.current_url)
    wait(driver, lambda d: d.find_elements(By.ID, "rp-origin"))
    assert rp.origin in text(driver, "rp-origin")
    sign_in_in_dialog(driver, email)
    wait(driver, lambda d: d.current_url.startswith(rp.origin + "/?back=1"))
    wait(driver, lambda d: text(d, "result") == email)
    assert "browserid_assertion" not in driver.current_url, "the assertion is taken out of the address bar"
    assert calls(driver)["login"] == 1 and calls(driver)["ready"] == 1


def test_with_third_party_cookies_blocked_watch_is_ready_and_request_works(bid_stack, rp, blocking_driver):
    driver = blocking_driver
    _, email = confirmed_user(bid_stack, PASSWORD)
    driver.get(rp.origin + "/")
    wait(driver, lambda d: text(d, "ready") == "ready")
    frame = driver.find_element(By.CSS_SELECTOR, "iframe[title=Frontdoor]")
    driver.switch_to.frame(frame)
    access = driver.execute_async_script("document.hasStorageAccess().then(arguments[0], function () { arguments[0](null); })")
    driver.switch_to.default_content()
    assert access is False, "the block took effect: the Frontdoor iframe has no access to its cookies"
    popup_sign_in(driver, rp, email)
    assert calls(driver) == {"login": 1, "logout": 0, "ready": 1, "cancel": 0}


def test_watch_never_signs_out_spuriously_and_logout_is_reported_once(bid_stack, rp, driver):
    _, email = confirmed_user(bid_stack, PASSWORD)
    driver.get(rp.origin + "/?user=" + email)  # the site thinks someone is signed in; nothing says otherwise
    wait(driver, lambda d: text(d, "ready") == "ready")
    assert calls(driver) == {"login": 0, "logout": 0, "ready": 1, "cancel": 0}
    driver.refresh()
    wait(driver, lambda d: text(d, "ready") == "ready")
    assert calls(driver)["logout"] == 0 and calls(driver)["ready"] == 1
    driver.find_element(By.ID, "signout").click()
    wait(driver, lambda d: calls(d)["logout"] == 1)
    driver.get(rp.origin + "/?user=" + email)  # a stale page still naming the user: reported already, no loop
    wait(driver, lambda d: text(d, "ready") == "ready")
    assert calls(driver) == {"login": 0, "logout": 0, "ready": 1, "cancel": 0}


def test_native_shim_asks_the_app_and_takes_its_answer(bid_stack, rp, driver):
    driver.get(rp.origin + "/native")
    wait(driver, lambda d: d.execute_script("return window.navigations.length") == 1)
    assert driver.execute_script("return window.navigations[0]") == (
        "browserid-origin://getVerifiedEmail/callback?data=" + rp.origin.replace(":", "%3A").replace("/", "%2F"))
    driver.execute_script("navigator.id.callback('an-assertion'); navigator.id.callback('again');")
    assert text(driver, "result") == "got an-assertion"
