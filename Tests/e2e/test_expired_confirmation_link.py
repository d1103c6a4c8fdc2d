"""An expired confirmation link followed in Chromium through nginx: the page says the link does not work (invalid,
used or expired) and offers a new one; the address stays unconfirmed and cannot sign in; the new link confirms it.

The link's age: its row is stored with `createdAt` and `expiresAt = createdAt + confirmation.lifetime` (checked
here), and the server compares `expiresAt` with its own clock when the link is followed. The test moves the row's two
times back by the lifetime and a second, the state a link mailed that long ago is in, rather than waiting two hours
(as test_prune.py ages its rows): the link that then fails and the fresh one that works are both real links of one
running server, so a lifetime short enough to wait for would also have to be long enough for the fresh link's round
trip (mail, outbox, browser) on a loaded machine. A second test shows the same refusal with nothing moved: on a
stack whose links live SHORT seconds, it waits (polling the clock) until the stored deadline has passed.
"""
import time

import pytest
from selenium.webdriver.common.by import By

from chromium_driver import page_wait
from http_client import Browser, page_text
from mails import outbox_link
from stack import new_stack
from users import unique_email
from waits import wait_for

PASSWORD = "correct horse battery"
LIFETIME = 2 * 3600   # confirmation.lifetime of the stack, in seconds
SHORT = 2.0           # confirmation.lifetime of the short-lived stack, in seconds
CONFIRM = "/confirm?token="


@pytest.fixture(scope="module")
def confirming(tmp_path_factory, request):
    """Confirmation required (links live LIFETIME), mail to an outbox folder, no resend throttle."""
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "true", "confirmation.lifetime": f"{LIFETIME}s",
                                                     "mail.transport": "outbox", "mail.throttle": "0s"})


@pytest.fixture(scope="module")
def short_lived(tmp_path_factory, request):
    """As `confirming`, with links that live SHORT seconds."""
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "true", "confirmation.lifetime": f"{SHORT}s",
                                                     "mail.transport": "outbox", "mail.throttle": "0s"})


def confirmation_rows(stack, email):
    return stack.records("SELECT t.createdAt, t.expiresAt, t.usedAt FROM accountToken t JOIN emailAddress e "
                         "ON e.id = t.emailAddressId WHERE e.normalizedAddress = ? AND t.purpose = 'confirmation' "
                         "ORDER BY t.createdAt", email.lower())


def verified(stack, email):
    return stack.query("SELECT verifiedAt IS NOT NULL FROM emailAddress WHERE normalizedAddress = ?", email.lower())[0][0]


def sign_in_refused_as_unconfirmed(stack, email):
    answer = Browser(stack).post("/sign_in", {"email": email, "password": PASSWORD})
    return answer.status_code == 200 and "You have to confirm your email address before signing in." in page_text(answer)


def test_an_expired_link_offers_a_new_one_and_the_new_one_confirms(confirming, chromium):
    stack, email = confirming, unique_email("expired")
    answer = Browser(stack).post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert answer.status_code == 200 and "Check your email" in page_text(answer)
    old_link = outbox_link(stack, email, CONFIRM)
    [row] = confirmation_rows(stack, email)
    assert row["expiresAt"] - row["createdAt"] == pytest.approx(LIFETIME), "the link lives confirmation.lifetime"
    stack.query("UPDATE accountToken SET createdAt = createdAt - ?1, expiresAt = expiresAt - ?1 WHERE emailAddressId = "
                "(SELECT id FROM emailAddress WHERE normalizedAddress = ?2) AND purpose = 'confirmation'",
                LIFETIME + 1, email.lower())

    wait = page_wait(chromium)
    chromium.get(old_link)
    main = wait.until(lambda d: d.find_element(By.TAG_NAME, "main"))
    assert main.find_element(By.TAG_NAME, "h1").text == "This link does not work"
    assert "The confirmation link is invalid, was already used or has expired. Ask for a new one below." in main.text
    assert chromium.current_url == old_link, "the page answers at the link itself, no redirect"
    form = main.find_element(By.CSS_SELECTOR, 'form[action="/account/confirmation/new"]')
    assert form.find_element(By.CSS_SELECTOR, "button[type=submit]").text == "Send a new link"
    assert not verified(stack, email) and sign_in_refused_as_unconfirmed(stack, email)
    assert confirmation_rows(stack, email)[0]["usedAt"] is None, "an expired link is not spent"

    form.find_element(By.NAME, "email").send_keys(email)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(lambda d: "a new link is on its way" in d.find_element(By.TAG_NAME, "main").text)
    new_link = wait_for(lambda: (link := outbox_link(stack, email, CONFIRM)) != old_link and link, what="a new link")
    assert len(confirmation_rows(stack, email)) == 2 and not verified(stack, email)

    chromium.get(new_link)
    wait.until(lambda d: d.current_url == stack.base + "/sign_in")
    assert "Your email address has been confirmed. You can sign in now." in chromium.find_element(By.TAG_NAME, "main").text
    assert verified(stack, email)
    assert Browser(stack).post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303

    again = Browser(stack).get(old_link)
    assert again.status_code == 200 and "This link does not work" in page_text(again), "the old link stays dead"


def test_a_link_past_its_lifetime_on_the_clock_is_refused_in_the_browser(short_lived, chromium):
    stack, email = short_lived, unique_email("short")
    answer = Browser(stack).post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert answer.status_code == 200 and "Check your email" in page_text(answer)
    link = outbox_link(stack, email, CONFIRM)
    [row] = confirmation_rows(stack, email)
    assert row["expiresAt"] - row["createdAt"] == pytest.approx(SHORT)
    wait_for(lambda: time.time() > row["expiresAt"] + 0.01, what="the link's lifetime to pass on the clock")
    chromium.get(link)
    main = page_wait(chromium).until(lambda d: d.find_element(By.TAG_NAME, "main"))
    assert main.find_element(By.TAG_NAME, "h1").text == "This link does not work"
    assert main.find_elements(By.CSS_SELECTOR, 'form[action="/account/confirmation/new"] input[name=email]')
    assert not verified(stack, email) and sign_in_refused_as_unconfirmed(stack, email)
    assert confirmation_rows(stack, email)[0]["usedAt"] is None
