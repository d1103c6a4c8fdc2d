"""Invite-only and closed sign-up: `frontdoor invite create` makes a link that lets exactly that address sign up, once."""
import json
import re
import subprocess

import pytest

from http_client import CSRF, Browser
from mails import outbox_link
from stack import BIN, new_stack
from users import unique_email

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def invite_stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {"signup": "invite", "mail.transport": "outbox", "confirmation.required": "true"})


@pytest.fixture(scope="module")
def closed_stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {"signup": "closed", "mail.transport": "outbox"})


def invite(stack, email, *flags):
    return subprocess.run([BIN, "invite", "create", email, "--config", str(stack.config_path), *flags],
                          capture_output=True, text=True, timeout=60)


def create_link(stack, email):
    result = invite(stack, email)
    assert result.returncode == 0, result.stderr
    link = result.stdout.splitlines()[0]
    assert link.startswith(stack.base + "/sign_up?invite="), result.stdout
    assert "expires" in result.stdout
    return link


def follow(browser, link, email, password=PASSWORD):
    """Opens the invitation link and submits its form (with `email`, whatever the page shows); returns (page, answer)."""
    page = browser.get(link)
    fields = {"email": email, "password": password, "password_confirmation": password}
    if page.status_code == 200:
        fields["csrf_token"] = CSRF.search(page.text).group(1)
        fields["invite"] = re.search(r'name="invite" value="([^"]+)"', page.text).group(1)
    return page, browser.post("/sign_up", fields, csrf=page.status_code != 200)


def test_the_invited_address_signs_up_once_and_lands_signed_in(invite_stack):
    email = unique_email("invited")
    link = create_link(invite_stack, email)
    browser = Browser(invite_stack)
    page, answer = follow(browser, link, email)
    assert page.status_code == 200
    assert f'value="{email}" readonly' in page.text
    assert answer.status_code == 303 and answer.headers["Location"] == "/account/"
    home = browser.get("/")
    assert home.status_code == 200 and f"Signed in as {email}" in home.text
    assert invite_stack.query("SELECT verifiedAt IS NOT NULL FROM emailAddress WHERE address = ?", email) == [(1,)]
    assert invite_stack.query("SELECT COUNT(*) FROM invite WHERE address = ? AND usedAt IS NOT NULL", email) == [(1,)]

    again = Browser(invite_stack).get(link)
    assert again.status_code == 403 and "This invitation does not work" in again.text


def test_another_address_with_the_link_is_refused_and_the_link_kept(invite_stack):
    email, other = unique_email("invited"), unique_email("other")
    link = create_link(invite_stack, email)
    before = invite_stack.count("account")
    browser = Browser(invite_stack)
    _, answer = follow(browser, link, other)
    assert answer.status_code == 200
    assert "Email is not the address this invitation is for" in answer.text
    assert invite_stack.count("account") == before
    assert invite_stack.query("SELECT COUNT(*) FROM emailAddress WHERE address = ?", other) == [(0,)]
    _, answer = follow(Browser(invite_stack), link, email)
    assert answer.status_code == 303, "the refused attempt did not use up the invitation"


def test_without_an_invitation_the_page_says_so_and_a_post_creates_nothing(invite_stack):
    browser = Browser(invite_stack)
    page = browser.get("/sign_up")
    assert page.status_code == 403 and "Sign-up is by invitation only" in page.text
    assert "/account/sign_up" not in browser.get("/sign_in").text, "no sign-up link while sign-up is not open"
    before = invite_stack.count("account")
    email = unique_email("uninvited")
    answer = browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD,
                                       "csrf_token": browser.token("/sign_in")})
    assert answer.status_code == 403 and "Sign-up is by invitation only" in answer.text
    assert invite_stack.count("account") == before


def test_with_mail_the_invitation_reaches_the_outbox_and_json_describes_it(invite_stack):
    email = unique_email("mailed")
    result = invite(invite_stack, email, "--mail", "--json")
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed["email"] == email and printed["mailed"] is True and printed["expires_at"]
    link = outbox_link(invite_stack, email, "/sign_up?invite=")
    assert link == printed["link"]
    _, answer = follow(Browser(invite_stack), link, email)
    assert answer.status_code == 303


def test_a_malformed_address_is_refused_on_the_command_line(invite_stack):
    before = invite_stack.count("invite")
    result = invite(invite_stack, "not-an-address")
    assert result.returncode == 1
    assert result.stderr.strip() == "frontdoor: not a valid email address: not-an-address"
    assert invite_stack.count("invite") == before


def operator(stack, *args):
    return subprocess.run([BIN, "invite", *args, "--config", str(stack.config_path)], capture_output=True, text=True, timeout=60)


def test_the_operator_lists_open_invitations_and_a_revoked_link_stops_working(invite_stack):
    # Given two open invitations and one used
    kept, revoked, used = unique_email("kept"), unique_email("revoked"), unique_email("used")
    kept_link, revoked_link, used_link = create_link(invite_stack, kept), create_link(invite_stack, revoked), create_link(invite_stack, used)
    assert follow(Browser(invite_stack), used_link, used)[1].status_code == 303
    # Then `invite list` names the open ones with their state, --all the used one too, --json the same rows
    listed = operator(invite_stack, "list")
    assert listed.returncode == 0, listed.stderr
    lines = {line.split(":")[0]: line for line in listed.stdout.splitlines()}
    assert lines[kept].startswith(f"{kept}: open, created ") and lines[revoked].startswith(f"{revoked}: open")
    assert used not in listed.stdout and "invite=" not in listed.stdout, "no used invitation, never a token"
    everything = json.loads(operator(invite_stack, "list", "--all", "--json").stdout)
    states = {row["email"]: row["state"] for row in everything}
    assert states[used] == "used" and states[kept] == "open"
    assert [row for row in everything if row["email"] == used][0]["usedAt"] is not None
    # When the operator revokes one address's invitation
    answer = operator(invite_stack, "revoke", revoked)
    assert answer.returncode == 0 and answer.stdout.strip() == f"revoked 1 invitation(s) for {revoked}"
    # Then its link no longer signs anyone up, the other still works, and a second revoke is a one-line refusal
    page, refused = follow(Browser(invite_stack), revoked_link, revoked)
    assert page.status_code == 403 and refused.status_code == 403
    assert invite_stack.query("SELECT COUNT(*) FROM emailAddress WHERE address = ?", revoked) == [(0,)]
    assert follow(Browser(invite_stack), kept_link, kept)[1].status_code == 303
    again = operator(invite_stack, "revoke", revoked)
    assert again.returncode == 1 and again.stderr.strip() == f"frontdoor: no unused invitation for {revoked}"
    assert revoked not in operator(invite_stack, "list").stdout


def test_closed_sign_up_refuses_the_form_and_invitations(closed_stack):
    browser = Browser(closed_stack)
    page = browser.get("/sign_up")
    assert page.status_code == 403 and "Sign-up is closed" in page.text
    answer = browser.post("/sign_up", {"email": unique_email("closed"), "password": PASSWORD, "password_confirmation": PASSWORD,
                                       "csrf_token": browser.token("/sign_in")})
    assert answer.status_code == 403 and "Sign-up is closed" in answer.text
    assert closed_stack.count("account") == 0
    result = invite(closed_stack, unique_email("closed"))
    assert result.returncode == 1
    assert "sign-up is closed" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert closed_stack.count("invite") == 0
