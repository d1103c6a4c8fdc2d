"""The devise-ios API with confirmation required: mail through the SMTP sink (enumeration, new email, reminders)."""
from urllib.parse import parse_qs, urlparse

from api_client import Api
from http_client import Browser
from users import unique_email
from devise_api import account_ids_of, check_user, check_error, check_unauthorized, works, PASSWORD, NEW_PASSWORD

# MARK: - With confirmation required (mail through SMTP)

def confirm(stack, smtp, email):
    """Follows the newest confirmation link mailed to `email`."""
    link = smtp.link(email, "/account/confirm?token=")
    assert Browser(stack).get(link).status_code == 302


def test_register_answers_the_same_for_a_new_and_a_taken_address(mail_stack, smtp):
    email = unique_email("enum")
    api = Api(mail_stack)
    first = api.post("/users", {"user": {"email": email, "password": PASSWORD}})
    assert first.status_code == 201
    expected = {"user": {"id": None, "email": email, "authenticationToken": None, "createdAt": None, "updatedAt": None},
                "confirmationSent": True}
    assert first.json() == expected
    smtp.wait_for_mail(email, "/account/confirm?token=")
    check_unauthorized(Api(mail_stack).post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}}),
                       "You have to confirm your email address before signing in.")
    taken = api.post("/users", {"user": {"email": email, "password": "another password here"}})
    assert (taken.status_code, taken.json()) == (201, expected)
    assert len(account_ids_of(mail_stack, email)) == 1

    confirm(mail_stack, smtp, email)
    signed_in = check_user(Api(mail_stack).post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}}), 201, email)
    assert signed_in["user"]["id"] == account_ids_of(mail_stack, email)[0]


def confirmed_api_user(stack, smtp):
    email = unique_email("conf")
    assert Api(stack).post("/users", {"user": {"email": email, "password": PASSWORD}}).status_code == 201
    confirm(stack, smtp, email)
    return Api(stack).signed_in_as(check_user(
        Api(stack).post("/users/sign_in", {"user": {"email": email, "password": PASSWORD}}), 201, email))


def test_a_new_email_becomes_primary_once_its_mailed_link_is_followed(mail_stack, smtp):
    api = confirmed_api_user(mail_stack, smtp)
    old, new = api.email, unique_email("new")
    pending = check_user(api.put("/users", {"user": {"email": new}}), 200, old)
    assert pending["user"]["unconfirmedEmail"] == new and pending["user"]["authenticationToken"] == api.token
    assert works(Api(mail_stack, new, api.token)), "any address the account holds names the token's account"
    check_unauthorized(Api(mail_stack, unique_email("stranger"), api.token).put("/users", {"user": {}}))
    assert check_user(api.put("/users", {"user": {}}), 200)["user"]["unconfirmedEmail"] == new

    confirm(mail_stack, smtp, new)
    after = check_user(api.put("/users", {"user": {}}), 200, new)
    assert "unconfirmedEmail" not in after["user"]
    assert works(Api(mail_stack, new, api.token)), "the new primary authenticates"
    assert works(Api(mail_stack, old, api.token)), "the old address is still a verified address of the account"
    smtp.wait_for_mail(old, new)
    check_user(Api(mail_stack).post("/users/sign_in", {"user": {"email": new, "password": PASSWORD}}), 201, new)


def test_remind_answers_201_empty_for_every_well_formed_address_and_the_mailed_token_resets(mail_stack, smtp):
    api = confirmed_api_user(mail_stack, smtp)
    anonymous = Api(mail_stack)
    for email in (api.email, unique_email("unknown")):
        response = anonymous.post("/users/password", {"user": {"email": email}})
        assert response.status_code == 201 and response.json() == {}
    for email in ("", "not-an-address"):
        assert check_error(anonymous.post("/users/password", {"user": {"email": email}}), 422)["message"].startswith("Validation failed: ")

    link = smtp.link(api.email, "/account/password/edit?token=")
    token = parse_qs(urlparse(link).query)["token"][0]
    check_error(anonymous.put("/users/password", {"user": {"resetPasswordToken": token, "password": NEW_PASSWORD,
                                                          "passwordConfirmation": "different"}}), 422)
    reset = check_user(anonymous.put("/users/password", {"user": {"resetPasswordToken": token, "password": NEW_PASSWORD,
                                                                  "passwordConfirmation": NEW_PASSWORD}}), 200, api.email)
    assert reset["user"]["authenticationToken"] != api.token
    assert works(Api(mail_stack).signed_in_as(reset))
    assert not works(api), "a reset ends the other tokens"
    check_error(anonymous.put("/users/password", {"user": {"resetPasswordToken": token, "password": PASSWORD,
                                                          "passwordConfirmation": PASSWORD}}), 422)
    check_user(Api(mail_stack).post("/users/sign_in", {"user": {"email": api.email, "password": NEW_PASSWORD}}), 201)
