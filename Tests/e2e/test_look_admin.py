"""The look and accessibility pass (look.py) for every admin page, in English, French and German, 360 px and 1280 px
wide, light and dark: the people list, a person's page (in groups, locked, codes on, an address not confirmed, two
sessions), the delete page, invitations (one open), groups and a group's members, the audit log and health.
Second factors are off for admins here (the pages' look, not their access, which test_admin.py drives), and a sign-in
stays recent for a day, so the delete page shows.
"""
import pytest

pytestmark = pytest.mark.sqlite_only("the pages' look does not depend on the backend; test_admin.py drives them on both")

from admin import account_id, grant
from http_client import Browser
from look import ALL_LANGS, PASSWORD, driver, each_look, language_cookie, sign_up  # noqa: F401 (driver: a fixture)
from stack import new_stack
from test_settings_account import signed_up
from two_step import enrol
from users import unique_email


@pytest.fixture(scope="module")
def stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox",
                                                     "admin.require_second_factor": "false", "admin.reauthenticate_after": "1d",
                                                     "session.reauthenticate_after": "1d"})


@pytest.fixture(scope="module")
def bob(stack):
    """A person with something in every section: codes on, in a group, two sessions, locked, a failed sign-in."""
    browser, email = signed_up(stack)
    enrol(browser)
    grant(stack, email, group="team")
    Browser(stack).post("/sign_in", {"email": email, "password": "not the password"})
    Browser(stack).post("/sign_in", {"email": email, "password": PASSWORD})
    return email, account_id(stack, email)


@pytest.mark.parametrize("lang", ALL_LANGS)
def test_every_admin_page_in_each_look(stack, driver, bob, lang):
    bob_email, bob_id = bob
    driver.delete_all_cookies()
    language_cookie(driver, stack, lang)
    admin = sign_up(driver, stack)   # in this language, which becomes the account's
    grant(stack, admin)
    admin_browser = Browser(stack)
    admin_browser.post("/sign_in", {"email": admin, "password": PASSWORD})
    admin_browser.post("/admin/invitations", {"email": unique_email("invited"), "expires_in": "7d"})
    admin_browser.post("/admin/groups", {"name": "ops-" + lang})
    admin_browser.post("/admin/person/lock", {"id": str(bob_id), "duration": "1d"})
    base = stack.base + "/admin"
    pages = [("admin_people", "/people"), ("admin_person", f"/person?id={bob_id}"),
             ("admin_person_delete", f"/person/delete?id={bob_id}"), ("admin_invitations", "/invitations"),
             ("admin_groups", "/groups"), ("admin_group", "/group?name=team"), ("admin_audit", "/audit"),
             ("admin_health", "/health")]
    failures = []
    for name, path in pages:
        def arrived(d, path=path):
            assert "/admin" + path.split("?")[0] in d.current_url and d.find_elements("css selector", "main h1"), d.current_url
        failures += each_look(driver, base + path, name, lang, arrived)
    assert bob_email
    assert failures == [], "\n".join(failures)
