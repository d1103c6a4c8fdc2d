"""Languages through nginx: Accept-Language negotiation, the switcher (cookie), the account's preference, French and
German validation messages, the operator's configured languages and messages, and the switcher in Chromium.

Mail, the JSON API, error pages and `config check` are in test_languages_mail.py.
"""
import html
import re

import pytest

from chromium_driver import page_wait
from http_client import Browser
from stack import new_stack
from users import unique_email

PASSWORD = "correct horse battery"
NBSP = "\u00a0"
FR_CHANGED = "Désormais, les pages s’affichent en français."
OUTBOX = {"confirmation.required": "false", "mail.transport": "outbox"}


def visitor(stack, accept=None):
    """A Browser that sends `Accept-Language: accept` with every request (none when None)."""
    browser = Browser(stack)
    if accept is not None:
        browser.session.headers["Accept-Language"] = accept
    return browser


def lang_of(response):
    return re.search(r'<html lang="([^"]*)">', response.text).group(1)


def title_of(response):
    """The page's own title, before " · <site name>"."""
    return html.unescape(re.search(r"<title>(.*?) · [^<]*</title>", response.text, re.S).group(1))


def switcher(response):
    """[(code, name, is_current)] of the switcher's buttons, checking that the current one is also disabled."""
    form = re.search(r'<form method="post" action="/account/language" class="language-switcher">.*?</form>', response.text, re.S)
    assert form, "no language switcher on the page"
    buttons = []
    for tag, name in re.findall(r'(<button type="submit" name="lang"[^>]*>)([^<]*)</button>', form.group(0)):
        code = re.search(r'value="([^"]*)"', tag).group(1)
        assert f'lang="{code}"' in tag, tag
        current = 'aria-current="true"' in tag
        assert current == (" disabled" in tag), tag
        buttons.append((code, html.unescape(name), current))
    return buttons


def sign_up(browser, email, password=PASSWORD, **extra):
    return browser.post("/sign_up", {"email": email, "password": password, "password_confirmation": password, **extra})


def preference(stack, email):
    rows = stack.query("SELECT a.language FROM account a JOIN emailAddress e ON e.accountId = a.id WHERE e.normalizedAddress = ?",
                       email.lower())
    assert len(rows) == 1, rows
    return rows[0][0]


def error_of(response, name):
    match = re.search(r'<p class="field-error" id="%s-error">([^<]*)</p>' % re.escape(name), response.text)
    return html.unescape(match.group(1)) if match else None


def form_error(response):
    match = re.search(r'<p class="form-error" role="alert">([^<]*)</p>', response.text)
    return html.unescape(match.group(1)) if match else None


def switch(browser, lang, back="/account/password/new", **kw):
    """Presses a switcher button: POST /language with the page's own token."""
    return browser.post("/language", {"csrf_token": browser.token("/sign_in"), "lang": lang, "back": back, **kw}, csrf=False)


# MARK: - Negotiation


@pytest.mark.parametrize("accept, lang, title", [
    ("fr-CH, fr;q=0.9, en;q=0.8", "fr", "Connexion"),
    ("de", "de", "Anmelden"),
    ("de-AT", "de", "Anmelden"),
    ("es, *;q=0.1", "en", "Sign in"),
    ("es", "en", "Sign in"),
    (None, "en", "Sign in"),
    ("fr;q=0, de;q=0.5", "de", "Anmelden"),
    ("fr;q=0", "en", "Sign in"),
    ("en;q=0.3, fr;q=0.7", "fr", "Connexion"),
])
def test_accept_language_picks_the_page_language(stack, accept, lang, title):
    page = visitor(stack, accept).get("/sign_in")
    assert page.status_code == 200
    assert (lang_of(page), title_of(page)) == (lang, title)
    assert [(code, current) for code, _, current in switcher(page)] == [("en", lang == "en"), ("fr", lang == "fr"), ("de", lang == "de")]


def test_every_language_names_itself_in_the_switcher(stack):
    assert [(code, name) for code, name, _ in switcher(visitor(stack, "de").get("/sign_up"))] == [
        ("en", "English"), ("fr", "Français"), ("de", "Deutsch")]


@pytest.fixture(scope="module")
def german_stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {**OUTBOX, "languages.default": "de"})


def test_a_configured_default_answers_a_browser_that_names_no_offered_language(german_stack):
    for accept in (None, "es", "es, *;q=0.5"):
        page = visitor(german_stack, accept).get("/sign_in")
        assert (lang_of(page), title_of(page)) == ("de", "Anmelden"), accept
    assert lang_of(visitor(german_stack, "en").get("/sign_in")) == "en"


def test_a_wildcard_does_not_bring_back_a_language_refused_with_q_0(german_stack):
    # RFC 9110 12.5.4: "*" matches every tag not named elsewhere; German is named, as "not acceptable".
    assert lang_of(visitor(german_stack, "de;q=0, *").get("/sign_in")) in ("en", "fr")


