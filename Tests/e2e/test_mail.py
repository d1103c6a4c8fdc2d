"""Verified addresses and the password reminder, with a real SMTP server (aiosmtpd) and the outbox folder."""
import email
import email.policy
import json
import re
import subprocess

import pytest

from http_client import Browser
from stack import BIN, new_stack
from users import unique_email
from test_languages import NBSP, visitor

PASSWORD = "correct horse battery"


SITE = "Frontdoor – Zürich"
SENDER_NAME = "Équipe d’accès Frontdoor, « support »"


@pytest.fixture(scope="module")
def french_mail_stack(tmp_path_factory, request, smtp):
    """Confirmation on, mail through SMTP to the sink from a display name and a site name that are not ASCII."""
    yield from new_stack(tmp_path_factory, request, {
        **smtp.settings(f"{SENDER_NAME} <no-reply@frontdoor.test>"), "site_name": SITE})


def path_of(link, stack):
    return link.split("/account", 1)[1]


def signed_up_and_confirmed(stack, smtp, address):
    browser = Browser(stack)
    page = browser.post("/sign_up", {"email": address, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert page.status_code == 200 and "Check your email" in page.text
    link = smtp.link(address, "/account/confirm?token=")
    assert browser.get(path_of(link, stack)).status_code == 302
    return browser


def test_sign_up_mail_link_then_sign_in(mail_stack, smtp):
    address = unique_email("confirm")
    browser = Browser(mail_stack)
    browser.post("/sign_up", {"email": address, "password": PASSWORD, "password_confirmation": PASSWORD})
    refused = browser.post("/sign_in", {"email": address, "password": PASSWORD})
    assert "You have to confirm your email address before signing in." in refused.text

    mail = smtp.wait_for_mail(address, "/account/confirm?token=")
    message = email.message_from_string(mail["data"], policy=email.policy.default)
    assert message["To"] == address and message["Subject"].startswith("Confirm your email address")
    assert message.get_content_type() == "multipart/alternative"
    assert [part.get_content_type() for part in message.iter_parts()] == ["text/plain", "text/html"]
    link = re.search(r"http://\S+/account/confirm\?token=[\w-]+", message.get_body(("plain",)).get_content()).group(0)
    assert link.startswith(f"http://127.0.0.1:{mail_stack.port}/")

    confirmed = browser.get(path_of(link, mail_stack))
    assert confirmed.status_code == 302 and confirmed.headers["Location"] == "/account/sign_in"
    assert browser.post("/sign_in", {"email": address, "password": PASSWORD}).status_code == 303
    assert f"Signed in as {address}" in browser.get("/").text
    again = Browser(mail_stack).get(path_of(link, mail_stack))
    assert "was already used or has expired" in again.text


def test_sign_up_with_a_taken_address_looks_the_same_and_mails_the_owner(mail_stack, smtp):
    owner = unique_email("owner")
    signed_up_and_confirmed(mail_stack, smtp, owner)
    fresh = Browser(mail_stack).post("/sign_up", {"email": unique_email("fresh"), "password": PASSWORD, "password_confirmation": PASSWORD})
    taken = Browser(mail_stack).post("/sign_up", {"email": owner.upper(), "password": "other password", "password_confirmation": "other password"})
    strip = lambda text: re.sub(r'name="csrf_token" value="[^"]*"', "", text)
    assert fresh.status_code == taken.status_code == 200
    assert strip(fresh.text) == strip(taken.text)
    assert sorted(fresh.headers) == sorted(taken.headers)
    assert smtp.wait_for_mail(owner, "tried to create an account with this email address")
    assert mail_stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", owner.lower())[0][0] == 1


def test_reminder_reset_ends_old_sessions_and_changes_the_password(mail_stack, smtp):
    address = unique_email("reset")
    old_browser = signed_up_and_confirmed(mail_stack, smtp, address)
    assert old_browser.post("/sign_in", {"email": address, "password": PASSWORD}).status_code == 303

    person = Browser(mail_stack)
    unknown = person.post("/password/new", {"email": unique_email("nobody")})
    known = person.post("/password/new", {"email": address})
    strip = lambda text: re.sub(r'name="csrf_token" value="[^"]*"', "", text)
    assert strip(known.text) == strip(unknown.text) and "If that address has an account" in known.text

    link = smtp.link(address, "/account/password/edit?token=")
    form = person.get(path_of(link, mail_stack))
    token = re.search(r'name="token" value="([^"]+)"', form.text).group(1)
    done = person.post("/password/edit", {"token": token, "password": "brand new password", "password_confirmation": "brand new password"})
    assert done.status_code == 303
    assert f"Signed in as {address}" in person.get("/").text
    assert old_browser.get("/").status_code == 302, "the session from before the reset is gone"
    assert "Invalid email or password." in Browser(mail_stack).post("/sign_in", {"email": address, "password": PASSWORD}).text
    assert Browser(mail_stack).post("/sign_in", {"email": address, "password": "brand new password"}).status_code == 303
    assert smtp.wait_for_mail(address, "was just changed")


def test_mail_waits_while_the_smtp_server_is_down(mail_stack, smtp):
    smtp.stop()
    try:
        address = unique_email("queued")
        page = Browser(mail_stack).post("/sign_up", {"email": address, "password": PASSWORD, "password_confirmation": PASSWORD})
        assert page.status_code == 200 and "Check your email" in page.text
        rows = mail_stack.query("SELECT sentAt FROM mailQueue WHERE recipient = ?", address)
        assert rows == [(None,)]
    finally:
        smtp.start()
    assert smtp.wait_for_mail(address, "/account/confirm?token=", timeout=30)


@pytest.fixture(scope="module")
def patient_mail_stack(tmp_path_factory, request, smtp):
    """SMTP to the sink, but the background sender retries only after an hour: only `frontdoor mail retry` sends again."""
    yield from new_stack(tmp_path_factory, request, {
        **smtp.settings(sender=None), "confirmation.required": "true",
        "mail.retry_base": "1h", "mail.send_interval": "1h"})


def mail_command(stack, *args):
    return subprocess.run([BIN, "mail", *args, "--config", str(stack.config_path)], capture_output=True, text=True, timeout=120)


def test_mail_retry_sends_the_failed_mail_now_and_says_so(patient_mail_stack, smtp):
    address = unique_email("retried")
    smtp.stop()
    try:
        # Given a confirmation mail whose delivery failed while the SMTP server was down
        page = Browser(patient_mail_stack).post("/sign_up", {"email": address, "password": PASSWORD, "password_confirmation": PASSWORD})
        assert page.status_code == 200 and "Check your email" in page.text
        # When the operator retries while it is still down: exit 1, the failure counted and kept in the queue
        down = mail_command(patient_mail_stack, "retry")
        assert down.returncode == 1 and re.fullmatch(r"sent 0, failed [1-9]\d*", down.stdout.strip()), down.stdout + down.stderr
        listed = json.loads(mail_command(patient_mail_stack, "list", "--json").stdout)
        mine = [mail for mail in listed if mail["recipient"] == address]
        assert len(mine) == 1 and mine[0]["sentAt"] is None and mine[0]["attempts"] >= 1 and mine[0]["lastError"]
    finally:
        smtp.start()
    # Then, the server back, a retry sends it at once (the background sender would wait an hour) and exits 0
    up = mail_command(patient_mail_stack, "retry")
    assert up.returncode == 0 and re.fullmatch(r"sent [1-9]\d*, failed 0", up.stdout.strip()), up.stdout + up.stderr
    assert smtp.wait_for_mail(address, "/account/confirm?token=", timeout=5)
    assert patient_mail_stack.query("SELECT sentAt IS NOT NULL FROM mailQueue WHERE recipient = ?", address) == [(1,)]
    assert mail_command(patient_mail_stack, "retry").stdout.strip() == "sent 0, failed 0"


def test_the_outbox_transport_writes_a_parseable_eml_with_the_link(stack):
    # The foundation stack mails to its outbox folder; a reminder for a confirmed address lands there.
    address = unique_email("outbox")
    browser = Browser(stack)
    browser.post("/sign_up", {"email": address, "password": PASSWORD, "password_confirmation": PASSWORD})
    stack.query("UPDATE emailAddress SET verifiedAt = 1 WHERE normalizedAddress = ?", address.lower())
    Browser(stack).post("/password/new", {"email": address})

    def eml():
        for path in stack.outbox.glob("*.eml"):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if message["To"] == address:
                return message
        return None
    from waits import wait_for
    message = wait_for(eml, what="an .eml in the outbox")
    text = message.get_body(("plain",)).get_content()
    link = re.search(r"http://\S+/account/password/edit\?token=[\w-]+", text).group(0)
    assert "Choose a new password" in Browser(stack).get(path_of(link, stack)).text


def test_a_french_mail_from_a_non_ascii_name_is_ascii_with_short_lines_and_decodes_back(french_mail_stack, smtp):
    # Given a sign-up in French on a site whose name and sender are not ASCII
    address = unique_email("ascii")
    browser = visitor(french_mail_stack, "fr")
    assert browser.post("/sign_up", {"email": address, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 200
    mail = smtp.wait_for_mail(address, "/account/confirm?token=")
    # Then what went over SMTP is 7-bit ASCII in lines of at most 78 characters
    raw = mail["data"]
    assert raw.isascii() and "Content-Transfer-Encoding: quoted-printable" in raw
    long_lines = [line for line in raw.split("\r\n") if len(line) > 78]
    assert long_lines == []
    # And the standard library reads back the sender, the subject and the body as they were written
    message = mail["message"]
    (sender,) = message["From"].addresses
    assert (sender.display_name, sender.addr_spec) == (SENDER_NAME, "no-reply@frontdoor.test")
    assert message["Subject"] == f"Confirmez votre adresse e-mail pour {SITE}"
    assert "=?UTF-8?B?" in raw.split("\r\n\r\n")[0], "the subject went out as encoded words"
    plain = message.get_body(("plain",)).get_content().replace("\r\n", "\n")   # the wire's CRLF line ends
    link = re.search(r"http://\S+/account/confirm\?token=[\w-]+", plain).group(0)
    assert plain == (f"Bonjour,\n\nVeuillez confirmer votre adresse e-mail en suivant ce lien{NBSP}:\n\n{link}\n\n"
                     f"Si vous n’avez pas créé de compte, vous pouvez ignorer ce message.\n\n-- \n{SITE}\n")
    markup = message.get_body(("html",)).get_content()
    assert '<html lang="fr">' in markup and f"<title>{SITE}</title>" in markup and link in markup
    # And the decoded link works
    assert browser.get(path_of(link, french_mail_stack)).status_code == 302
