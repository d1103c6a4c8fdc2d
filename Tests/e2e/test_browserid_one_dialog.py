"""One dialog, one site, one answer per call, in Chromium. The popup dialog serves the site whose `request` came
first: when the relying party's window is sent to another site that asks the dialog too (before the person clicks
Continue, or while the assertion is being signed: crypto.subtle.sign is held by a script put into the dialog), the
assertion is still for the first site and is posted to that site only, so the other site hears nothing. include.js
answers a second request()/get() made while its dialog is open at once, as a cancel, and the first call still gets
its answer."""
import pytest
from selenium.webdriver.common.by import By

from bid_browser import PASSWORD, sign_in_in_dialog, sign_in_to_frontdoor, text, to_popup, wait
from chromium_driver import page_wait
from relying_party import RelyingParty
from users import confirmed_user

# Put into the dialog: notes the origin of every `request` it hears and the `aud` of every payload it signs, and holds
# each signature until window.releaseSign() (the window between the person's click and delivery).
HOLD_SIGNING = """
  window.heard = [];
  window.addEventListener("message", function (event) {
    if (event.data && event.data.frontdoor === "request") window.heard.push(event.origin);
  });
  window.audiences = [];
  var sign = crypto.subtle.sign.bind(crypto.subtle), release;
  var released = new Promise(function (resolve) { release = resolve; });
  window.releaseSign = function () { release(); };
  crypto.subtle.sign = function (algorithm, key, bytes) {
    var payload = new TextDecoder().decode(bytes).split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    window.audiences.push(JSON.parse(atob(payload)).aud);
    return released.then(function () { return sign(algorithm, key, bytes); });
  };
"""


def choose_and_continue(driver, email):
    driver.find_element(By.CSS_SELECTOR, f"input[name=email][value='{email}']").click()
    driver.find_element(By.ID, "browserid-continue").click()
    wait(driver, lambda d: d.execute_script("return window.audiences.length") == 1)


@pytest.mark.parametrize("when", ["before the click", "while signing"])
def test_the_dialog_signs_for_and_delivers_to_the_first_site_only(bid_stack, rp, driver, when):
    _, email = confirmed_user(bid_stack, PASSWORD)
    sign_in_to_frontdoor(driver, bid_stack, email)
    driver.get(rp.origin + "/")
    wait(driver, lambda d: text(d, "ready") == "ready")
    main = driver.current_window_handle
    driver.find_element(By.ID, "signin").click()
    to_popup(driver, main)
    dialog = driver.current_window_handle
    button = wait(driver, lambda d: d.find_elements(By.ID, "browserid-continue") and d.find_element(By.ID, "browserid-continue"))
    wait(driver, lambda d: button.is_enabled())
    assert text(driver, "rp-origin") == rp.origin
    driver.execute_script(HOLD_SIGNING)
    if when == "while signing":
        choose_and_continue(driver, email)

    with RelyingParty(rp.frontdoor_base) as other:
        # The relying party's window now shows another site, which asks the open dialog for itself.
        driver.switch_to.window(main)
        driver.get(other.origin + "/opener")
        driver.execute_script("window.askDialog()")
        driver.switch_to.window(dialog)
        wait(driver, lambda d: d.execute_script("return window.heard") == [other.origin])
        assert len(driver.window_handles) == 2, "the other site reached the open dialog, not a new window"
        if when == "before the click":
            assert text(driver, "rp-origin") == rp.origin, "the dialog still names the site the person is asked about"
            choose_and_continue(driver, email)
        assert driver.execute_script("return window.audiences") == [rp.origin], "the assertion is for the first site"
        driver.execute_script("window.releaseSign()")

        driver.switch_to.window(main)
        wait(driver, lambda d: len(d.window_handles) == 1)   # the dialog delivered its answer and closed
        # Every message sent before the dialog closed was queued before this round trip through the page's own queue.
        driver.execute_script("window.postMessage('round trip', location.origin)")
        wait(driver, lambda d: d.execute_script("return window.roundTrip === true"))
        heard = driver.execute_script("return window.messages")
        assert heard == [], f"the other site received {heard}"
    assert rp.verified == []


SECOND_CALL = {
    "/": ("signin", "navigator.id.request({oncancel: function () { window.second = (window.second || 0) + 1; }})"),
    "/legacy": ("get", "navigator.id.get(function (a) { window.second = (window.second || 0) + 1; window.secondAnswer = a; })"),
}


@pytest.mark.parametrize("page", SECOND_CALL)
def test_a_second_call_while_the_dialog_is_open_is_answered_and_the_first_keeps_its_answer(bid_stack, rp, driver, page):
    _, email = confirmed_user(bid_stack, PASSWORD)
    button, second_call = SECOND_CALL[page]
    driver.get(rp.origin + page)
    if page == "/":
        wait(driver, lambda d: text(d, "ready") == "ready")
    main = driver.current_window_handle
    driver.find_element(By.ID, button).click()
    to_popup(driver, main)
    dialog = driver.current_window_handle
    driver.switch_to.window(main)
    driver.execute_script(second_call)   # a second click, or the page asking again
    page_wait(driver, 10).until(lambda d: d.execute_script("return window.second") == 1, "the second call got no answer")
    assert driver.execute_script("return window.secondAnswer === undefined || window.secondAnswer === null")
    assert len(driver.window_handles) == 2, "the open dialog stays, and no second one is opened"

    driver.switch_to.window(dialog)
    wait(driver, lambda d: rp.origin in text(d, "rp-origin") or d.find_elements(By.ID, "password"))
    sign_in_in_dialog(driver, email)
    driver.switch_to.window(main)
    wait(driver, lambda d: text(d, "result") == email)
    assert rp.verified[-1]["status"] == "okay" and rp.verified[-1]["audience"] == rp.origin
    assert driver.execute_script("return window.second") == 1, "the second call was answered once"
    if page == "/":
        assert driver.execute_script("return window.calls") == {"login": 1, "logout": 0, "ready": 1, "cancel": 0}
    else:
        assert len(driver.execute_script("return window.answers")) == 1
