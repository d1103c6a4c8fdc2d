"""Shared helpers of the look and accessibility pass (test_look.py, test_look_flows.py, test_keyboard.py).

A page is checked in Chromium at each of WIDTHS, in a language and a colour scheme: axe-core finds no violation of
serious or critical impact, nothing overflows sideways, `<html lang>` is the language asked for, no English word is
left on a page in another language, and a full-page screenshot is saved as
`$FRONTDOOR_ARTIFACTS/screenshots/<page>-<lang>-<width>[-dark].png` (default `test-artifacts/` in the repository,
ignored by git): open them to see every page as people see it.
"""
import base64
import os
import re
import struct
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium_axe_python import Axe

from chromium_driver import make_chromium, page_wait
from stack import ROOT
from users import unique_email

WIDTHS = (360, 1280)
LANGS = ("en", "fr")
ALL_LANGS = LANGS + ("de",)   # German: the longest words, at 360 px
LOOKS = [(width, dark) for width in WIDTHS for dark in (False, True)]   # each width, light and dark
ARTIFACTS = Path(os.environ.get("FRONTDOOR_ARTIFACTS", ROOT / "test-artifacts")) / "screenshots"
PASSWORD = "correct horse battery"

# English words that the French and German catalogs never use: one of them in a page's text means a message was left
# untranslated. (Addresses and URLs are taken out first; text marked with another `lang`, such as the switcher's
# language names, is not read.)
ENGLISH = {"the", "your", "you", "and", "with", "this", "that", "please", "sign", "signed", "password", "settings",
           "address", "account", "accounts", "email", "emails", "back", "continue", "cancel", "send", "save", "change",
           "something", "went", "wrong", "error", "found", "check", "here", "home", "remember", "forgot", "delete",
           "allow", "device", "skip", "content", "language", "welcome", "linked"}

PAGE_TEXT = """
const lang = document.documentElement.lang, parts = [document.title];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  const element = walker.currentNode.parentElement;
  if (!element || element.closest("script, style")) continue;
  const marked = element.closest("[lang]");
  if (marked && marked.lang !== lang) continue;
  parts.push(walker.currentNode.textContent);
}
for (const element of document.querySelectorAll("[aria-label], [placeholder], [alt], [title]")) {
  const marked = element.closest("[lang]");
  if (marked && marked.lang !== lang) continue;
  for (const name of ["aria-label", "placeholder", "alt", "title"]) parts.push(element.getAttribute(name) || "");
}
return parts.join("\\n");
"""


# Buttons stacked on (or under) another button or a paragraph with less than 4 px between them: they read as one.
CROWDED = """
const shown = e => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden";
};
const name = e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " '" + e.textContent.trim().slice(0, 30) + "'";
const buttons = [...document.querySelectorAll("main button")].filter(shown);
const blocks = [...document.querySelectorAll("main button, main p, main ul, main fieldset, main .field")].filter(shown);
const found = [];
for (const button of buttons) {
  const b = button.getBoundingClientRect();
  for (const other of blocks) {
    if (other === button || other.contains(button) || button.contains(other)) continue;
    const o = other.getBoundingClientRect();
    if (Math.min(b.right, o.right) - Math.max(b.left, o.left) <= 0) continue;  // side by side
    const gap = Math.max(o.top - b.bottom, b.top - o.bottom);
    if (gap < 4 && o.top >= b.top) found.push(name(button) + " / " + name(other) + " (" + Math.round(gap) + "px)");
  }
}
return found.slice(0, 4);
"""


def shot_name(name, lang, width, dark=False):
    return f"{name}-{lang}-{width}{'-dark' if dark else ''}"


def prepare(driver, width, dark=False):
    """The viewport `width` CSS pixels wide (a phone's below 500) and the colour scheme the page is asked for."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 500})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})


def loaded(driver):
    page_wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")


def show(driver, url, width, dark=False):
    """Loads `url` at `width` in the colour scheme and waits for the page."""
    prepare(driver, width, dark)
    driver.get(url)
    loaded(driver)


def on_stack(driver, stack):
    """Makes sure the browser is on the stack's origin (cookies can only be set for the page's own site)."""
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(stack.base))
    if not driver.current_url.startswith(origin + "/"):
        driver.get(stack.base + "/static/css/frontdoor.css")


def language_cookie(driver, stack, lang):
    """What the language switcher leaves in a browser: `frontdoor_lang=<lang>` for the base path."""
    on_stack(driver, stack)
    driver.delete_cookie("frontdoor_lang")
    driver.add_cookie({"name": "frontdoor_lang", "value": lang, "path": urlsplit(stack.base).path, "httpOnly": True,
                       "sameSite": "Lax"})


def page_lang(driver):
    return driver.execute_script("return document.documentElement.lang")


def switch_language(driver, lang):
    """Presses the switcher's button for `lang` at the foot of the current page (unless it is the language already)
    and waits for the page to come back in it. Signed in, this is the account's preference from now on."""
    if page_lang(driver) == lang:
        return
    driver.find_element(By.CSS_SELECTOR, f"footer .language-switcher button[name=lang][value={lang}]").click()
    page_wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete" and page_lang(d) == lang)


