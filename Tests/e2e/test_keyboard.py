"""Frontdoor with the keyboard alone, in Chromium: the skip link comes first and shows itself, the sign-in form
works with Tab and Enter, a refused form puts the focus on its first wrong field (which names its error), and the
language switcher is reached by Tab with a visible focus ring. Real key presses (WebDriver), never element clicks.
"""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from chromium_driver import make_chromium, page_wait
from http_client import Browser
from users import unique_email
from look import PASSWORD, fill, language_cookie, loaded, show, submit

FOCUSED = """
const e = document.activeElement, r = e.getBoundingClientRect(), s = getComputedStyle(e);
return {tag: e.tagName.toLowerCase(), id: e.id, className: String(e.className), name: e.getAttribute("name"),
        value: e.getAttribute("value"), text: e.textContent.trim(), outline: s.outlineStyle, outlineWidth: s.outlineWidth,
        focusVisible: e.matches(":focus-visible"),
        inside: r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth
                && r.bottom <= innerHeight};
"""


@pytest.fixture(scope="module")
def driver():
    chromium = make_chromium()
    yield chromium
    chromium.quit()


def press(driver, *keys):
    ActionChains(driver).send_keys(*keys).perform()


def focused(driver):
    return driver.execute_script(FOCUSED)


def tab_until(driver, wanted, limit=40):
    """Presses Tab until `wanted(focused element)` holds; returns what was focused on the way (the last one meant)."""
    seen = []
    for _ in range(limit):
        press(driver, Keys.TAB)
        seen.append(focused(driver))
        if wanted(seen[-1]):
            return seen
    path = [(f["tag"], f["id"] or f["text"][:20]) for f in seen]
    raise AssertionError(f"not reached with {limit} Tabs; focused in turn: {path}")


def fresh_page(driver, stack, path, width=1280, lang="en"):
    driver.delete_all_cookies()
    language_cookie(driver, stack, lang)
    show(driver, stack.base + path, width)


@pytest.mark.parametrize("width", (360, 1280))
def test_the_first_tab_shows_the_skip_link_and_enter_moves_to_the_main_content(stack, driver, width):
    fresh_page(driver, stack, "/sign_in", width)
    press(driver, Keys.TAB)
    link = focused(driver)
    assert "skip-link" in link["className"], f"the first Tab focused {link}"
    assert link["inside"], "the focused skip link is on screen"
    assert link["outline"] != "none" and link["focusVisible"], f"its focus is drawn: {link['outline']}"
    press(driver, Keys.ENTER)
    page_wait(driver).until(lambda d: focused(d)["id"] == "main")
    assert driver.current_url.endswith("#main")


def test_signing_in_with_the_keyboard_alone(stack, driver):
    email = unique_email("keys")
    assert Browser(stack).post("/sign_up", {"email": email, "password": PASSWORD,
                                            "password_confirmation": PASSWORD}).status_code == 303
    fresh_page(driver, stack, "/sign_in")
    tab_until(driver, lambda f: f["id"] == "email")
    press(driver, email, Keys.TAB)
    assert focused(driver)["id"] == "password"
    press(driver, PASSWORD, Keys.ENTER)
    page_wait(driver).until(lambda d: "/sign_in" not in d.current_url)
    loaded(driver)
    assert email in driver.find_element(By.CSS_SELECTOR, "main .signed-in-as").text


@pytest.mark.parametrize("lang", ("en", "fr", "de"))
def test_a_refused_sign_up_focuses_its_first_wrong_field_which_names_its_error(stack, driver, lang):
    fresh_page(driver, stack, "/sign_up", lang=lang)
    fill(driver, email=unique_email("focus"), password="short", password_confirmation="other")  # the address is fine
    submit(driver)
    # `autofocus` is applied when Chromium next renders the page, which may come after the load event: wait until
    # the focus has left the body, then check where it went.
    field = page_wait(driver).until(lambda d: (lambda f: f if f["tag"] != "body" else None)(focused(d)))
    assert field["id"] == "password", f"focused after the refusal: {field}"
    element = driver.switch_to.active_element
    assert element.get_attribute("aria-invalid") == "true"
    described = element.get_attribute("aria-describedby")
    assert described == "password-error"
    error = driver.find_element(By.ID, described)
    label = driver.find_element(By.CSS_SELECTOR, "label[for=password]").text
    assert error.text and error.is_displayed() and "field-error" in error.get_attribute("class")
    assert label in error.text, f"the error {error.text!r} names the field as its label does ({label!r})"
    assert driver.find_element(By.CSS_SELECTOR, "main .form-error[role=alert]").text
    invalid = [e.get_attribute("id") for e in driver.find_elements(By.CSS_SELECTOR, "main [aria-invalid=true]")]
    assert invalid[0] == "password" and "email" not in invalid, invalid


@pytest.mark.parametrize("lang", ("en", "fr"))
def test_the_language_switcher_is_reached_by_tab_with_a_visible_focus_ring(stack, driver, lang):
    fresh_page(driver, stack, "/sign_in", width=360, lang=lang)
    offered = [b.get_attribute("value") for b in driver.find_elements(By.CSS_SELECTOR, "footer .language-switcher button")
               if b.is_enabled()]
    assert offered and lang not in offered
    seen = tab_until(driver, lambda f: f["name"] == "lang" and f["value"] == offered[0])
    for code in offered[1:]:
        press(driver, Keys.TAB)
        seen.append(focused(driver))
        assert (seen[-1]["name"], seen[-1]["value"]) == ("lang", code), seen[-1]
    for button in [f for f in seen if f["name"] == "lang"]:
        assert button["outline"] != "none" and button["focusVisible"], f"no focus ring on {button}"
        assert float(button["outlineWidth"].removesuffix("px")) >= 2, button
        assert button["inside"], f"{button['text']} scrolled into view when focused"
    press(driver, Keys.ENTER)  # and the keyboard can use it
    page_wait(driver).until(lambda d: d.execute_script("return document.documentElement.lang") == offered[-1])
