"""Social sign-in through nginx with the tests' OIDC/OAuth provider: sign-up and sign-in in Chromium, linking to an
existing account only with its password, connected accounts in the settings, the no-email path with a confirmation
mail, tokens sealed in the database, the internal token endpoint (with refresh), and closed sign-up.

Stacks: `social` (confirmation off, outbox mail; providers "corp" = OIDC "Corp SSO" and "github"), `social_mail`
(confirmation on, mail through SMTP to the sink) and `social_closed` (sign-up closed).
"""
import itertools
import os
import shutil
import subprocess
import time

import pytest
import requests
from selenium.webdriver.common.by import By

from chromium_driver import page_wait
from http_client import Browser, page_text
from social import (account_ids, finish, identities, social_provider_yaml, social_sign_in, social_stack, social_start,
                    through_provider)
from stack import BIN, Stack, running
from users import unique_email
from waits import wait_for

PASSWORD = "correct horse battery"
NAME = "Corp SSO"
SUBJECTS = itertools.count(10**9 + 1)  # each provider user of this module its own subject (never one drawn twice)


@pytest.fixture(scope="module")
def social_mail(tmp_path_factory, oauth_server, smtp):
    yield from social_stack(tmp_path_factory, oauth_server, {
        "confirmation.required": "true", **smtp.settings()})


@pytest.fixture(scope="module")
def social_closed(tmp_path_factory, oauth_server):
    yield from social_stack(tmp_path_factory, oauth_server, {"signup": "closed"})


def person(provider, email=True, verified=True, **extra):
    """The provider's next user: a new subject, with a new address (unless email=False); returns (sub, email)."""
    sub, address = str(next(SUBJECTS)), unique_email("social")
    user = {"sub": sub, "name": "Social Person", **extra}
    if email:
        user.update(email=address, email_verified=verified)
    provider.next_user(**user)
    return sub, address if email else None


def counts(stack):
    return {table: stack.count(table) for table in ("account", "emailAddress", "socialIdentity", "session")}


def signed_in_as(browser):
    """The home page's text when the browser is signed in, else ""."""
    home = browser.get("/")
    return page_text(home) if home.status_code == 200 else ""


def path_of(response):
    return requests.utils.urlparse(response.url).path


def signed_up_with_password(stack):
    email, browser = unique_email("pw"), Browser(stack)
    assert browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    return browser, email


def test_sign_in_and_sign_up_pages_offer_each_provider(social):
    for page, verb in (("/sign_in", "Sign in"), ("/sign_up", "Sign up")):
        text = page_text(Browser(social).get(page))
        for provider_id, name in (("corp", NAME), ("github", "GitHub")):
            assert f'action="/account/auth/{provider_id}"' in text and f'data-provider="{provider_id}"' in text
            assert f"{verb} with {name}" in text
        assert 'class="social"' in text


def test_chromium_signs_up_with_a_verified_address_then_signs_in_again(social, oauth_provider, chromium):
    sub, email = person(oauth_provider)
    wait = page_wait(chromium)

    def through_the_provider(expected):
        chromium.get(social.base + "/sign_in")
        chromium.find_element(By.CSS_SELECTOR, "button[data-provider=corp]").click()
        wait.until(lambda d: d.current_url.startswith(oauth_provider.issuer + "/authorize"))
        assert email in chromium.find_element(By.ID, "user").text
        chromium.find_element(By.ID, "approve").click()
        wait.until(lambda d: d.current_url.startswith(social.base) and expected in d.find_element(By.TAG_NAME, "main").text)
        assert f"Signed in as {email}" in chromium.find_element(By.TAG_NAME, "main").text

    through_the_provider(f"Welcome! Your account was created with {NAME}.")
    [account] = account_ids(social, email)
    assert social.query("SELECT passwordHash FROM account WHERE id = ?", account) == [("",)], "no password"
    assert social.query("SELECT verifiedAt IS NOT NULL, isPrimary FROM emailAddress WHERE accountId = ?", account) == [(1, 1)]
    [identity] = [i for i in identities(social, "corp") if i["subject"] == sub]
    assert identity["accountId"] == account and identity["email"] == email and identity["sealedTokens"]
    before = counts(social)

    chromium.delete_all_cookies()
    through_the_provider("Signed in successfully.")
    assert account_ids(social, email) == [account]
    after = counts(social)
    assert (after["account"], after["socialIdentity"]) == (before["account"], before["socialIdentity"]), "no new account"
    assert [i["accountId"] for i in identities(social, "corp") if i["subject"] == sub] == [account]


