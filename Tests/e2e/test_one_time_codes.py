"""Two-step sign-in's settings page through nginx, in a plain HTTP client, on the run's backend (FRONTDOOR_E2E_BACKEND):
enrol with the key the page shows (pyotp computes the codes), a wrong first code re-renders the form with the field's
message, the QR code decodes (rsvg-convert renders the page's SVG, zbarimg reads it) to exactly the otpauth:// URI the
page shows, the recovery codes are shown once, and turning off needs a recent sign-in.
The sign-in with a code is the second-factor tests' (test_second_factor*.py), through two_step.enrol.
"""
import subprocess
import time
import urllib.parse

import pyotp

from http_client import Browser, page_text
from test_settings_account import PASSWORD, make_stale, outbox_mail, signed_up
from two_step import PAGE, enrol, enrolment_page, recovery_codes, shown_secret, shown_svg, shown_uri


def state(stack, email):
    """(confirmed, recovery codes unused) as stored."""
    rows = stack.query("SELECT o.confirmedAt FROM oneTimeCode o JOIN emailAddress e ON e.accountId = o.accountId WHERE e.address = ?", email)
    unused = stack.query("SELECT COUNT(*) FROM recoveryCode r JOIN emailAddress e ON e.accountId = r.accountId "
                         "WHERE e.address = ? AND r.usedAt IS NULL", email)[0][0]
    return (bool(rows) and rows[0][0] is not None, unused)


def test_enrolling_shows_the_key_and_a_wrong_first_code_is_refused_at_the_field(stack):
    browser, email = signed_up(stack)
    off = browser.get(PAGE)
    assert off.status_code == 200 and "Two-step sign-in is off." in page_text(off)
    page = enrolment_page(browser)
    secret = shown_secret(page)
    assert len(secret) == 32, "160 bits in base32"
    text = page_text(page)
    assert "Scan this QR code" in text and 'autocomplete="one-time-code"' in page.text
    assert page.headers["Cache-Control"] == "no-store"
    assert "script-src 'self'" in page.headers["Content-Security-Policy"], "the inline SVG needs no change to the policy"

    # Two steps behind the server's clock (even if its step moved on since): refused, the form again with the message.
    wrong = browser.post(PAGE, {"code": pyotp.TOTP(secret).at(time.time() - 60)})
    assert wrong.status_code == 200
    wrong_text = page_text(wrong)
    assert 'aria-invalid="true"' in wrong.text and "is not the code your app shows now" in wrong_text
    assert shown_secret(wrong) == secret, "the same enrolment is shown again"
    assert state(stack, email) == (False, 0)

    # One step ahead is within the drift allowed: accepted, and the codes are shown in this response.
    confirmed = browser.post(PAGE, {"code": pyotp.TOTP(secret).at(time.time() + 30)})
    assert confirmed.status_code == 200, confirmed.text
    codes = recovery_codes(confirmed)
    assert len(codes) == 10 and len(set(codes)) == 10
    assert confirmed.headers["Cache-Control"] == "no-store"
    assert state(stack, email) == (True, 10)
    assert "Two-step sign-in was turned on" in outbox_mail(stack, email, "Two-step sign-in was turned on")


def test_the_qr_code_decodes_to_the_uri_the_page_shows(stack, tmp_path):
    browser, email = signed_up(stack)
    page = enrolment_page(browser)
    uri = shown_uri(page)
    secret = shown_secret(page)
    assert uri == (f"otpauth://totp/Frontdoor:{urllib.parse.quote(email, safe='')}?secret={secret}&issuer=Frontdoor"
                   "&algorithm=SHA1&digits=6&period=30")
    parsed = pyotp.parse_uri(uri)
    assert parsed.secret == secret and parsed.name == email and parsed.issuer == "Frontdoor"
    svg = tmp_path / "qr.svg"
    svg.write_text(shown_svg(page))
    png = tmp_path / "qr.png"
    subprocess.run(["rsvg-convert", "--width", "400", "--background-color", "white", "-o", str(png), str(svg)], check=True)
    decoded = subprocess.run(["zbarimg", "--raw", "--quiet", str(png)], check=True, capture_output=True, text=True).stdout
    assert decoded.rstrip("\n") == uri


