"""The admin pages in Chromium through nginx, on the run's backend: an admin (codes on, in `admins`) signs in with a
code, finds a person, puts them in a group (the gate's Remote-Groups changes), resets their second factor (they are
mailed), ends their sessions (their next gate check is refused), locks and unlocks them, creates and revokes an
invitation, filters the audit log and downloads it as CSV — each change audited with the admin's account id. Then:
a person who is no admin gets 403 (the route table is walked in AdminAccessTests; here the sample goes through
nginx), an admin signed in with one factor is told to set up two-step sign-in, a post without the form token is
refused, and a stale re-authentication is asked again before an account is deleted.
"""
import csv
import io

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from admin import account_id, admin_browser, grant, make_admin, press, sign_in_chromium
from chromium_driver import make_chromium, page_wait
from http_client import Browser, page_text
from look import PASSWORD, fill, submit
from mails import mail_text, outbox_newest_first, read_mail
from stack import new_stack
from test_settings_account import signed_up
from two_step import enrol
from users import unique_email
from waits import wait_for


@pytest.fixture(scope="module")
def stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox",
                                                     "lockout.address_max_failures": "0"})


@pytest.fixture(scope="module")
def admin(stack):
    return make_admin(stack)


@pytest.fixture(scope="module")
def chromium(stack, admin, tmp_path_factory):
    driver = make_chromium()
    downloads = tmp_path_factory.mktemp("downloads")
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver.downloads = downloads
    sign_in_chromium(driver, stack, *admin)
    yield driver
    driver.quit()


def mails_to(stack, email):
    return [m for m in (read_mail(p.read_bytes()) for p in outbox_newest_first(stack)) if email in str(m["To"])]


def flash(driver):
    return driver.find_element(By.CSS_SELECTOR, "[role=status], [role=alert]").text


def open_person(driver, stack, email):
    driver.get(stack.base + "/admin/people?q=" + email)
    driver.find_element(By.XPATH, f"//main//table//a[normalize-space()='{email}']").click()
    page_wait(driver).until(lambda d: "/admin/person?id=" in d.current_url)
    assert driver.find_element(By.TAG_NAME, "h1").text == email


def audit_rows(stack, email, event):
    return stack.records("SELECT * FROM audit WHERE email = ? AND event = ? ORDER BY id", email, event)


def test_an_admin_finds_a_person_and_acts_on_their_account(stack, admin, chromium):
    admin_email, _ = admin
    admin_id = account_id(stack, admin_email)
    bob, bob_email = signed_up(stack)
    enrol(bob)
    check = bob.get("/auth/check")
    assert check.status_code == 200 and "Remote-Groups" not in check.headers

    # A group made on the groups page, then the person put in it on their page: the gate says so at once.
    group = "team-" + unique_email("g").split("@")[0][-8:]
    chromium.get(stack.base + "/admin/groups")
    chromium.find_element(By.CSS_SELECTOR, "main form[action$='/admin/groups'] input[name=name]").send_keys(group)
    press(chromium, "/admin/groups")
    assert group in chromium.find_element(By.TAG_NAME, "main").text
    open_person(chromium, stack, bob_email)
    Select(chromium.find_element(By.CSS_SELECTOR, "#groups select[name=add]")).select_by_value(group)
    press(chromium, "/admin/person/groups", "groups")
    assert group in bob.get("/auth/check").headers.get("Remote-Groups", "").split(",")

    # The second factor reset: recent enough a sign-in, so no password asked; the person is mailed.
    before = len(mails_to(stack, bob_email))
    press(chromium, "/admin/person/second_factor/reset", "second-factor")
    assert "/admin/person?id=" in chromium.current_url
    wait_for(lambda: len(mails_to(stack, bob_email)) > before, what="the reset's mail to the person", timeout=30)
    assert stack.query("SELECT COUNT(*) FROM oneTimeCode WHERE accountId = ?", account_id(stack, bob_email)) == [(0,)]

    # Every session ended: the person's next gate check is refused.
    press(chromium, "/admin/person/sessions/revoke_all", "sessions")
    assert bob.get("/auth/check").status_code == 401

    # Locked: the right password is refused; unlocked: it signs in (with the password alone, the codes gone).
    Select(chromium.find_element(By.CSS_SELECTOR, "#actions select[name=duration]")).select_by_value("1h")
    press(chromium, "/admin/person/lock", "actions")
    assert Browser(stack).post("/sign_in", {"email": bob_email, "password": PASSWORD}).status_code == 200
    press(chromium, "/admin/person/unlock", "actions")
    again = Browser(stack)
    assert again.post("/sign_in", {"email": bob_email, "password": PASSWORD}).status_code == 303
    assert again.get("/auth/check").status_code == 200

    for event in ("group_member_added", "second_factor_removed", "session_revoked", "lockout", "unlock"):
        rows = audit_rows(stack, bob_email, event)
        assert rows and rows[-1]["actorid"] == admin_id, (event, rows)


