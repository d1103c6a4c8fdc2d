"""Languages outside the page flow: mail worded for its recipient (SMTP sink), the JSON API and error pages, and
`frontdoor config check` on the operator's `messages`."""
import html
import re
import subprocess

from api_client import Api
from http_client import Browser
from stack import BIN
from users import unique_email
from test_languages import NBSP, OVERRIDES, PASSWORD, lang_of, preference, sign_up, title_of, visitor


def parsed(mail):
    """The mail as a message, parsed by the sink (policy.default: headers and bodies decoded)."""
    return mail["message"]


def parts(message):
    """(plain text, HTML) of a multipart/alternative mail."""
    return message.get_body(("plain",)).get_content(), message.get_body(("html",)).get_content()


def confirmed(stack, smtp, address, accept):
    """Signs `address` up under `accept` and follows the confirmation link; returns the confirmation mail."""
    browser = visitor(stack, accept)
    assert sign_up(browser, address).status_code == 200
    mail = smtp.wait_for_mail(address, "/account/confirm?token=")
    link = re.search(r"http://\S+(/confirm\?token=[\w-]+)", mail["text"]).group(1)
    assert browser.get(link).status_code == 302
    return parsed(mail)


def reminder(stack, smtp, address, accept):
    """Asks for a password reminder for `address` under `accept`; returns the mail."""
    assert visitor(stack, accept).post("/password/new", {"email": address}).status_code in (200, 303)
    return parsed(smtp.wait_for_mail(address, "/account/password/edit?token="))


# MARK: - Mail


def test_a_french_sign_up_is_confirmed_in_french(mail_stack, smtp):
    address = unique_email("fr-mail")
    message = confirmed(mail_stack, smtp, address, "fr-CH, fr;q=0.9, en;q=0.8")
    assert preference(mail_stack, address) == "fr"
    assert message["Subject"] == "Confirmez votre adresse e-mail pour Frontdoor"
    plain, markup = parts(message)
    assert plain.startswith("Bonjour,") and f"Veuillez confirmer votre adresse e-mail en suivant ce lien{NBSP}:" in plain
    assert "Please confirm" not in plain
    assert '<html lang="fr">' in markup
    assert "Confirmer mon adresse" in html.unescape(markup)


def test_a_reminder_for_an_account_without_preference_follows_the_request(mail_stack, smtp):
    address = unique_email("cli")
    added = subprocess.run([BIN, "user", "add", address, "--confirmed", "--config", str(mail_stack.config_path)],
                           input=PASSWORD + "\n", capture_output=True, text=True, timeout=60)
    assert added.returncode == 0, added.stderr
    assert preference(mail_stack, address) is None
    message = reminder(mail_stack, smtp, address, "de-CH, de;q=0.9")
    assert message["Subject"] == "Ihr Passwort für Frontdoor zurücksetzen"
    plain, markup = parts(message)
    assert plain.startswith("Hallo,") and "Jemand hat angefordert, das Passwort Ihres Kontos zurückzusetzen." in plain
    assert '<html lang="de">' in markup


def test_a_reminder_for_a_french_account_is_french_whatever_the_request(mail_stack, smtp):
    address = unique_email("fr-remind")
    confirmed(mail_stack, smtp, address, "fr")
    message = reminder(mail_stack, smtp, address, "en-US, en;q=0.9")
    assert message["Subject"] == "Réinitialisez votre mot de passe pour Frontdoor"
    plain, markup = parts(message)
    assert plain.startswith("Bonjour,") and "Reset your password" not in plain
    assert '<html lang="fr">' in markup


def test_clearing_the_preference_lets_the_next_mail_follow_the_request(mail_stack, smtp):
    address = unique_email("cleared")
    confirmed(mail_stack, smtp, address, "fr")
    browser = visitor(mail_stack, "de")
    assert browser.post("/sign_in", {"email": address, "password": PASSWORD}).status_code == 303
    assert browser.post("/settings", {"display_name": "", "language": ""}).status_code == 303
    assert preference(mail_stack, address) is None
    assert reminder(mail_stack, smtp, address, "de")["Subject"] == "Ihr Passwort für Frontdoor zurücksetzen"


# MARK: - The JSON API and error pages


def test_the_api_answers_in_the_accept_language_and_ignores_the_switchers_cookie(stack):
    address = unique_email("api-fr")
    assert sign_up(Browser(stack), address).status_code == 303
    wrong = {"user": {"email": address, "password": "not the password"}}
    french = Api(stack).post("/users/sign_in", wrong, headers={"Accept-Language": "fr-CA, fr;q=0.9"})
    assert french.status_code == 401 and french.json() == {"error": "Adresse e-mail ou mot de passe incorrect."}
    german = Api(stack).post("/users/sign_in", wrong, headers={"Accept-Language": "de"})
    assert german.json() == {"error": "E-Mail-Adresse oder Passwort ist falsch."}
    cookie_only = Api(stack).post("/users/sign_in", wrong, headers={"Cookie": "frontdoor_lang=fr"})
    assert cookie_only.json() == {"error": "Invalid email or password."}


def test_a_missing_page_is_titled_in_the_browsers_language(stack):
    page = visitor(stack, "de").get("/no/such/page")
    assert page.status_code == 404 and lang_of(page) == "de"
    assert title_of(page) == "Seite nicht gefunden" and "<h1>Seite nicht gefunden</h1>" in page.text
    assert '<p class="error-status">Fehler 404</p>' in page.text
    assert "Il n’y a aucune page à cette adresse." in html.unescape(visitor(stack, "fr").get("/nothing").text)


# MARK: - config check


def config_check(path):
    return subprocess.run([BIN, "config", "check", "--config", str(path)], env={"PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=30)


def test_config_check_accepts_the_messages_and_names_a_bad_key_or_language(stack, tmp_path):
    base = stack.config_path.read_text()
    good = tmp_path / "good.yml"
    good.write_text(base + OVERRIDES)
    checked = config_check(good)
    assert checked.returncode == 0, checked.stderr
    assert "Entrez" in checked.stdout and "Let me in" in checked.stdout

    for name, messages, named in [
        ("unknown-key", 'messages:\n  fr:\n    sign_in_titel: "Entrez"\n', "sign_in_titel"),
        ("undeclared-field", 'messages:\n  de:\n    field_username: "Benutzername"\n', "field_username"),
        ("not-offered", 'languages:\n  available: "en, fr"\nmessages:\n  de:\n    sign_in_title: "Herein"\n', "messages.de"),
        ("unknown-language", 'messages:\n  it:\n    sign_in_title: "Accedi"\n', "messages.it"),
    ]:
        bad = tmp_path / f"{name}.yml"
        bad.write_text(base + messages)
        refused = config_check(bad)
        assert refused.returncode == 1, (name, refused.stdout)
        assert named in refused.stderr, (name, refused.stderr)