def fill(driver, **fields):
    """Types into the inputs named by the keywords (cleared first)."""
    for name, value in fields.items():
        element = driver.find_element(By.NAME, name)
        element.clear()
        element.send_keys(value)


def submit(driver, selector="main form button[type=submit]"):
    """Presses the form's button and waits for the next page."""
    old = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.CSS_SELECTOR, selector).click()
    page_wait(driver).until(lambda d: d.find_element(By.TAG_NAME, "html") != old)
    loaded(driver)


def sign_up(driver, stack, email=None):
    """Signs up with a new address through the form (in the browser's language); returns the address."""
    email = email or unique_email("look")
    driver.get(stack.base + "/sign_up")
    fill(driver, email=email, password=PASSWORD, password_confirmation=PASSWORD)
    submit(driver)
    return email


def sign_up_with_errors(driver, stack):
    """The sign-up form sent back with an error on each of its fields."""
    driver.get(stack.base + "/sign_up")
    fill(driver, email="nobody@", password="short", password_confirmation="other")
    submit(driver)
    assert len(driver.find_elements(By.CSS_SELECTOR, "main .field-error")) >= 2, "the form came back with its errors"


def leftover_english(driver):
    text = driver.execute_script(PAGE_TEXT)
    text = re.sub(r"\S+@\S+|https?://\S+|\b[\w.-]+\.(?:com|test|org)\b", " ", text)
    return sorted({word for word in re.findall(r"[A-Za-z]+", text) if word.lower() in ENGLISH})


def check_page(driver, name, width, lang, dark=False):
    """axe (serious and critical impact), the language, no sideways overflow, no broken image, no English left on a
    translated page; the full-page screenshot saved first, so a failing page can be looked at. Every problem found
    is reported at once."""
    label = shot_name(name, lang, width, dark)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{label}.png").write_bytes(screenshot(driver, width))
    problems = []
    if page_lang(driver) != lang:
        problems.append(f"<html lang={page_lang(driver)!r}>")
    axe = Axe(driver)
    axe.inject()
    problems += [f"axe {v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
                 for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    # Against the window's own width: a phone's layout viewport grows to fit wide content (so innerWidth does too).
    overflow = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if overflow > 0:
        problems.append(f"{overflow}px wider than the window: {wider_than_the_window(driver)}")
    broken = driver.execute_script(  # the empty logo of a site without logo_url: test_look.py has its own test
        "return [...document.images].filter(i => !(i.complete && i.naturalWidth > 0))"
        "  .filter(i => !i.matches('img.site-logo[src=\"\"]')).map(i => i.outerHTML)")
    if broken:
        problems.append(f"broken images: {broken}")
    crowded = driver.execute_script(CROWDED)
    if crowded:
        problems.append(f"no space between a button and what is above or below it: {crowded}")
    english = leftover_english(driver) if lang != "en" else []
    if english:
        problems.append(f"English words on the page: {english}")
    assert problems == [], f"{label}: " + "; ".join(problems)


def wider_than_the_window(driver):
    """The outermost elements reaching past the window's right edge."""
    return driver.execute_script("""
const limit = document.documentElement.clientWidth, found = [];
for (const element of document.body.querySelectorAll("*")) {
  if (element.getBoundingClientRect().right <= limit + 0.5) continue;
  if (found.some(outer => outer.contains(element))) continue;
  found.push(element);
}
const name = e => e.tagName.toLowerCase() + (e.className ? "." + String(e.className).split(" ").join(".") : "");
return found.slice(0, 4).map(e => name(e) + " (right edge " + Math.round(e.getBoundingClientRect().right) + "px)");
""")


def screenshot(driver, width):
    height = driver.execute_script("return Math.ceil(document.documentElement.scrollHeight)")
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
    png = base64.b64decode(shot["data"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (width, height), f"screenshot {struct.unpack('>II', png[16:24])}"
    return png


@pytest.fixture(scope="module")
def driver():
    """One headless Chromium for a module's look checks (import it into the test module to use it)."""
    chromium = make_chromium()
    yield chromium
    chromium.quit()


def checked(driver, name, width, lang, dark=False):
    """check_page's problems as a list (every look is checked even after a failure, so each gets its screenshot)."""
    try:
        check_page(driver, name, width, lang, dark)
    except AssertionError as failure:
        return [str(failure).split("\n")[0]]
    return []


def each_look(driver, url, name, lang, arrived=None):
    """The page at `url` at each width, light and dark (LOOKS); `arrived(driver)` asserts it is the page meant.
    Returns the problems found, every look checked."""
    failures = []
    for width, dark in LOOKS:
        show(driver, url, width, dark)
        if arrived:
            arrived(driver)
        failures += checked(driver, name, width, lang, dark)
    return failures