@pytest.fixture(scope="module")
def two_language_stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {**OUTBOX, "languages.available": "en, fr"})


def test_only_the_configured_languages_are_offered(two_language_stack):
    page = visitor(two_language_stack, "de").get("/sign_in")
    assert lang_of(page) == "en", "German is not offered: the default"
    assert switcher(page) == [("en", "English", True), ("fr", "Français", False)]
    assert lang_of(visitor(two_language_stack, "de, fr;q=0.2").get("/sign_in")) == "fr"
    browser = visitor(two_language_stack, "de")
    assert switch(browser, "de").status_code == 303
    assert browser.cookie("frontdoor_lang") is None
    assert lang_of(browser.get("/password/new")) == "en"


# MARK: - The switcher without JavaScript


def test_the_switcher_sets_a_cookie_that_comes_before_accept_language(stack):
    browser = visitor(stack, "de")
    page = browser.get("/password/new")
    assert lang_of(page) == "de"
    assert re.search(r'<input type="hidden" name="back" value="/account/password/new">', page.text)
    done = switch(browser, "fr")
    assert done.status_code == 303 and done.headers["Location"] == "/account/password/new"
    cookie = next(h for h in done.raw.headers.getlist("Set-Cookie") if h.startswith("frontdoor_lang="))
    assert cookie.split(";")[0] == "frontdoor_lang=fr"
    attributes = [part.strip().lower() for part in cookie.split(";")[1:]]
    assert "httponly" in attributes and "samesite=lax" in attributes and "path=/account" in attributes, cookie
    assert any(a.startswith("max-age=") and int(a.split("=")[1]) >= 364 * 86400 for a in attributes), cookie

    after = browser.get("/password/new")
    assert (lang_of(after), title_of(after)) == ("fr", f"Mot de passe oublié{NBSP}?")
    assert ("fr", "Français", True) in switcher(after) and ("de", "Deutsch", False) in switcher(after)
    later = browser.get("/password/new")
    assert lang_of(browser.get("/sign_in")) == "fr", "the cached sign-in page too"
    # The flash, in French, on the page the switcher went back to, and only there.
    assert f'<div class="flash flash-notice" role="status">{FR_CHANGED}</div>' in html.unescape(after.text)
    assert FR_CHANGED not in html.unescape(later.text), "a flash is shown once"


def test_the_switcher_needs_the_csrf_token(stack):
    browser = visitor(stack)
    browser.get("/sign_in")
    refused = browser.post("/language", {"lang": "fr", "back": "/account/sign_in"}, csrf=False)
    assert refused.status_code == 403
    assert browser.cookie("frontdoor_lang") is None
    assert lang_of(browser.get("/sign_in")) == "en"


def test_the_switcher_goes_home_instead_of_to_another_site(stack):
    browser = visitor(stack)
    done = switch(browser, "de", back="https://evil.example/")
    assert done.status_code == 303 and done.headers["Location"] == "/account/"
    assert browser.cookie("frontdoor_lang") == "de"
    assert switch(browser, "fr", back="//evil.example/x").headers["Location"] == "/account/"


def test_a_language_not_offered_changes_nothing(stack):
    browser = visitor(stack, "de")
    done = switch(browser, "xx")
    assert done.status_code == 303 and done.headers["Location"] == "/account/password/new"
    assert "frontdoor_lang" not in done.headers.get("Set-Cookie", "")
    page = browser.get("/password/new")
    assert lang_of(page) == "de" and 'class="flash' not in page.text


# MARK: - The account's preference


def test_the_account_keeps_the_language_it_was_created_in(stack):
    email = unique_email("pref")
    assert sign_up(visitor(stack, "fr-FR, en;q=0.5"), email).status_code == 303
    assert preference(stack, email) == "fr"

    other = visitor(stack, "en")
    assert lang_of(other.get("/sign_in")) == "en"
    assert other.post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303
    home = other.get("/")
    assert (lang_of(home), title_of(home)) == ("fr", "Votre compte")
    profile = other.get("/settings")
    assert lang_of(profile) == "fr"
    assert re.search(r'<option value="fr" selected lang="fr">Français</option>', profile.text)
    assert re.search(r'<option value="" selected>Celle de mon navigateur</option>', profile.text) is None

    # "Same as my browser": the preference is cleared, pages follow Accept-Language again.
    saved = other.post("/settings", {"display_name": "", "language": ""})
    assert saved.status_code == 303 and preference(stack, email) is None
    assert lang_of(other.get("/settings")) == "en"
    assert re.search(r'<option value="" selected>Same as my browser</option>', other.get("/settings").text)
    other.session.headers["Accept-Language"] = "de"
    assert title_of(other.get("/")) == "Ihr Konto"


