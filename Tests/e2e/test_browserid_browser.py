"""BrowserID in a real browser (Debian chromium + chromedriver, headless, through selenium): a relying party on
another site embeds include.js; the popup flow, the redirect flow, third-party cookies blocked (sign-in and logout,
across tabs), logout, and the native shim. The relying party's back end verifies every assertion with Frontdoor's /verify."""
import pytest
from selenium.webdriver.common.by import By

from bid_browser import PASSWORD, make_driver, sign_in_in_dialog, sign_in_through_popup, text, wait
from users import confirmed_user
from relying_party import RelyingParty


@pytest.fixture
def blocking_driver():
    d = make_driver(block_third_party=True)
    yield d
    d.quit()


def calls(driver):
    return driver.execute_script("return window.calls")


def popup_sign_in(driver, rp, email):
    driver.get(rp.origin + "/")
    wait(driver, lambda d: text(d, "ready") == "ready")
    sign_in_through_popup(driver, rp, email, "signin")
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


def assert_third_party_blocked(driver, rp):
    """The block took effect: a cookie another site (127.0.0.1, while the relying party is on localhost) set for
    itself as SameSite=None is not sent into its frame on the relying party's page, which has no storage access
    either. (Chromium keeps partitioned localStorage in such a frame: include.js does not rely on a frame at all.)"""
    with RelyingParty(rp.frontdoor_base, host="127.0.0.1") as other:
        driver.get(other.origin + "/probe")
        driver.execute_script("document.cookie = 'probe=1; SameSite=None; Secure; Path=/'")
        assert driver.execute_script("return document.cookie") == "probe=1"
        driver.get(rp.origin + "/probe")
        driver.execute_script("var f = document.createElement('iframe'); f.id = 'probe'; f.src = arguments[0];"
                              "document.body.appendChild(f);", other.origin + "/probe")
        driver.switch_to.frame(wait(driver, lambda d: d.find_element(By.ID, "probe")))
        wait(driver, lambda d: d.find_elements(By.TAG_NAME, "p"))
        cookie = driver.execute_script("return document.cookie")
        access = driver.execute_async_script("document.hasStorageAccess().then(arguments[0], function () { arguments[0](null); })")
        driver.switch_to.default_content()
    assert cookie == "" and access is False, (cookie, access)


def test_with_third_party_cookies_blocked_watch_is_ready_and_request_works(bid_stack, rp, blocking_driver):
    driver = blocking_driver
    _, email = confirmed_user(bid_stack, PASSWORD)
    assert_third_party_blocked(driver, rp)
    driver.get(rp.origin + "/")
    wait(driver, lambda d: text(d, "ready") == "ready")
    assert not driver.find_elements(By.TAG_NAME, "iframe"), "include.js embeds no Frontdoor frame"
    popup_sign_in(driver, rp, email)
    assert calls(driver) == {"login": 1, "logout": 0, "ready": 1, "cancel": 0}


def test_with_third_party_cookies_blocked_logout_is_noticed_in_every_tab_once(bid_stack, rp, blocking_driver):
    driver = blocking_driver
    _, email = confirmed_user(bid_stack, PASSWORD)
    assert_third_party_blocked(driver, rp)
    driver.get(rp.origin + "/?user=" + email)
    wait(driver, lambda d: text(d, "ready") == "ready")
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(rp.origin + "/?user=" + email)   # the same site in another tab, also showing the person signed in
    wait(driver, lambda d: text(d, "ready") == "ready")
    second = driver.current_window_handle
    driver.switch_to.window(first)
    driver.find_element(By.ID, "signout").click()
    wait(driver, lambda d: calls(d)["logout"] == 1)
    driver.switch_to.window(second)
    wait(driver, lambda d: calls(d)["logout"] == 1)
    driver.refresh()   # a stale page still naming the person: that sign-out was reported already
    wait(driver, lambda d: text(d, "ready") == "ready")
    assert calls(driver) == {"login": 0, "logout": 0, "ready": 1, "cancel": 0}
    driver.switch_to.window(first)
    assert calls(driver) == {"login": 0, "logout": 1, "ready": 1, "cancel": 0}


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