def test_chromium_denied_consent_creates_nothing(social, oauth_provider, chromium):
    person(oauth_provider)
    before = counts(social)
    wait = page_wait(chromium)
    chromium.get(social.base + "/sign_in")
    chromium.find_element(By.CSS_SELECTOR, "button[data-provider=corp]").click()
    wait.until(lambda d: d.current_url.startswith(oauth_provider.issuer + "/authorize"))
    chromium.find_element(By.ID, "deny").click()
    wait.until(lambda d: d.current_url.startswith(social.base + "/sign_in"))
    assert f"You cancelled signing in with {NAME}." in chromium.find_element(By.TAG_NAME, "main").text
    assert counts(social) == before


def test_github_sign_up_takes_the_primary_verified_address(social, oauth_provider):
    sub, email = str(next(SUBJECTS)), unique_email("octo")
    oauth_provider.next_user(sub=sub, name="Octo", login="octo", emails=[
        {"email": unique_email("other"), "primary": False, "verified": False, "visibility": None},
        {"email": email, "primary": True, "verified": True, "visibility": "public"}])
    browser = Browser(social)
    answer = social_sign_in(browser, "github")
    assert "Welcome! Your account was created with GitHub." in page_text(answer) and signed_in_as(browser)
    [identity] = [i for i in identities(social, "github") if i["subject"] == sub]
    assert identity["subject"] == sub and identity["email"] == email
    assert identity["accountId"] == account_ids(social, email)[0]


def test_an_existing_address_is_linked_only_with_the_accounts_password(social, oauth_provider):
    _, email = signed_up_with_password(social)
    [account] = account_ids(social, email)
    sub, _ = person(oauth_provider)
    oauth_provider.next_user(sub=sub, email=email, email_verified=True, name="Same Person")
    browser, before = Browser(social), counts(social)
    answer = social_sign_in(browser, "corp")
    assert path_of(answer) == "/account/auth/link", answer.url
    assert f"An account with {email} already exists here." in page_text(answer) and 'name="password"' in answer.text
    assert counts(social) == before and not signed_in_as(browser), "never linked silently"

    wrong = browser.post("/auth/link", {"password": "not the password"})
    assert wrong.status_code == 200 and ("not correct" in page_text(wrong) or "Invalid email or password." in page_text(wrong))
    assert counts(social) == before and not signed_in_as(browser)

    right = browser.post("/auth/link", {"password": PASSWORD})
    assert right.status_code == 303
    assert f"{NAME} is now linked to your account." in page_text(finish(browser, right.headers["Location"]))
    assert f"Signed in as {email}" in signed_in_as(browser)
    assert [(i["subject"], i["accountId"]) for i in identities(social, "corp") if i["subject"] == sub] == [(sub, account)]
    assert account_ids(social, email) == [account]
    again = Browser(social)
    social_sign_in(again, "corp")
    assert f"Signed in as {email}" in signed_in_as(again), "the provider now signs in to that account"


def test_an_address_another_account_added_without_confirming_it_goes_to_the_providers_verified_owner(social, oauth_provider):
    # Account A types someone else's address into its settings and never confirms it (it cannot).
    squatter, squatter_email = signed_up_with_password(social)
    victim = unique_email("victim")
    assert squatter.post("/settings/emails", {"email": victim}).status_code == 303
    [squatter_account] = account_ids(social, squatter_email)
    assert account_ids(social, victim) == [squatter_account]
    # The address's owner signs in with a provider that verified it: a new account of their own, not A's link page.
    sub, _ = person(oauth_provider)
    oauth_provider.next_user(sub=sub, email=victim, email_verified=True, name="Real Owner")
    browser = Browser(social)
    answer = social_sign_in(browser, "corp")
    assert path_of(answer) != "/account/auth/link", "not routed to the account that merely typed the address"
    assert f"Signed in as {victim}" in signed_in_as(browser)
    [owner_account] = account_ids(social, victim)
    assert owner_account != squatter_account
    assert [i["accountId"] for i in identities(social, "corp") if i["subject"] == sub] == [owner_account]
    assert social.query("SELECT COUNT(*) FROM emailAddress WHERE accountId = ?", squatter_account) == [(1,)]


