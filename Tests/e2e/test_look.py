"""Every page in Chromium at 360 px and 1280 px wide: axe-core finds no violation of serious or critical impact,
nothing overflows sideways, and a full-page screenshot of each is saved as a PNG test artefact.

Screenshots go to `$FRONTDOOR_ARTIFACTS/screenshots/<page>-<width>.png` (default `test-artifacts/` in the repository,
ignored by git): open them to see every page as people see it.
"""
import base64
import os
import struct
from pathlib import Path

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium_axe_python import Axe

from conftest import ROOT, make_chromium, outbox_link, page_wait, unique_email

WIDTHS = (360, 1280)
ARTIFACTS = Path(os.environ.get("FRONTDOOR_ARTIFACTS", ROOT / "test-artifacts")) / "screenshots"
PASSWORD = "correct horse battery"

# Pages anyone can open, by the name their screenshots get.
ANONYMOUS = {
    "sign_in": "/sign_in",
    "sign_up": "/sign_up",
    "password_new": "/password/new",
    "confirmation_new": "/confirmation/new",
    "password_edit_invalid": "/password/edit?token=no-such-token",
    "confirm_invalid": "/confirm?token=no-such-token",
    "residence_invalid": "/residences/confirm?token=no-such-token",
    "not_found": "/no/such/page",
}
# Pages of a signed-in account.
SIGNED_IN = {
    "home": "/",
    "settings_profile": "/settings",
    "settings_password": "/settings/password",
    "settings_emails": "/settings/emails",
    "settings_sessions": "/settings/sessions",
    "settings_delete": "/settings/delete",
    "settings_reauthenticate": "/settings/reauthenticate",
}


@pytest.fixture(scope="module")
def driver():
    chromium = make_chromium()
    yield chromium
    chromium.quit()


def show(driver, url, width):
    """Loads `url` in a viewport `width` CSS pixels wide (a phone's below 500) and waits for the page."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 500})
    driver.get(url)
    page_wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")


def check_page(driver, name, width):
    """axe (serious and critical impact), no sideways overflow, and the full-page screenshot saved and readable."""
    axe = Axe(driver)
    axe.inject()
    violations = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    assert violations == [], f"{name} at {width}px: " + "; ".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in violations)
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{name} at {width}px is {overflow}px wider than the window"
    height = driver.execute_script("return Math.ceil(document.documentElement.scrollHeight)")
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
    png = base64.b64decode(shot["data"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    shot_width, shot_height = struct.unpack(">II", png[16:24])
    assert (shot_width, shot_height) == (width, height), f"{name} at {width}px: screenshot {shot_width}x{shot_height}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}-{width}.png").write_bytes(png)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ANONYMOUS)
def test_anonymous_pages(stack, driver, name, width):
    driver.delete_all_cookies()
    show(driver, stack.base + ANONYMOUS[name], width)
    check_page(driver, name, width)


def test_the_residence_approval_page(stack, driver):
    email = unique_email("look")
    answer = requests.post(stack.base + "/v1/residences", json={"email": email}, timeout=10)
    assert answer.status_code == 201
    link = outbox_link(stack, email, "/residences/confirm?token=")
    for width in WIDTHS:
        show(driver, link, width)
        assert driver.find_element(By.ID, "allow").is_displayed()
        check_page(driver, "residence_confirm", width)


@pytest.fixture(scope="module")
def signed_in(stack, driver):
    """The module's Chromium, signed up (confirmation is off on this stack) and so signed in."""
    driver.delete_all_cookies()
    driver.get(stack.base + "/sign_up")
    driver.find_element(By.NAME, "email").send_keys(unique_email("look"))
    driver.find_element(By.NAME, "password").send_keys(PASSWORD)
    driver.find_element(By.NAME, "password_confirmation").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    page_wait(driver).until(lambda d: "/sign_up" not in d.current_url)
    return driver


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", SIGNED_IN)
def test_signed_in_pages(stack, signed_in, name, width):
    show(signed_in, stack.base + SIGNED_IN[name], width)
    assert "/sign_in" not in signed_in.current_url, f"{name} asked to sign in"
    check_page(signed_in, name, width)
