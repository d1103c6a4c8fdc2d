"""Two-step sign-in (one-time codes) for e2e tests: enrol an account through settings/two_step as a person would, read
the page's key, QR code and recovery codes, and compute codes with pyotp.

    from two_step import enrol
    browser, email = signed_up(stack)            # any signed-in Browser with a recent sign-in
    enrolled = enrol(browser)                    # codes on: .secret (base32), .uri, .recovery_codes (10)
    enrolled.code()                              # the current code; enrolled.code(offset=30) the next step's
"""
import html
import re
import time

import pyotp

SECRET = re.compile(r'<code class="two-step-secret">([A-Z2-7 ]+)</code>')
URI = re.compile(r'<a class="two-step-uri" href="([^"]+)">([^<]+)</a>')
SVG = re.compile(r"<svg\b.*?</svg>", re.S)
RECOVERY = re.compile(r"<li><code>([a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4})</code></li>")
PAGE = "/settings/two_step"


class Enrolment:
    """An account's two-step sign-in as its person set it up: the key, the otpauth:// URI and the recovery codes."""

    def __init__(self, secret, uri, recovery_codes):
        self.secret = secret
        self.uri = uri
        self.recovery_codes = recovery_codes

    def code(self, offset=0):
        """The code for now + `offset` seconds."""
        return pyotp.TOTP(self.secret).at(time.time() + offset)


def enrolment_page(browser):
    """Begins an enrolment and returns the page that shows it (status 200, with the key, QR code and code field)."""
    begun = browser.post(PAGE + "/begin", {})
    assert begun.status_code == 303, begun.text
    page = browser.get(PAGE)
    assert page.status_code == 200 and SECRET.search(page.text), page.text
    return page


def shown_secret(page):
    """The key the page shows (groups of four), without its spaces."""
    return SECRET.search(page.text).group(1).replace(" ", "")


def shown_uri(page):
    """The otpauth:// URI the page shows as text; its link's href says the same."""
    href, text = URI.search(page.text).groups()
    assert html.unescape(href) == html.unescape(text)
    return html.unescape(text)


def shown_svg(page):
    return SVG.search(page.text).group(0)


def recovery_codes(response):
    return RECOVERY.findall(response.text)


def enrol(browser):
    """Turns codes on for the browser's account (its sign-in must be recent); returns the Enrolment."""
    page = enrolment_page(browser)
    secret = shown_secret(page)
    confirmed = browser.post(PAGE, {"code": pyotp.TOTP(secret).now()})
    assert confirmed.status_code == 200, confirmed.text
    codes = recovery_codes(confirmed)
    assert len(codes) == 10, confirmed.text
    return Enrolment(secret, shown_uri(page), codes)
