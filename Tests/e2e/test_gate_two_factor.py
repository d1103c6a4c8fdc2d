"""The gate's `FRONTDOOR_REQUIRE=2fa` through nginx, on the run's backend: a location whose gate copy sets it (as
nginx/snippets/frontdoor-gate.conf's comment shows) sends a one-factor session to the second step, which comes back to
the original URL once the session is stepped up; an account without codes is shown the way to set them up; the same
session passes a location without the requirement all along; it composes with FRONTDOOR_ALLOW (both must hold)."""
from urllib.parse import quote

import pytest

from http_client import Browser
from stack import new_stack
from test_gate import EchoApp, origin, protect_snippet, upstream  # noqa: F401  (upstream is a fixture)
from test_settings_account import signed_in, signed_up
from two_step import enrol

STEP = "/account/sign_in/second_factor"


def server_files(port):
    def files(stack):
        prefix = stack.folder / "nginx"
        gate = (prefix / "snippets/frontdoor-gate.conf").read_text()
        protect = (prefix / "snippets/frontdoor-protect.conf").read_text()
        assert "#   fastcgi_param FRONTDOOR_REQUIRE 2fa;" in gate, "the snippet shows the line to uncomment"

        def location(name, path, params):
            copy = gate.replace("location = /internal/frontdoor/check {", f"location = /internal/frontdoor/{name} {{\n    {params}")
            app = protect.replace("auth_request /internal/frontdoor/check;", f"auth_request /internal/frontdoor/{name};")
            return copy + f"\nlocation {path} {{\n" + app + f"\n    proxy_pass http://127.0.0.1:{port}/;\n}}\n"
        return {
            "app.conf": protect_snippet().replace("127.0.0.1:9000", f"127.0.0.1:{port}"),
            "secure.conf": location("check-2fa", "/secure/", "fastcgi_param FRONTDOOR_REQUIRE 2fa;"),
            "both.conf": location("check-2fa-admins", "/both/", 'fastcgi_param FRONTDOOR_REQUIRE 2fa;\n    fastcgi_param FRONTDOOR_ALLOW "@admins.test";'),
            "typo.conf": location("check-typo", "/typo/", "fastcgi_param FRONTDOOR_REQUIRE 2FA-please;"),
        }
    return files


@pytest.fixture(scope="module")
def stack(tmp_path_factory, request, upstream):  # noqa: F811
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox"},
                         server_files(upstream))


def test_a_one_factor_session_is_sent_to_the_second_step_and_admitted_after_it(stack):
    enrolling, email = signed_up(stack)
    browser = signed_in(stack, email)   # a second session, from before the codes: it keeps one factor
    page = origin(stack) + "/secure/report?x=1"
    refused = browser.get(page)
    assert refused.status_code == 302 and "protected page" not in refused.text
    assert refused.headers["Location"] == f"{origin(stack)}{STEP}?rd={quote(page, safe='')}"
    assert browser.get(origin(stack) + "/app/report").status_code == 200, "a location without the requirement admits"

    no_codes = browser.get(refused.headers["Location"])
    assert no_codes.status_code == 200 and "/account/settings/two_step" in no_codes.text, "set up the codes first"
    enrolment = enrol(enrolling)
    assert enrolling.get(page).status_code == 200, "the confirming code raised the enrolling session"
    assert browser.get(page).status_code == 302, "the other session still has one factor"

    form = browser.get(refused.headers["Location"])
    assert form.status_code == 200 and 'autocomplete="one-time-code"' in form.text
    wrong = browser.post(refused.headers["Location"], {"code": "000000" if enrolment.code(offset=30) != "000000" else "111111", "rd": page})
    assert wrong.status_code == 422
    assert browser.get(page).status_code == 302
    stepped = browser.post(refused.headers["Location"], {"code": enrolment.code(offset=30), "rd": page})
    assert stepped.status_code == 303 and stepped.headers["Location"] == page
    shown = browser.get(page)
    assert shown.status_code == 200 and "protected page /report?x=1" in shown.text
    assert "Remote-Factors" not in shown.text, "the headers apps get are unchanged"
    factors = stack.query("SELECT s.factors FROM session s JOIN emailAddress e ON e.accountId = s.accountId WHERE e.address = ?", email)
    assert factors == [(2,), (2,)]


def test_the_requirement_composes_with_the_allow_rule_and_an_unknown_word_refuses(stack):
    browser, _ = signed_up(stack)
    assert browser.get(origin(stack) + "/secure/").status_code == 302
    enrol(browser)
    assert browser.get(origin(stack) + "/secure/").status_code == 200
    assert browser.get(origin(stack) + "/both/").status_code == 403, "two factors, but not on the allow list"
    assert browser.get(origin(stack) + "/typo/").status_code == 403, "an unknown requirement opens nothing"
    assert Browser(stack).get(origin(stack) + "/secure/").headers["Location"].startswith(origin(stack) + "/account/sign_in?rd="), \
        "no session: the sign-in as ever"
