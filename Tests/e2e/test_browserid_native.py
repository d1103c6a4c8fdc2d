"""The native BrowserID bridge (BrowserID-iOS's BrowserIDViewController) through nginx: Chromium plays the app's web
view on <base>/browserid/native?origin=<the app's origin>, signs in, confirms an address, and the browserid-origin://
callback the page navigates to is caught by a hook the page offers harnesses (window.frontdoorNativeNavigate, set
before the page loads through the DevTools protocol). The assertion is then checked as the app's server would:
Frontdoor's POST /verify and PyBrowserID's LocalVerifier, audience = the origin. The bridge serves only the origins
listed in browserid.allowed_origins: with the list empty (the default) it is not there at all."""
import re
import time
from urllib.parse import parse_qs, quote, unquote, urlsplit

import pytest
import requests
from browserid import LocalVerifier
from selenium.webdriver.common.by import By

from chromium_driver import make_chromium, page_wait
from http_client import Browser
from stack import new_stack
from users import confirmed_user
from test_browserid_verify import FromRunningServer

PASSWORD = "correct horse battery"
ORIGIN = "http://my.app:3000"
TIMEOUT = 30
# Records each callback instead of navigating (Chromium has no app to hand browserid-origin:// to).
HOOK = "window.frontdoorNativeNavigate = function (url) { (window.nativeCallbacks = window.nativeCallbacks || []).push(url); };"


@pytest.fixture(scope="module")
def native_stack(tmp_path_factory, request):
    """Confirmation on, mail to an outbox folder, and two apps' origins listed in browserid.allowed_origins."""
    yield from new_stack(tmp_path_factory, request, {"mail.transport": "outbox",
                                                     "browserid.allowed_origins": f"{ORIGIN}, https://app.example"})


@pytest.fixture(scope="module")
def unlisted_stack(tmp_path_factory, request):
    """browserid.allowed_origins left empty, as a fresh configuration has it."""
    yield from new_stack(tmp_path_factory, request, {"mail.transport": "outbox"})


@pytest.fixture
def web_view():
    driver = make_chromium()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
    yield driver
    driver.quit()


def wait(driver, condition, timeout=20):
    return page_wait(driver, timeout).until(lambda d: condition(d))


def page(stack, origin):
    return stack.base + "/browserid/native?origin=" + quote(origin, safe="")


def callbacks(driver):
    return driver.execute_script("return window.nativeCallbacks || []")


def leaked(stack, response, audience):
    """The /verify receipt for `audience` of the assertion a bridge answer carries, or None when it carries none."""
    found = re.search(r'browserid-origin://didSucceedWithAssertion\?data=([^"&]+)', response.text)
    return found and requests.post(stack.base + "/verify", data={"assertion": unquote(found.group(1)), "audience": audience},
                                   timeout=TIMEOUT).json()


def sign_in_and_confirm(driver, stack, email):
    driver.get(page(stack, ORIGIN + "/"))
    wait(driver, lambda d: d.find_elements(By.ID, "password"))
    assert driver.find_element(By.ID, "rp-origin").text == ORIGIN
    driver.find_element(By.ID, "email").send_keys(email)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    driver.find_element(By.ID, "browserid-sign-in").click()
    button = wait(driver, lambda d: d.find_elements(By.ID, "browserid-continue") and d.find_element(By.ID, "browserid-continue"))
    assert "/browserid/native?origin=" in driver.current_url, "signing in came back to the page"
    assert driver.find_element(By.CSS_SELECTOR, f"input[name=email][value='{email}']").is_selected()
    button.click()
    wait(driver, lambda d: len(callbacks(d)) == 1)
    return callbacks(driver)[0]


def test_the_app_gets_an_assertion_its_verifier_accepts_for_its_origin_only(native_stack, web_view):
    _, email = confirmed_user(native_stack, PASSWORD)
    callback = sign_in_and_confirm(web_view, native_stack, email)
    assert callback == web_view.find_element(By.ID, "browserid-return").get_attribute("href"), "the link says the same"
    parts = urlsplit(callback)
    assert (parts.scheme, parts.netloc) == ("browserid-origin", "didSucceedWithAssertion")
    assertion = parse_qs(parts.query)["data"][0]
    assert assertion.count("~") == 1

    verify = lambda audience: requests.post(native_stack.base + "/verify", data={"assertion": assertion, "audience": audience},
                                            timeout=TIMEOUT).json()
    receipt = verify(ORIGIN)
    assert receipt["status"] == "okay" and receipt["email"] == email and receipt["audience"] == ORIGIN
    assert 0 < receipt["expires"] - time.time() * 1000 <= 120_000
    assert verify(ORIGIN + "/")["status"] == "okay"
    assert verify("http://my.app")["status"] == "failure", "another port is another audience"
    assert verify("https://app.example")["status"] == "failure"

    issuer = f"127.0.0.1:{native_stack.port}"
    local = LocalVerifier([ORIGIN], trusted_secondaries=[issuer], supportdocs=FromRunningServer(native_stack)).verify(assertion)
    assert local["status"] == "okay" and local["email"] == email and local["issuer"] == issuer