def test_a_bogus_language_is_a_field_error_and_changes_nothing(stack):
    email = unique_email("bogus")
    browser = visitor(stack, "fr")
    assert sign_up(browser, email).status_code == 303
    for bogus in ("klingon", "es"):
        page = browser.post("/settings", {"display_name": "Zoé", "language": bogus})
        assert page.status_code == 200 and lang_of(page) == "fr"
        select = re.search(r'<select id="language"[^>]*>', page.text).group(0)
        assert 'aria-invalid="true"' in select and 'aria-describedby="language-error"' in select and "autofocus" in select
        assert error_of(page, "language") == f"Langue{NBSP}: cette valeur ne fait pas partie des choix proposés"
        assert form_error(page) == "Veuillez corriger les erreurs ci-dessous."
        assert preference(stack, email) == "fr"
    assert stack.query("SELECT a.displayName FROM account a JOIN emailAddress e ON e.accountId = a.id "
                       "WHERE e.normalizedAddress = ?", email.lower()) == [("",)]


def test_the_switcher_while_signed_in_sets_the_preference(stack):
    email = unique_email("switched")
    browser = visitor(stack, "en")
    assert sign_up(browser, email).status_code == 303
    assert preference(stack, email) == "en"
    assert switch(browser, "de", back="/account/settings").headers["Location"] == "/account/settings"
    assert preference(stack, email) == "de"
    fresh = visitor(stack, "fr")
    fresh.post("/sign_in", {"email": email, "password": PASSWORD})
    assert lang_of(fresh.get("/")) == "de", "the preference follows the account to another browser"


# MARK: - Validation in French and German


def test_a_failed_french_sign_up_names_the_fields_in_french(stack):
    page = sign_up(visitor(stack, "fr"), " ", password="short")
    assert page.status_code == 200 and lang_of(page) == "fr"
    assert error_of(page, "email") == f"Adresse e-mail{NBSP}: ce champ doit être rempli"
    assert error_of(page, "password") == f"Mot de passe{NBSP}: cette valeur est trop courte (au moins 12 caractères)"
    assert form_error(page) == "Veuillez corriger les erreurs ci-dessous."
    assert re.search(r'<input id="email"[^>]*autofocus', page.text), "focus on the first invalid field"
    mismatch = sign_up(visitor(stack, "fr"), unique_email("fr"), password_confirmation="something else")
    assert error_of(mismatch, "password_confirmation") == (
        f"Confirmation du mot de passe{NBSP}: cette valeur ne correspond pas au champ «{NBSP}Mot de passe{NBSP}»")


def test_a_failed_german_sign_up_names_the_fields_in_german(stack):
    page = sign_up(visitor(stack, "de-DE"), "", password="")
    assert lang_of(page) == "de"
    assert error_of(page, "email") == "„E-Mail-Adresse“ muss ausgefüllt werden"
    assert form_error(page) == "Bitte korrigieren Sie die unten markierten Angaben."


# MARK: - The operator's messages

OVERRIDES = """messages:
  fr:
    sign_in_title: "Entrez"
  en:
    sign_in_button: "Let me in"
"""


@pytest.fixture(scope="module")
def override_stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, OUTBOX, extra_yaml=OVERRIDES)


def test_the_operators_messages_replace_the_built_in_wording(override_stack):
    french = visitor(override_stack, "fr").get("/sign_in")
    assert title_of(french) == "Entrez" and "<h1>Entrez</h1>" in french.text
    assert '<button type="submit">Se connecter</button>' in french.text, "French keeps its own button"
    english = visitor(override_stack, "en").get("/sign_in")
    assert '<button type="submit">Let me in</button>' in english.text
    assert title_of(english) == "Sign in"
    assert title_of(visitor(override_stack, "de").get("/sign_in")) == "Anmelden"


# MARK: - A real browser


def test_the_switcher_works_in_chromium(stack, chromium):
    chromium.get(stack.base + "/sign_in")
    wait = page_wait(chromium)
    wait.until(lambda d: d.find_element("css selector", "html").get_attribute("lang") == "en")
    chromium.find_element("css selector", 'footer form.language-switcher button[value="fr"]').click()
    # The new page's <html lang> is there before the rest of it: wait for the whole page before reading it.
    wait.until(lambda d: d.find_element("css selector", "html").get_attribute("lang") == "fr"
               and d.execute_script("return document.readyState") == "complete")
    assert chromium.current_url == stack.base + "/sign_in"
    assert chromium.find_element("css selector", "main h1").text == "Connexion"
    current = chromium.find_element("css selector", 'button[value="fr"]')
    assert current.get_attribute("aria-current") == "true" and not current.is_enabled()
    assert [e.text for e in chromium.find_elements("css selector", "main .flash")] == [FR_CHANGED]