def test_linking_and_unlinking_in_the_settings(social, oauth_provider):
    browser, email = signed_up_with_password(social)
    [account] = account_ids(social, email)
    page = page_text(browser.get("/settings/connections"))
    assert f"Link {NAME}" in page and 'name="purpose" value="link"' in page
    sub, provider_email = person(oauth_provider)
    linked = finish(browser, through_provider(browser, social_start(browser, "corp", "/settings/connections", purpose="link")))
    assert path_of(linked) == "/account/settings/connections"
    assert f"{NAME} is now linked to your account." in page_text(linked) and provider_email in page_text(linked)
    assert [(i["subject"], i["accountId"]) for i in identities(social, "corp") if i["accountId"] == account] == [(sub, account)]

    other, _ = signed_up_with_password(social)  # the same provider account cannot go to a second account
    taken = finish(other, through_provider(other, social_start(other, "corp", "/settings/connections", purpose="link")))
    assert f"This {NAME} account is already linked to another account." in page_text(taken)
    assert [i["accountId"] for i in identities(social, "corp") if i["subject"] == sub] == [account]

    unlinked = browser.post("/settings/connections/unlink", {"provider": "corp"})
    assert unlinked.status_code == 303
    assert f"{NAME} was unlinked from your account." in page_text(finish(browser, unlinked.headers["Location"]))
    assert [i for i in identities(social, "corp") if i["accountId"] == account] == []
    assert Browser(social).post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303


def test_a_provider_only_account_cannot_unlink_its_only_provider(social, oauth_provider):
    sub, email = person(oauth_provider)
    browser = Browser(social)
    assert "Welcome!" in page_text(social_sign_in(browser, "corp"))
    answer = browser.post("/settings/connections/unlink", {"provider": "corp"})
    text = page_text(finish(browser, answer.headers["Location"]) if answer.status_code in (302, 303) else answer)
    assert f"You can't unlink {NAME}: it is your only way to sign in. Set a password first." in text
    assert [i["subject"] for i in identities(social, "corp") if i["subject"] == sub] == [sub]


@pytest.mark.parametrize("given", ["no address", "an unverified address"])
def test_without_a_verified_address_the_person_enters_one_and_confirms_it(social_mail, oauth_provider, smtp, given):
    sub, provider_email = person(oauth_provider, email=given != "no address", verified=False)
    email = unique_email("entered")
    browser = Browser(social_mail)
    asked = social_sign_in(browser, "corp")
    assert path_of(asked) == "/account/auth/email", asked.url
    assert f"{NAME} didn't give us a verified email address." in page_text(asked) and 'name="email"' in asked.text
    assert [i for i in identities(social_mail, "corp") if i["subject"] == sub] == []

    sent = browser.post("/auth/email", {"email": email}, allow_redirects=True)
    assert sent.status_code == 200 and "Check your email" in page_text(sent)
    [account] = account_ids(social_mail, email)
    assert social_mail.query("SELECT verifiedAt FROM emailAddress WHERE accountId = ?", account) == [(None,)]
    assert [i["accountId"] for i in identities(social_mail, "corp") if i["subject"] == sub] == [account]
    if provider_email:
        assert account_ids(social_mail, provider_email) == [], "the unverified address was not taken"

    early = Browser(social_mail)
    assert "You have to confirm your email address" in page_text(social_sign_in(early, "corp"))
    assert not signed_in_as(early)

    confirm = smtp.link(email, "/confirm?token=").replace("&amp;", "&")
    assert browser.get(confirm).status_code in (302, 303), "followed in the browser that signed in with the provider"
    assert social_mail.query("SELECT verifiedAt IS NOT NULL FROM emailAddress WHERE accountId = ?", account) == [(1,)]
    later = Browser(social_mail)
    social_sign_in(later, "corp")
    assert f"Signed in as {email}" in signed_in_as(later)


def test_the_database_holds_no_provider_token_in_clear(social, oauth_provider):
    sub, _ = person(oauth_provider)
    assert "Welcome!" in page_text(social_sign_in(Browser(social), "corp"))
    [issued] = [t for t in oauth_provider.token_list() if t["sub"] == sub]
    assert issued["access_token"] and issued["refresh_token"]
    stored = social.store.stored_bytes()   # SQLite: the file with its -wal; PostgreSQL: every value of every table
    assert issued["access_token"].encode() not in stored and issued["refresh_token"].encode() not in stored
    [identity] = [i for i in identities(social, "corp") if i["subject"] == sub]
    assert identity["sealedTokens"] and identity["tokenExpiresAt"]


def provider_token(stack, **params):
    return requests.get(stack.base + "/internal/provider_token", params=params, timeout=10)


