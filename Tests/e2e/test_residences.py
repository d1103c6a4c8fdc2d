"""Email residences through nginx (helper B): a native app asks to act for an address (`POST <base>/v1/residences`),
the address's owner allows it from the mailed link, and the app collects an API token
(`POST <base>/v1/residences/{id}/verify`) that works with X-User-Email = that address.

Stacks: mail_stack (confirmation on, sign-up open, SMTP sink, the default one-minute mail throttle) and
closed_mail_stack (sign-up closed). Every address is new per test, so the throttle only meets the test about it.
"""
import html
import re
from urllib.parse import parse_qs, urlparse

from api_client import Api
from http_client import Browser
from users import unique_email

PASSWORD = "correct horse battery"
DEVICE = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
LINK = "/account/residences/confirm?token="
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')


def request_residence(stack, email, body=None):
    """POST v1/residences from the app; checks the 201 answer's shape; returns it."""
    response = Api(stack, user_agent=DEVICE).post("/residences", body or {"email": email})
    assert response.status_code == 201, (response.status_code, response.text)
    answer = response.json()
    assert set(answer) == {"id", "state", "secret"} and answer["state"] == "pending", answer
    assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", answer["id"]), answer
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", answer["secret"]), answer
    return answer


def collect(stack, residence, secret=None):
    return Api(stack).post(f"/residences/{residence['id']}/verify", {"secret": residence["secret"] if secret is None else secret})


def approval_page(stack, smtp, email):
    """Opens the mailed link in a fresh browser; returns (browser, the page)."""
    link = smtp.link(email, LINK)
    assert re.search(re.escape(LINK) + r"[A-Za-z0-9_-]{43}$", link), link
    browser = Browser(stack)
    page = browser.get(link)
    assert page.status_code == 200, page.text
    return browser, page


def allow(browser, page):
    """Presses "Allow this device": posts the page's form as a browser would (its hidden fields)."""
    assert re.search(r'<button[^>]*id="allow"[^>]*>Allow this device</button>', page.text), page.text
    return browser.post("/residences/confirm", dict(HIDDEN.findall(page.text)), csrf=False)


def approve(stack, smtp, email):
    browser, page = approval_page(stack, smtp, email)
    answer = allow(browser, page)
    assert answer.status_code == 200 and "Device allowed" in answer.text, (answer.status_code, answer.text)
    return answer


def check_verified(response, email):
    assert response.status_code == 200, (response.status_code, response.text)
    answer = response.json()
    assert set(answer) == {"email", "state", "token"}, answer
    assert answer["email"] == email and answer["state"] == "verified"
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", answer["token"]), answer
    return answer


def check_error(response, status):
    assert response.status_code == status, (response.status_code, response.text)
    error = response.json()["error"]
    assert error["code"] == 0 and error["status"] == status and error["message"], error
    return error


def audit_events(stack, email):
    return [row for row in stack.query("SELECT event, detail FROM audit WHERE lower(email) = ? ORDER BY id", email.lower())]


def test_a_new_address_is_allowed_from_the_mail_and_the_app_collects_a_working_token(mail_stack, smtp):
    email = unique_email("res")
    residence = request_residence(mail_stack, email)
    mail = smtp.wait_for_mail(email, LINK)
    assert mail["message"]["Subject"].startswith("Sign in to ") and mail["message"]["Subject"].endswith(" on a device")
    assert collect(mail_stack, residence).status_code == 409 and collect(mail_stack, residence).json()["state"] == "pending"

    browser, page = approval_page(mail_stack, smtp, email)
    text = html.unescape(page.text)
    assert email in text and "Chrome 120" in text and "127.0.0.1" in text, "the page names the address and the device"
    assert collect(mail_stack, residence).status_code == 409, "opening the link approves nothing"
    assert mail_stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", email) == [(0,)]
    allowed = allow(browser, page)
    assert allowed.status_code == 200 and "Device allowed" in allowed.text

    token = check_verified(collect(mail_stack, residence), email)["token"]
    user = Api(mail_stack, email, token).put("/users", {"user": {"displayName": "Resident"}})
    assert user.status_code == 200, user.text
    assert user.json()["user"]["email"] == email and user.json()["user"]["authenticationToken"] == token
    (account,) = mail_stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ? AND verifiedAt IS NOT NULL", email)
    assert user.json()["user"]["id"] == account[0]
    assert mail_stack.query("SELECT displayName FROM account WHERE id = ?", account[0]) == [("Resident",)]

    check_error(collect(mail_stack, residence), 404)
    again = allow(browser, page)
    assert again.status_code == 404 and "This link does not work" in html.unescape(again.text)
    events = [event for event, _ in audit_events(mail_stack, email)]
    assert events.index("residence_requested") < events.index("residence_approved")
    by_account = mail_stack.query("SELECT event, detail FROM audit WHERE accountId = ?", account[0])
    assert ("sign_in", "residence") in by_account or ("sign_up", "residence") in by_account, by_account