def test_an_admin_creates_and_revokes_an_invitation(stack, admin, chromium):
    carol = unique_email("carol")
    chromium.get(stack.base + "/admin/invitations")
    fill(chromium, email=carol)
    press(chromium, "/admin/invitations")
    link = chromium.find_element(By.CSS_SELECTOR, "main .invitation-link code").text
    assert "token=" in link or "invite" in link, link
    assert carol in chromium.find_element(By.CSS_SELECTOR, "main table").text
    chromium.find_element(By.XPATH, f"//main//tr[contains(., '{carol}')]//button[@type='submit']").click()
    page_wait(chromium).until(lambda d: carol not in d.find_element(By.TAG_NAME, "main").text
                              or d.find_elements(By.CSS_SELECTOR, "[role=status]"))
    assert not stack.query("SELECT 1 FROM invite WHERE address = ? AND usedAt IS NULL", carol)
    assert audit_rows(stack, carol, "invite_revoked")[-1]["actorid"] == account_id(stack, admin[0])


def test_an_admin_filters_the_audit_log_and_downloads_it(stack, admin, chromium):
    _, dave_email = signed_up(stack)
    Browser(stack).post("/sign_in", {"email": dave_email, "password": "not the password"})
    chromium.get(stack.base + "/admin/audit")
    Select(chromium.find_element(By.CSS_SELECTOR, "main select[name=event]")).select_by_value("sign_in_failed")
    fill(chromium, person=dave_email)
    submit(chromium, "main form.admin-filters button[type=submit]")
    rows = chromium.find_elements(By.CSS_SELECTOR, "main table tbody tr")
    assert len(rows) == 1 and dave_email in rows[0].text and "sign_in_failed" in rows[0].text
    chromium.find_element(By.CSS_SELECTOR, "main a.audit-csv").click()
    wait_for(lambda: [p for p in chromium.downloads.glob("audit-*.csv")], what="the CSV download", timeout=30)
    [saved] = chromium.downloads.glob("audit-*.csv")
    table = list(csv.reader(io.StringIO(saved.read_text(encoding="utf-8"))))
    assert table[0] == ["time", "event", "account_id", "email", "client_address", "user_agent", "detail", "actor_id"]
    assert [row[1] for row in table[1:]] == ["sign_in_failed"] and table[1][3] == dave_email


def test_no_admin_gets_403_a_one_factor_admin_is_told_and_posts_need_the_token(stack, admin):
    person, _ = signed_up(stack)
    for path in ("/admin", "/admin/people", "/admin/health", "/admin/audit/csv"):
        answer = person.get(path)
        assert answer.status_code == 403 and "for administrators only" in page_text(answer), path
    token = person.token("/settings")
    answer = person.post("/admin/person/lock", {"id": "1", "duration": "1h", "csrf_token": token})
    assert answer.status_code == 403 and "for administrators only" in page_text(answer)

    one_factor, email = signed_up(stack)
    grant(stack, email)
    answer = one_factor.get("/admin/people")
    assert answer.status_code == 403 and "needs two-step sign-in" in page_text(answer)

    browser = admin_browser(stack, *admin, code=admin[1].recovery_codes[0])
    assert browser.get("/admin/people").status_code == 200
    refused = browser.post("/admin/person/lock", {"id": "1", "duration": "1h"}, csrf=False)
    assert refused.status_code == 403 and "form has expired" in page_text(refused)


def test_a_stale_sign_in_is_asked_again_before_an_account_is_deleted(stack, admin):
    browser = admin_browser(stack, *admin, code=admin[1].recovery_codes[1])
    _, victim = signed_up(stack)
    victim_id = account_id(stack, victim)
    # The admin's password was entered an hour ago (admin.reauthenticate_after is 5 min): moved back in the database,
    # as the clock cannot be moved under a real server.
    stack.query("UPDATE session SET authenticatedAt = authenticatedAt - 3600 WHERE accountId = ?", account_id(stack, admin[0]))
    page = f"/admin/person/delete?id={victim_id}"
    asked = browser.get(page)
    assert asked.status_code == 302 and "/settings/reauthenticate?rd=" in asked.headers["Location"]
    form = {"id": str(victim_id), "confirm_email": victim, "csrf_token": browser.token("/admin/people")}
    refused = browser.post("/admin/person/delete", form)
    assert refused.status_code == 303 and "/settings/reauthenticate?rd=" in refused.headers["Location"]
    assert stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", victim.lower()) == [(1,)]

    again = browser.post("/settings/reauthenticate", {"password": PASSWORD, "rd": "/account" + page})
    assert again.status_code == 303
    assert browser.get(page).status_code == 200
    done = browser.post("/admin/person/delete", form)
    assert done.status_code == 303 and done.headers["Location"].endswith("/admin/people")
    assert stack.query("SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = ?", victim.lower()) == [(0,)]
    deleted = audit_rows(stack, victim, "account_deleted")
    assert deleted and deleted[-1]["actorid"] == account_id(stack, admin[0])