def test_the_internal_endpoint_gives_the_current_token(social, oauth_provider):
    sub, email = person(oauth_provider)
    social_sign_in(Browser(social), "corp")
    [issued] = [t for t in oauth_provider.token_list() if t["sub"] == sub]
    answer = provider_token(social, email=email, provider="corp")
    assert answer.status_code == 200 and answer.headers["Content-Type"].startswith("application/json")
    body = answer.json()
    assert body["access_token"] == issued["access_token"] and body["token_type"].lower() == "bearer"
    assert abs(body["expires_at"] - issued["expires_at"]) < 60 and "openid" in body["scope"]
    by_account = provider_token(social, account=account_ids(social, email)[0], provider="corp")
    assert by_account.json()["access_token"] == issued["access_token"]
    for params in ({"email": email, "provider": "github"}, {"email": unique_email("nobody"), "provider": "corp"}):
        missing = provider_token(social, **params)
        assert missing.status_code == 404 and missing.json() == {"error": "not_found"}


@pytest.mark.sqlite_only("`frontdoor backup` copies the SQLite file (PostgreSQL has its own tools)")
def test_a_restored_backup_reads_the_provider_tokens_through_the_key_kept_apart(social, oauth_provider, tmp_path):
    """`frontdoor backup` writes the database only, and copies social.token_key_file only where `--token-key` says,
    in another folder (a stolen backup folder must not open the sealed tokens); a Frontdoor served from the backup
    and that key (as the restore in docs/operations.md says) hands out the provider token sealed before the backup."""
    sub, email = person(oauth_provider)
    social_sign_in(Browser(social), "corp")
    token = provider_token(social, email=email, provider="corp").json()["access_token"]
    backups, keys = tmp_path / "backups", tmp_path / "keys"
    backups.mkdir()
    keys.mkdir()
    copy = backups / "copy.sqlite"
    backed = subprocess.run([BIN, "backup", str(copy), "--token-key", str(keys / "social-tokens.key"),
                             "--config", str(social.config_path)], capture_output=True, text=True, timeout=60)
    assert backed.returncode == 0, backed.stderr
    assert sorted(p.name for p in backups.iterdir()) == ["copy.sqlite"], "the key stays out of the backup folder"
    folder = tmp_path / "restored"
    folder.mkdir()
    for source, target in ((copy, "frontdoor.sqlite"), (keys / "social-tokens.key", "social-tokens.key")):
        shutil.copyfile(source, folder / target)
        os.chmod(folder / target, 0o600)   # docs/operations.md's restore: a file others may read is refused
    restored = Stack(folder, {"confirmation.required": "false", "mail.transport": "outbox"},
                     extra_yaml=social_provider_yaml(oauth_provider, list(social.social.values()), folder / "social-tokens.key"))
    serving = running(restored)
    next(serving)
    try:
        answer = provider_token(restored, email=email, provider="corp")
        assert answer.status_code == 200 and answer.json()["access_token"] == token
    finally:
        next(serving, None)


def test_the_internal_endpoint_refreshes_an_expired_token(social, oauth_provider):
    sub, email = person(oauth_provider)
    oauth_provider.token_lifetime(1)
    social_sign_in(Browser(social), "corp")
    oauth_provider.token_lifetime(3600)
    [first] = [t for t in oauth_provider.token_list() if t["sub"] == sub]

    def refreshed():
        body = provider_token(social, email=email, provider="corp").json()
        return body if body["access_token"] != first["access_token"] else None
    body = wait_for(refreshed, what="a refreshed provider token")
    known = {t["access_token"]: t for t in oauth_provider.token_list()}
    assert known[body["access_token"]]["grant_type"] == "refresh_token" and not known[body["access_token"]]["revoked"]
    assert body["expires_at"] > time.time() + 3000
    userinfo = requests.get(oauth_provider.issuer + "/userinfo", headers={"Authorization": "Bearer " + body["access_token"]},
                            timeout=10)
    assert userinfo.status_code == 200 and userinfo.json()["sub"] == sub
    assert provider_token(social, email=email, provider="corp").json()["access_token"] == body["access_token"], "kept"


def test_closed_sign_up_refuses_a_new_identity(social_closed, oauth_provider):
    person(oauth_provider)
    browser, before = Browser(social_closed), counts(social_closed)
    answer = social_sign_in(browser, "corp")
    assert answer.status_code < 500
    assert f"Sign-up is closed: {NAME} is not linked to any account here." in page_text(answer)
    assert counts(social_closed) == before and not signed_in_as(browser)