def test_the_approval_form_carries_the_contracts_fields_token_and_csrf_token(mail_stack, smtp):
    email = unique_email("form")
    residence = request_residence(mail_stack, email)
    browser, page = approval_page(mail_stack, smtp, email)
    fields = dict(HIDDEN.findall(page.text))
    link_token = parse_qs(urlparse(smtp.link(email, LINK)).query)["token"][0]
    assert fields.get("token") == link_token
    assert "csrf_token" in fields, f"the form's fields are {sorted(fields)}"
    posted = browser.post("/residences/confirm", {"token": link_token, "csrf_token": fields["csrf_token"]}, csrf=False)
    assert posted.status_code == 200 and "Device allowed" in posted.text
    check_verified(collect(mail_stack, residence), email)


def test_the_approval_needs_the_csrf_token(mail_stack, smtp):
    email = unique_email("csrf")
    residence = request_residence(mail_stack, email)
    browser, page = approval_page(mail_stack, smtp, email)
    link_token = parse_qs(urlparse(smtp.link(email, LINK)).query)["token"][0]
    assert browser.post("/residences/confirm", {"token": link_token}, csrf=False).status_code == 403
    assert collect(mail_stack, residence).status_code == 409


def test_a_wrong_secret_or_an_unknown_id_is_not_found_and_uses_nothing_up(mail_stack, smtp):
    email = unique_email("secret")
    residence = request_residence(mail_stack, email, {"residence": {"email": email}})
    check_error(collect(mail_stack, residence, secret="A" * 43), 404)
    check_error(collect(mail_stack, residence, secret=""), 404)
    check_error(collect(mail_stack, {"id": "B" * 22, "secret": residence["secret"]}), 404)
    approve(mail_stack, smtp, email)
    check_error(collect(mail_stack, residence, secret="A" * 43), 404)
    check_verified(collect(mail_stack, residence), email)


def test_a_mixed_case_address_is_collected_as_registered_and_authenticates_in_any_case(mail_stack, smtp):
    email = unique_email("Mixed.Case").replace("example.com", "Example.COM")
    residence = request_residence(mail_stack, email)
    approve(mail_stack, smtp, email)
    token = check_verified(collect(mail_stack, residence), email)["token"]
    for header in (email, email.lower()):
        response = Api(mail_stack, header, token).put("/users", {"user": {}})
        assert response.status_code == 200, (header, response.text)
    assert len(mail_stack.query("SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", email.lower())) == 1


def test_a_second_request_within_the_mail_throttle_is_429_and_mails_nothing(mail_stack, smtp):
    email = unique_email("throttle")
    request_residence(mail_stack, email)
    smtp.wait_for_mail(email, LINK)
    check_error(Api(mail_stack).post("/residences", {"email": email}), 429)
    check_error(Api(mail_stack).post("/residences", {"email": email.upper()}), 429)
    with smtp.lock:
        assert sum(1 for m in smtp.messages if email in [r.lower() for r in m["to"]] and LINK in m["text"]) == 1


def test_invalid_addresses_are_refused_with_the_validation_error(mail_stack):
    for body in ({"email": "not-an-address"}, {"email": ""}, {}):
        error = check_error(Api(mail_stack).post("/residences", body), 422)
        assert error["message"].startswith("Validation failed: ") and "email" in error["errors"], error


def test_an_existing_account_gets_a_token_for_itself(mail_stack, smtp):
    email = unique_email("owner")
    assert Api(mail_stack).post("/users", {"user": {"email": email, "password": PASSWORD}}).status_code == 201
    assert Browser(mail_stack).get(smtp.link(email, "/account/confirm?token=")).status_code == 302
    signed_in = Api(mail_stack).post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}})
    assert signed_in.status_code == 201
    account = signed_in.json()["user"]["id"]

    residence = request_residence(mail_stack, email)
    approve(mail_stack, smtp, email)
    token = check_verified(collect(mail_stack, residence), email)["token"]
    user = Api(mail_stack, email, token).put("/users", {"user": {}})
    assert user.status_code == 200 and user.json()["user"]["id"] == account
    assert ("sign_in", "residence") in mail_stack.query("SELECT event, detail FROM audit WHERE accountId = ?", account)
    assert Api(mail_stack).post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}}).status_code == 201, \
        "the password still works"


def test_with_sign_up_closed_an_unknown_address_is_refused(closed_mail_stack, smtp):
    stack = closed_mail_stack
    email = unique_email("closed")
    residence = request_residence(stack, email)
    browser, page = approval_page(stack, smtp, email)
    refused = allow(browser, page)
    assert refused.status_code == 403 and "This device cannot sign in" in html.unescape(refused.text)
    response = collect(stack, residence)
    assert response.status_code == 403, response.text
    assert response.json()["state"] == "refused"
    assert response.json()["error"]["status"] == 403 and response.json()["error"]["message"]
    assert stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", email) == [(0,)]
    assert "residence_refused" in [event for event, _ in audit_events(stack, email)]