def test_cancel_tells_the_app_and_a_signed_in_person_only_confirms(native_stack, web_view):
    _, email = confirmed_user(native_stack, PASSWORD)
    sign_in_and_confirm(web_view, native_stack, email)
    web_view.get(page(native_stack, "https://app.example"))
    wait(web_view, lambda d: d.find_elements(By.ID, "browserid-continue"))
    assert not web_view.find_elements(By.ID, "password"), "signed in: no password asked again"
    assert callbacks(web_view) == [], "nothing goes to the app before the person chooses"
    web_view.find_element(By.ID, "browserid-cancel").click()
    wait(web_view, lambda d: callbacks(d) == ["browserid-origin://didCancel"])


def test_the_page_refuses_other_origins_framing_and_forged_posts(native_stack):
    allowed = requests.get(page(native_stack, ORIGIN), timeout=TIMEOUT)
    assert allowed.status_code == 200
    assert allowed.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in allowed.headers["Content-Security-Policy"]
    unlisted = requests.get(page(native_stack, "https://evil.example"), timeout=TIMEOUT)
    assert unlisted.status_code == 404 and "may not ask for a sign-in here" in unlisted.text, "not listed"
    assert requests.get(page(native_stack, "javascript:alert(1)"), timeout=TIMEOUT).status_code == 400
    assert requests.get(page(native_stack, ORIGIN), headers={"Sec-Fetch-Site": "cross-site"}, timeout=TIMEOUT).status_code == 403
    browser, email = confirmed_user(native_stack, PASSWORD)
    posted = browser.post("/browserid/native", {"origin": "https://evil.example", "email": email})
    assert posted.status_code == 404 and not leaked(native_stack, posted, "https://evil.example"), "not listed"
    forged = browser.post("/browserid/native", {"origin": ORIGIN, "email": email, "csrf_token": "forged"})
    assert forged.status_code == 403 and "browserid-origin://didSucceed" not in forged.text
    done = browser.post("/browserid/native", {"origin": ORIGIN, "email": email})
    assert done.status_code == 200 and "browserid-origin://didSucceedWithAssertion?data=" in done.text


def test_with_no_origins_listed_the_bridge_is_not_there(unlisted_stack):
    # Given a person signed in to Frontdoor in their ordinary browser, and an app that registered browserid-origin://
    # opening the bridge there for a site of its choosing (a typed or app-opened navigation: Sec-Fetch-Site none or absent).
    browser, email = confirmed_user(unlisted_stack, PASSWORD)
    other = "https://other.example"
    for headers in ({}, {"Sec-Fetch-Site": "none"}):
        shown = browser.get("/browserid/native?origin=" + quote(other, safe=""), headers=headers)
        assert shown.status_code == 404 and "browserid-continue" not in shown.text, (headers, shown.status_code)
    assert browser.get("/browserid/native?data=" + quote(other + "/", safe="")).status_code == 404, "the shim's name too"
    done = browser.post("/browserid/native", {"origin": other, "email": email})
    assert done.status_code == 404 and not leaked(unlisted_stack, done, other), \
        f"the bridge answered {done.status_code}; /verify says of its assertion for {other}: {leaked(unlisted_stack, done, other)}"
    assert browser.post("/browserid/native", {"origin": "javascript:alert(1)", "email": email}).status_code == 404, \
        "nothing is there to say the origin is malformed"


def test_one_session_gets_a_few_assertions_then_a_clear_refusal(native_stack):
    # Each assertion costs the server an RSA-2048 key generation: a session posting the form in a loop is stopped.
    browser, email = confirmed_user(native_stack, PASSWORD)
    token = browser.token("/")
    answers = [browser.post("/browserid/native", {"origin": ORIGIN, "email": email, "csrf_token": token}) for _ in range(8)]
    assert [answer.status_code for answer in answers] == [200] * 5 + [429] * 3
    assert all("browserid-origin://didSucceedWithAssertion" in answer.text for answer in answers[:5])
    refused = answers[-1]
    assert "browserid-origin://didSucceed" not in refused.text
    assert "Too many sign-ins for apps" in refused.text and 0 < int(refused.headers["Retry-After"]) <= 600
    fresh = Browser(native_stack)   # another session (the same person signing in again) has its own count
    assert fresh.post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303
    assert fresh.post("/browserid/native", {"origin": ORIGIN, "email": email}).status_code == 200
