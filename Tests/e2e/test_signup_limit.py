"""Anti-automation (ASVS 4.2.2): one client address creates at most `signup_limit.max_per_address` accounts per window,
through the page and the JSON API alike; the refusal is a clear 429, and nothing is created."""
import html

import pytest

from api_client import Api
from http_client import Browser
from stack import new_stack
from users import unique_email

PASSWORD = "correct horse battery"
REFUSED = "Too many accounts were created from your network in the last while. Please try again later."


@pytest.fixture(scope="module")
def limited(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox",
                                                     "api.enabled": "true", "signup_limit.max_per_address": "2"})


def test_the_third_account_from_one_address_within_the_hour_is_refused(limited):
    for _ in range(2):
        email = unique_email("bot")
        assert Browser(limited).post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    email = unique_email("bot")
    page = Browser(limited).post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert page.status_code == 429 and REFUSED in html.unescape(page.text)
    api = Api(limited).post("/users", {"user": {"email": unique_email("api"), "password": PASSWORD}})
    assert api.status_code == 429 and api.json()["error"]["message"] == REFUSED
    assert limited.count("account") == 2
    assert limited.query("SELECT COUNT(*) FROM emailAddress WHERE address = ?", email)[0][0] == 0