def test_recovery_codes_are_shown_once_and_new_ones_replace_them(stack):
    browser, email = signed_up(stack)
    enrolled = enrol(browser)
    again = browser.get(PAGE)
    assert again.status_code == 200 and recovery_codes(again) == []
    assert not any(code in again.text for code in enrolled.recovery_codes), "never shown again"
    assert "Recovery codes left: 10 of 10." in page_text(again)
    renewed = browser.post(PAGE + "/recovery_codes", {})
    fresh = recovery_codes(renewed)
    assert renewed.status_code == 200 and len(fresh) == 10 and not set(fresh) & set(enrolled.recovery_codes)
    assert recovery_codes(browser.get(PAGE)) == []
    assert state(stack, email) == (True, 10)


def test_turning_off_needs_a_recent_sign_in(stack):
    browser, email = signed_up(stack)
    enrol(browser)
    make_stale(stack, email)
    stale = browser.post(PAGE + "/off", {})
    assert stale.status_code == 303
    assert stale.headers["Location"] == "/account/settings/reauthenticate?rd=%2Faccount%2Fsettings%2Ftwo_step"
    assert state(stack, email) == (True, 10), "nothing changed"
    renew = browser.post(PAGE + "/recovery_codes", {})
    assert renew.status_code == 303 and "reauthenticate" in renew.headers["Location"], "nor new codes"
    assert browser.post("/settings/reauthenticate", {"password": PASSWORD, "rd": "/account/settings/two_step"}).status_code == 303
    off = browser.post(PAGE + "/off", {})
    assert off.status_code == 303 and off.headers["Location"] == "/account/settings/two_step"
    assert "Two-step sign-in is off." in page_text(browser.get(PAGE))
    assert state(stack, email) == (False, 0)
    assert stack.query("SELECT COUNT(*) FROM oneTimeCode o JOIN emailAddress e ON e.accountId = o.accountId WHERE e.address = ?", email)[0][0] == 0
    assert "Two-step sign-in was turned off" in outbox_mail(stack, email, "Two-step sign-in was turned off")


def test_the_page_needs_a_session_and_the_actions_a_token(stack):
    anonymous = Browser(stack)
    shown = anonymous.get(PAGE)
    assert shown.status_code == 302 and "/sign_in" in shown.headers["Location"]
    browser, _ = signed_up(stack)
    forged = browser.post(PAGE + "/begin", {}, csrf=False)
    assert forged.status_code in (403, 422), forged.status_code


def test_an_enrolled_account_signs_in_with_its_code_once(stack):
    """The seam with the second step (sign_in/second_factor, the second-factor tests have the rest): after the password,
    the code from the app signs in; the same code again does not."""
    browser, email = signed_up(stack)
    enrolled = enrol(browser)
    code = enrolled.code(offset=30)   # one step ahead: never the step the enrolment's own code used
    first = Browser(stack)
    asked = first.post("/sign_in", {"email": email, "password": PASSWORD})
    assert asked.status_code == 303 and "/sign_in/second_factor" in asked.headers["Location"], asked.headers
    done = first.post("/sign_in/second_factor", {"code": code})
    assert done.status_code == 303 and "second_factor" not in done.headers["Location"], done.text
    assert first.get("/").status_code == 200, "signed in"
    again = Browser(stack)
    assert again.post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303
    replayed = again.post("/sign_in/second_factor", {"code": code})
    assert replayed.status_code != 303 or "second_factor" in replayed.headers["Location"], "a code is taken once"
    assert again.get("/").status_code == 302, "not signed in"
