"""Social sign-in for an account with one-time codes, through nginx with the tests' provider: the provider is one
factor, so signing in with a linked identity leads to the second step (sign_in/second_factor) with no session yet, and
the right code signs in with two factors; linking a new identity after the account's password asks the code too and
links nothing on one factor (the settings' connections page links it once signed in).

Stack: `social` (confirmation off, outbox mail; providers "corp" = OIDC "Corp SSO" and "github").
"""
import html
import itertools
import re

import requests
from urllib.parse import urljoin, urlparse

from http_client import Browser, page_text
from social import account_ids, identities, social_sign_in
from two_step import enrol
from users import unique_email

PASSWORD = "correct horse battery"
SUBJECTS = itertools.count(3 * 10**9 + 1)  # subjects of this module's provider users (never one another module draws)


def path_of(response):
    return requests.utils.urlparse(response.url).path


def signed_in(stack, browser):
    """(accountId, factors) of the browser's session, or None."""
    token = browser.cookie("frontdoor_session") or browser.cookie("__Host-frontdoor_session")
    if not token:
        return None
    from api_client import token_digest
    rows = stack.query("SELECT accountId, factors FROM session WHERE digest = ?", token_digest(token))
    return rows[0] if rows else None


def with_codes(stack):
    """A new password account with codes on; returns (email, accountId, Enrolment)."""
    email, browser = unique_email("sf"), Browser(stack)
    assert browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    return email, account_ids(stack, email)[0], enrol(browser)


def second_step(browser, code, at="/sign_in/second_factor"):
    """Submits the second step's form as shown at `at` (a path under the base, or a Location: its hidden `rd` goes
    along)."""
    page = browser.get(urljoin(browser.base + "/", at) if at.startswith(urlparse(browser.base).path + "/") else at)
    fields = {"code": code}
    rd = re.search(r'name="rd" value="([^"]*)"', page.text)
    if rd:
        fields["rd"] = html.unescape(rd.group(1))
    return browser.post("/sign_in/second_factor", fields)


def test_a_linked_provider_leads_to_the_second_step_and_the_code_signs_in_with_two_factors(social, oauth_provider):
    email, account, enrolment = with_codes(social)
    sub = str(next(SUBJECTS))
    # Link "corp" from the settings-free path: a new browser's provider sign-in for the account's address, then the
    # password (which asks the code now) and the code.
    oauth_provider.next_user(sub=sub, email=email, email_verified=True, name="Same Person")
    linker = Browser(social)
    assert path_of(social_sign_in(linker, "corp")) == "/account/auth/link"
    asked = linker.post("/auth/link", {"password": PASSWORD})
    assert asked.status_code == 303 and "/sign_in/second_factor" in asked.headers["Location"], asked.headers
    assert [i for i in identities(social, "corp") if i["subject"] == sub] == [], "nothing linked on one factor"
    done = second_step(linker, enrolment.code(30), at=asked.headers["Location"])
    assert done.status_code == 303 and done.headers["Location"].endswith("/settings/connections"), done.headers
    assert signed_in(social, linker) == (account, 2)
    assert [i for i in identities(social, "corp") if i["subject"] == sub] == []
    # Linked from the settings now (a recent sign-in with two factors).
    oauth_provider.next_user(sub=sub, email=email, email_verified=True, name="Same Person")
    linked = social_sign_in(linker, "corp", page="/settings/connections", purpose="link")
    assert "is now linked" in page_text(linked), page_text(linked)[:2000]
    assert [i["accountId"] for i in identities(social, "corp") if i["subject"] == sub] == [account]

    # Signing in with the linked provider: the second step, no session until the code.
    browser = Browser(social)
    oauth_provider.next_user(sub=sub, email=email, email_verified=True, name="Same Person")
    step = social_sign_in(browser, "corp")
    assert path_of(step) == "/account/sign_in/second_factor", step.url
    assert 'name="code"' in step.text and signed_in(social, browser) is None
    wrong = second_step(browser, "000000" if enrolment.code(0) != "000000" else "111111")
    assert wrong.status_code == 422 and signed_in(social, browser) is None
    right = second_step(browser, enrolment.recovery_codes[0])
    assert right.status_code == 303, right.text[:500]
    assert signed_in(social, browser) == (account, 2)


def test_a_provider_sign_in_challenge_is_bound_to_its_browser(social, oauth_provider):
    email, account, enrolment = with_codes(social)
    sub = str(next(SUBJECTS))
    owner = Browser(social)
    assert owner.post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303
    assert second_step(owner, enrolment.code(30)).status_code == 303
    oauth_provider.next_user(sub=sub, email=email, email_verified=True, name="Same Person")
    social_sign_in(owner, "corp", page="/settings/connections", purpose="link")
    assert [i["accountId"] for i in identities(social, "corp") if i["subject"] == sub] == [account]

    browser, thief = Browser(social), Browser(social)
    oauth_provider.next_user(sub=sub, email=email, email_verified=True, name="Same Person")
    assert path_of(social_sign_in(browser, "corp")) == "/account/sign_in/second_factor"
    # The challenge cookie alone, in another browser (without the binding cookie), does not finish the sign-in.
    for name, value in browser.session.cookies.items():
        if "second_factor" in name:
            thief.session.cookies.set(name, value)
    shown = thief.get("/sign_in/second_factor")
    assert shown.status_code in (302, 303) and "/sign_in" in shown.headers["Location"], "no second step for that browser"
    stolen = second_step(thief, enrolment.recovery_codes[1])
    assert stolen.status_code in (303, 403) and signed_in(social, thief) is None, stolen.status_code
    assert second_step(browser, enrolment.recovery_codes[1]).status_code == 303
    assert signed_in(social, browser) == (account, 2)
