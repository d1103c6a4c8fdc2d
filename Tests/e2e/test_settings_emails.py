"""Several email addresses per account (settings/emails): add, confirm by mail, sign in, make primary, remove, refusals."""
import email
import email.policy
import html
import re
from urllib.parse import parse_qs, urlsplit

from http_client import Browser
from mails import outbox_link
from users import unique_email

PASSWORD = "correct horse battery"
EMAILS = "/account/settings/emails"


def path_of(link):
    return link.split("/account", 1)[1]


def signed_in(stack, smtp, address):
    """A browser signed in to a new account whose address was confirmed through the mailed link."""
    browser = Browser(stack)
    page = browser.post("/sign_up", {"email": address, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert page.status_code == 200 and "Check your email" in page.text
    assert browser.get(path_of(smtp.link(address, "/account/confirm?token="))).status_code == 302
    assert browser.post("/sign_in", {"email": address, "password": PASSWORD}).status_code == 303
    return browser


def address_id(stack, address):
    return stack.query("SELECT id FROM emailAddress WHERE normalizedAddress = ?", address.lower())[0][0]


def back_to_list(browser, response):
    """The list page a POST redirected to (its flash shown once)."""
    assert response.status_code == 303, response.text
    assert response.headers["Location"] == EMAILS
    page = browser.get("/settings/emails")
    assert page.status_code == 200
    return html.unescape(page.text)


def row_of(page, address):
    """The table row showing `address`."""
    match = re.search(r'<tr class="address address-(\w+)" data-address-id="(\d+)">\s*<td class="address-text">' + re.escape(address)
                      + r"</td>\s*<td class=\"address-state\">([^<]*)</td>(.*?)</tr>", page, re.S)
    assert match, f"{address} not listed"
    return {"state": match.group(1), "id": int(match.group(2)), "state_text": match.group(3), "actions": match.group(4)}


def queued(stack, kind, to):
    return stack.query("SELECT COUNT(*) FROM mailQueue WHERE kind = ? AND recipientKey = ?", kind, to.lower())[0][0]


def test_add_confirm_sign_in_make_primary_then_remove_the_old_address(mail_stack, smtp):
    first, second = unique_email("first"), unique_email("second")
    browser = signed_in(mail_stack, smtp, first)
    page = browser.get("/settings/emails").text
    assert row_of(page, first)["state"] == "primary"
    assert "Remove" not in row_of(page, first)["actions"]

    # Add: listed as waiting, and a verification mail goes to the new address
    page = back_to_list(browser, browser.post("/settings/emails", {"email": f"  {second} "}))
    assert "Address added. Follow the link we sent to it to confirm it." in page
    row = row_of(page, second)
    assert row["state"] == "unverified" and row["state_text"] == "Waiting for confirmation"
    assert "Send the link again" in row["actions"] and "Make primary" not in row["actions"]
    mail = smtp.wait_for_mail(second, "/account/confirm?token=")
    message = email.message_from_string(mail["data"], policy=email.policy.default)
    assert message["Subject"].startswith("Confirm the address you added to your")

    # Not usable for signing in until confirmed, even with the right password
    early = Browser(mail_stack).post("/sign_in", {"email": second, "password": PASSWORD})
    assert early.status_code == 200 and "Invalid email or password." in early.text

    # The link, followed in the signed-in browser, comes back to the list
    confirmed = browser.get(path_of(smtp.link(second, "/account/confirm?token=")))
    assert confirmed.status_code == 302 and confirmed.headers["Location"] == EMAILS
    page = html.unescape(browser.get("/settings/emails").text)
    assert "The address is confirmed. You can sign in with it now." in page
    assert row_of(page, second)["state"] == "verified" and "Make primary" in row_of(page, second)["actions"]
    assert mail_stack.query("SELECT verifiedAt IS NOT NULL FROM emailAddress WHERE normalizedAddress = ?", second.lower()) == [(1,)]
    # The primary address hears that another address can now sign in (and receive reset links)
    added = smtp.wait_for_mail(first, "An address was added to your")
    assert second in added["text"]

    # Sign in with the new address: the same account, shown by its primary address
    other = Browser(mail_stack)
    assert other.post("/sign_in", {"email": second.upper(), "password": PASSWORD}).status_code == 303
    assert f"Signed in as {first}" in other.get("/").text

    # Make it primary: the OLD address is told, naming the new one; sessions show the new primary at once
    page = back_to_list(browser, browser.post("/settings/emails/primary", {"id": address_id(mail_stack, second)}))
    assert "Your primary address was changed." in page
    assert row_of(page, second)["state"] == "primary" and row_of(page, first)["state"] == "verified"
    notice = smtp.wait_for_mail(first, "The primary address of your")
    assert second in notice["text"]
    assert email.message_from_string(notice["data"], policy=email.policy.default)["Subject"].startswith("The primary address of your")
    assert queued(mail_stack, "primary_address_changed", first) == 1
    assert queued(mail_stack, "primary_address_changed", second) == 0
    assert f"Signed in as {second}" in other.get("/").text

    # Remove the old address: gone, and no longer a way in
    page = back_to_list(browser, browser.post("/settings/emails/remove", {"id": address_id(mail_stack, first)}))
    assert "Address removed." in page and first not in page
    assert mail_stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", first.lower()) == [(0,)]
    assert "Invalid email or password." in Browser(mail_stack).post("/sign_in", {"email": first, "password": PASSWORD}).text


def test_the_primary_address_cannot_be_removed_nor_an_unverified_one_made_primary(mail_stack, smtp):
    first, pending = unique_email("keep"), unique_email("pending")
    browser = signed_in(mail_stack, smtp, first)
    page = back_to_list(browser, browser.post("/settings/emails/remove", {"id": address_id(mail_stack, first)}))
    assert "You can't remove your primary address. Make another verified address primary first." in page
    assert row_of(page, first)["state"] == "primary"

    back_to_list(browser, browser.post("/settings/emails", {"email": pending}))
    page = back_to_list(browser, browser.post("/settings/emails/primary", {"id": address_id(mail_stack, pending)}))
    assert "Only a confirmed address can become primary." in page
    assert row_of(page, first)["state"] == "primary" and row_of(page, pending)["state"] == "unverified"

    # Resending within the throttle window answers the same and queues nothing more
    page = back_to_list(browser, browser.post("/settings/emails/resend", {"id": address_id(mail_stack, pending)}))
    assert "If the address still waits for confirmation, a new link is on its way." in page
    assert queued(mail_stack, "address_verification", pending) == 1

    # Someone else's address id is not found, and nothing happens to it
    stranger = unique_email("stranger")
    signed_in(mail_stack, smtp, stranger)
    for action in ("remove", "primary", "resend"):
        page = back_to_list(browser, browser.post(f"/settings/emails/{action}", {"id": address_id(mail_stack, stranger)}))
        assert "That address is not part of your account." in page
    assert mail_stack.query("SELECT isPrimary FROM emailAddress WHERE normalizedAddress = ?", stranger.lower()) == [(1,)]


def test_the_last_verified_address_cannot_be_removed(stack):
    # Without required confirmation the primary address of a new account is not verified; the added one is the only verified
    first, work = unique_email("unconfirmed"), unique_email("work")
    browser = Browser(stack)
    assert browser.post("/sign_up", {"email": first, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    back_to_list(browser, browser.post("/settings/emails", {"email": work}))
    assert browser.get(path_of(outbox_link(stack, work, "/confirm?token="))).headers["Location"] == EMAILS
    page = browser.get("/settings/emails").text
    assert row_of(page, work)["state"] == "verified"
    assert row_of(page, first)["state_text"] == "Primary, waiting for confirmation"
    assert "Remove" not in row_of(page, work)["actions"], "no button for what would be refused"
    page = back_to_list(browser, browser.post("/settings/emails/remove", {"id": address_id(stack, work)}))
    assert "You can't remove your only verified address." in page
    assert row_of(page, work)["state"] == "verified"


def test_an_address_another_account_holds_gets_a_neutral_refusal(mail_stack, smtp):
    ann, bob = unique_email("ann"), unique_email("bob")
    browser = signed_in(mail_stack, smtp, ann)
    signed_in(mail_stack, smtp, bob)
    response = browser.post("/settings/emails", {"email": bob.upper()})
    assert response.status_code == 200
    page = html.unescape(response.text)
    assert "Email can't be added to your account" in page
    assert f'value="{bob.upper()}"' in page, "the typed address is kept"
    assert 'aria-invalid="true"' in page
    assert mail_stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", bob.lower()) == [(1,)]
    assert len(mail_stack.query("SELECT id FROM emailAddress WHERE accountId = (SELECT accountId FROM emailAddress "
                                "WHERE normalizedAddress = ?)", ann.lower())) == 1, "nothing added to Ann's account"
    assert queued(mail_stack, "address_verification", bob) == 0

    # Other field errors: own address, not an address
    assert "Email is already one of your addresses" in browser.post("/settings/emails", {"email": ann}).text
    assert "Email is not a valid email address" in browser.post("/settings/emails", {"email": "not an address"}).text


def test_changes_need_a_recent_sign_in_but_the_list_does_not(mail_stack, smtp):
    address, extra = unique_email("stale"), unique_email("extra")
    browser = signed_in(mail_stack, smtp, address)
    mail_stack.query("UPDATE session SET authenticatedAt = 0 WHERE accountId = "
                     "(SELECT accountId FROM emailAddress WHERE normalizedAddress = ?)", address.lower())
    assert browser.get("/settings/emails").status_code == 200
    own = address_id(mail_stack, address)
    for path, data in (("/settings/emails", {"email": extra}), ("/settings/emails/remove", {"id": own}),
                       ("/settings/emails/primary", {"id": own}), ("/settings/emails/resend", {"id": own})):
        response = browser.post(path, data)
        assert response.status_code == 303, path
        location = urlsplit(response.headers["Location"])
        assert location.path == "/account/settings/reauthenticate"
        assert parse_qs(location.query) == {"rd": [EMAILS]}
    assert mail_stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", extra.lower()) == [(0,)]


def test_a_post_without_its_csrf_token_is_refused(mail_stack, smtp):
    address, extra = unique_email("csrf"), unique_email("csrf-extra")
    browser = signed_in(mail_stack, smtp, address)
    assert browser.post("/settings/emails", {"email": extra}, csrf=False).status_code == 403
    assert browser.post("/settings/emails", {"email": extra, "csrf_token": "forged"}).status_code == 403
    assert browser.post("/settings/emails/remove", {"id": address_id(mail_stack, address)}, csrf=False).status_code == 403
    assert mail_stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", extra.lower()) == [(0,)]


def test_signed_out_the_list_asks_to_sign_in(mail_stack):
    response = Browser(mail_stack).get("/settings/emails")
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/account/sign_in?rd=")
