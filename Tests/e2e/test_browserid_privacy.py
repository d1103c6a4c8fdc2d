"""Frontdoor's session stays private from other sites (issue 25). The provisioning page says whether someone is
signed in, so only Frontdoor itself and the sites in browserid.allowed_origins may frame it and hear from it; with
the list set, the dialog also refuses other sites (popup and redirect). The relying parties here are on 127.0.0.1
like Frontdoor, on other ports: the same site, so Chromium sends Frontdoor's SameSite=Lax session cookie into their
frames, and the allowed one hearing "signed in" shows that a leak would be seen."""
import pytest
import requests
from selenium.webdriver.common.by import By

from bid_browser import PASSWORD, sign_in_in_dialog, sign_in_to_frontdoor, text, to_popup, wait
from stack import new_stack
from users import confirmed_user
from relying_party import RelyingParty


@pytest.fixture(scope="module")
def parties():
    with RelyingParty(None, host="127.0.0.1") as allowed, RelyingParty(None, host="127.0.0.1") as other:
        yield allowed, other


@pytest.fixture(scope="module")
def privacy_stack(tmp_path_factory, request, parties):
    """Confirmation on, mail to an outbox folder, and one relying party allowed."""
    allowed, other = parties
    for stack in new_stack(tmp_path_factory, request, {"mail.transport": "outbox", "browserid.allowed_origins": allowed.origin}):
        allowed.frontdoor_base = other.frontdoor_base = stack.base
        yield stack


def framed(driver, party):
    """What `party`'s page heard from Frontdoor's provisioning page in a frame, once the frame has loaded."""
    driver.get(party.origin + "/provision")
    wait(driver, lambda d: d.execute_script("return window.loaded"))
    return driver.execute_script("return window.messages")


def frame_shows_provisioning(driver):
    driver.switch_to.frame(driver.find_element(By.ID, "frame"))
    shown = bool(driver.find_elements(By.ID, "browserid-provision"))
    driver.switch_to.default_content()
    return shown


def test_only_an_allowed_site_hears_from_the_provisioning_page(privacy_stack, parties, driver):
    allowed, other = parties
    frontdoor = f"http://127.0.0.1:{privacy_stack.port}"
    _, email = confirmed_user(privacy_stack, PASSWORD)
    assert framed(driver, allowed) == [{"origin": frontdoor, "data": {"frontdoor": "provisioning", "signedIn": False}}]
    sign_in_to_frontdoor(driver, privacy_stack, email)
    assert framed(driver, allowed) == [{"origin": frontdoor, "data": {"frontdoor": "provisioning", "signedIn": True}}]
    assert frame_shows_provisioning(driver)
    assert framed(driver, other) == [], "a site that is not allowed hears nothing"
    assert not frame_shows_provisioning(driver), "the browser did not even show it the page (frame-ancestors)"


def test_without_allowed_origins_no_other_site_hears_anything(bid_stack, driver):
    with RelyingParty(bid_stack.base, host="127.0.0.1") as other:
        _, email = confirmed_user(bid_stack, PASSWORD)
        sign_in_to_frontdoor(driver, bid_stack, email)
        assert framed(driver, other) == []
        assert not frame_shows_provisioning(driver)


def test_the_dialog_serves_the_allowed_site_and_refuses_another(privacy_stack, parties, driver):
    allowed, other = parties
    dialog = privacy_stack.base + "/browserid/sign_in?return_to="
    assert requests.get(dialog + requests.utils.quote(other.origin + "/"), timeout=30).status_code == 400
    assert requests.get(dialog + requests.utils.quote(allowed.origin + "/"), timeout=30).status_code == 200
    _, email = confirmed_user(privacy_stack, PASSWORD)
    sign_in_to_frontdoor(driver, privacy_stack, email)
    for party in (other, allowed):
        driver.get(party.origin + "/")
        wait(driver, lambda d: text(d, "ready") == "ready")
        main = driver.current_window_handle
        driver.find_element(By.ID, "signin").click()
        to_popup(driver, main)
        if party is other:
            wait(driver, lambda d: "may not use this sign-in" in text(d, "browserid-status"))
            assert not driver.find_element(By.ID, "browserid-continue").is_enabled() and text(driver, "rp-origin") == ""
            driver.find_element(By.ID, "browserid-cancel").click()
            driver.switch_to.window(main)
            wait(driver, lambda d: d.execute_script("return window.calls.cancel") == 1)
            assert driver.execute_script("return window.calls.login") == 0
        else:
            wait(driver, lambda d: allowed.origin in text(d, "rp-origin"))
            sign_in_in_dialog(driver, email)
            driver.switch_to.window(main)
            wait(driver, lambda d: text(d, "result") == email)
            assert allowed.verified[-1]["status"] == "okay" and allowed.verified[-1]["audience"] == allowed.origin
    assert other.verified == []
