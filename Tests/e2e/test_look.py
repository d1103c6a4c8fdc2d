"""Every page in Chromium at 360 px and 1280 px wide, in English and French (a few in German too, the longest
words), some in the dark colour scheme: axe-core finds no violation of serious or critical impact, nothing overflows
sideways, no English is left on a translated page, and a full-page screenshot of each is saved (see look.py).

Pages reached through other sites or mailed links are in test_look_flows.py; keyboard use in test_keyboard.py.
"""
import pytest
from selenium.webdriver.common.by import By

from chromium_driver import make_chromium
from stack import Stack, new_stack, running
from users import unique_email
from look import (LANGS, WIDTHS, check_page, fill, language_cookie, loaded, prepare, show, sign_up, sign_up_with_errors,
                  submit, switch_language)


def opens(path):
    return lambda driver, stack: driver.get(stack.base + path)


def asks(path, **fields):
    """Opens the form at `path`, fills it in and sends it: the page is the answer."""
    def open_(driver, stack):
        driver.get(stack.base + path)
        fill(driver, **{name: value() if callable(value) else value for name, value in fields.items()})
        submit(driver)
    return open_


# Pages anyone can open, by the name their screenshots get, and how to get there.
ANONYMOUS = {
    "sign_in": opens("/sign_in"),
    "sign_up": opens("/sign_up"),
    "sign_up_errors": sign_up_with_errors,
    "password_new": opens("/password/new"),
    "reminder_sent": asks("/password/new", email=lambda: unique_email("reminder")),
    "confirmation_new": opens("/confirmation/new"),
    "confirmation_sent": asks("/confirmation/new", email=lambda: unique_email("resend")),
    "password_edit_invalid": opens("/password/edit?token=no-such-token"),
    "confirm_invalid": opens("/confirm?token=no-such-token"),
    "residence_invalid": opens("/residences/confirm?token=no-such-token"),
    "not_found": opens("/no/such/page"),
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
    "second_factor_set_up_first": "/sign_in/second_factor",
    "settings_passkeys": "/settings/passkeys",
}
# German (long words) for a few pages; the dark colour scheme for a representative set, in every language above.
GERMAN = {"sign_in", "sign_up_errors", "settings_sessions", "settings_emails"}
DARK = {"sign_in", "sign_up_errors", "not_found", "settings_profile", "settings_emails", "second_factor_set_up_first", "settings_passkeys"}


def cases(pages):
    """(lang, page, dark) for the pages: language by language (a signed-in browser switches language seldom)."""
    found = [(lang, name, False) for lang in LANGS for name in pages]
    found += [("de", name, False) for name in pages if name in GERMAN]
    found += [(lang, name, True) for lang in LANGS for name in pages if name in DARK]
    return [pytest.param(lang, name, dark, id=f"{lang}-{name}{'-dark' if dark else ''}") for lang, name, dark in found]


@pytest.fixture(scope="module")
def stack(tmp_path_factory, request):
    """As conftest's `stack` (confirmation off, outbox mail), with a password entry that stays recent for a day: the
    signed-in browser signs up once, and its settings pages must be themselves, not the re-authentication page that
    the default 10 minutes would bring on a slow run."""
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox",
                                                     "session.reauthenticate_after": "1d"})


@pytest.fixture(scope="module")
def anonymous():
    chromium = make_chromium()
    yield chromium
    chromium.quit()


@pytest.fixture(scope="module")
def signed_in(stack):
    """A Chromium signed up (confirmation is off on this stack) and so signed in; its language is the account's
    preference, changed with the switcher."""
    chromium = make_chromium()
    sign_up(chromium, stack)
    assert "/sign_up" not in chromium.current_url
    yield chromium
    chromium.quit()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang, name, dark", cases(ANONYMOUS))
def test_anonymous_pages(stack, anonymous, lang, name, dark, width):
    anonymous.delete_all_cookies()
    language_cookie(anonymous, stack, lang)
    prepare(anonymous, width, dark)
    ANONYMOUS[name](anonymous, stack)
    loaded(anonymous)
    check_page(anonymous, name, width, lang, dark)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang, name, dark", cases(SIGNED_IN))
def test_signed_in_pages(stack, signed_in, lang, name, dark, width):
    url = stack.base + SIGNED_IN[name]
    show(signed_in, url, width, dark)
    assert signed_in.current_url == url, f"{name} went to {signed_in.current_url}"
    if signed_in.execute_script("return document.documentElement.lang") != lang:
        switch_language(signed_in, lang)
        show(signed_in, url, width, dark)  # again, without the switcher's notice
        assert signed_in.current_url == url, f"{name} went to {signed_in.current_url}"
    check_page(signed_in, name, width, lang, dark)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_signed_in_home_with_a_flash(stack, anonymous, lang, width):
    """Just signed up: the home page with its welcome notice."""
    anonymous.delete_all_cookies()
    language_cookie(anonymous, stack, lang)
    prepare(anonymous, width)
    sign_up(anonymous, stack)
    assert anonymous.current_url.rstrip("/") == stack.base
    notice = anonymous.find_element(By.CSS_SELECTOR, "main .flash.flash-notice[role=status]")
    assert notice.is_displayed() and notice.text
    check_page(anonymous, "home_flash", width, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_switchers_notice_shows_on_the_page_it_returns_to(stack, signed_in, lang):
    """The contract: POST language sets the flash `language_changed` ("From now on, pages are shown in …")."""
    other = next(code for code in ("en", "fr", "de") if code != lang)
    show(signed_in, stack.base + "/", WIDTHS[-1])
    switch_language(signed_in, other)
    switch_language(signed_in, lang)
    notices = signed_in.find_elements(By.CSS_SELECTOR, "main .flash.flash-notice[role=status]")
    assert [n.text for n in notices if n.is_displayed()], f"no notice on the home page in {lang} after the switch"
    check_page(signed_in, "home_language_changed", WIDTHS[-1], lang)


# MARK: - The operator's logo

LOGO = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">
<rect width="64" height="64" rx="14" fill="#1f5fbf"/><path d="M18 46V18h28v8H28v6h14v8H28v6z" fill="#fff"/></svg>
"""


def logo_location(stack):
    """nginx serves /brand/logo.svg from the stack's folder (an operator's own static file)."""
    path = stack.folder / "logo.svg"
    path.write_text(LOGO)
    return {"brand.conf": f"location = /brand/logo.svg {{ alias {path}; }}\n"}


def test_without_a_logo_url_no_logo_is_shown(stack, anonymous):
    """logo_url is "" by default: the header has the site name alone, no (broken) image."""
    show(anonymous, stack.base + "/sign_in", WIDTHS[-1])
    images = [i.get_attribute("outerHTML") for i in anonymous.find_elements(By.CSS_SELECTOR, "header img")]
    assert images == [], f"a header image without logo_url: {images}"


@pytest.fixture(scope="module")
def logo_stack(tmp_path_factory):
    yield from running(Stack(tmp_path_factory.mktemp("stack"), {
        "confirmation.required": "false", "mail.transport": "outbox", "logo_url": "/brand/logo.svg"}, logo_location))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_sign_in_with_a_logo(logo_stack, anonymous, lang, width):
    anonymous.delete_all_cookies()
    language_cookie(anonymous, logo_stack, lang)
    show(anonymous, logo_stack.base + "/sign_in", width)
    logo = anonymous.find_element(By.CSS_SELECTOR, "header.site-header a.site-name > img.site-logo:first-child")
    assert logo.get_attribute("alt") == "" and logo.get_attribute("src").endswith("/brand/logo.svg")
    assert anonymous.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", logo), "loaded"
    name = anonymous.find_element(By.CSS_SELECTOR, "header.site-header a.site-name > span")
    image, text = logo.rect, name.rect
    assert (image["width"], image["height"]) == (32, 32), image
    assert image["x"] + image["width"] <= text["x"], "the logo stands before the site name"
    middle = lambda r: r["y"] + r["height"] / 2  # noqa: E731
    assert abs(middle(image) - middle(text)) <= 2, f"logo and name on one line: {image} {text}"
    assert anonymous.find_element(By.TAG_NAME, "main").rect["y"] >= image["y"] + image["height"], "the header holds it"
    check_page(anonymous, "sign_in_logo", width, lang)
