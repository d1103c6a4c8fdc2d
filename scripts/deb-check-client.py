#!/usr/bin/env python3
"""The deb-check's visitor (standard library only): through the nginx site of an installed frontdoor package, sign up,
be refused sign-in until confirmed, confirm the address with the link from the outbox, sign in, and pass the gate of a
protected location.
    deb-check-client.py BASE_URL OUTBOX_DIR PASSWORD_FILE    e.g. http://127.0.0.1:41234 /srv/root/var/lib/frontdoor/outbox pw
With --again (after an upgrade): sign in with the password kept in PASSWORD_FILE and pass the gate, nothing else.
Prints one line a step; exits 1 at the first step that does not answer as it should."""
import email
import email.policy
import html
import http.cookiejar
import pathlib
import re
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

again = "--again" in sys.argv
base, outbox, kept = (arg for arg in sys.argv[1:] if arg != "--again")
base, outbox, kept = base.rstrip("/"), pathlib.Path(outbox), pathlib.Path(kept)
address = "ann@example.com"
password = kept.read_text() if again else "deb-check " + secrets.token_hex(8)   # a well-known one is refused
kept.write_text(password)


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


cookies = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies), NoRedirects())


def request(path, form=None):
    """(status, headers, body) of GET path, or of POST form (with the page's CSRF token filled in)."""
    data = None
    if form is not None:
        status, _, page = request(path.split("?")[0])
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        data = urllib.parse.urlencode({**form, "csrf_token": token.group(1) if token else ""}).encode()
    url = path if path.startswith("http") else base + path
    try:
        with opener.open(urllib.request.Request(url, data=data), timeout=60) as response:
            return response.status, response.headers, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode("utf-8", "replace")


def errors(page):
    """The form's error sentences on a page answered instead of a redirect."""
    found = re.findall(r'<p class="(?:form-error|field-error)"[^>]*>(.*?)</p>', page, re.S)
    return "; ".join(html.unescape(text.strip()) for text in found)


def step(what, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}", flush=True)
    if not ok:
        sys.exit(1)


def confirmation_link():
    """The confirmation link in the mail to `address` (the sender writes it a moment after the sign-up's answer)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for path in sorted(outbox.glob("*.eml")):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if address in str(message["To"]):
                text = "\n".join(p.get_content() for p in message.walk() if p.get_content_maintype() == "text")
                match = re.search(r"http://\S+/confirm\?token=[^\s<>\"]+", text)
                if match:
                    return html.unescape(match.group(0))
        time.sleep(0.2)
    return None


def sign_in_and_pass_the_gate():
    cookies.clear()
    status, headers, page = request("/account/sign_in", {"email": address, "password": password})
    step("POST /account/sign_in", status == 303, f"{status} Location: {headers.get('Location')} {errors(page)}".rstrip())
    status, _, page = request("/account/")
    step("GET /account/ shows the signed-in address", status == 200 and address in html.unescape(page), str(status))
    status, headers, body = request("/app/")
    step("GET /app/ through the gate", status == 200 and headers.get("X-Remote-User") not in (None, ""),
         f"{status}, the app got Remote-User={headers.get('X-Remote-User')} Remote-Email={headers.get('X-Remote-Email')}")


if again:
    sign_in_and_pass_the_gate()
    print(f"signed in again as {address} through {base}")
    sys.exit(0)

status, headers, _ = request("/app/")
step("GET /app/ anonymous is sent to sign in", status == 302 and "/account/sign_in" in headers.get("Location", ""),
     f"{status} Location: {headers.get('Location')}")
status, _, page = request("/account/sign_up")
step("GET /account/sign_up shows the form", status == 200 and 'name="password_confirmation"' in page, str(status))
status, headers, page = request("/account/sign_up", {"email": address, "password": password, "password_confirmation": password})
step("POST /account/sign_up asks to check the mail", status == 200 and "Check your email" in html.unescape(page),
     f"{status} {errors(page)}".rstrip())
status, _, page = request("/account/sign_in", {"email": address, "password": password})
step("POST /account/sign_in before confirming is refused", status == 200 and "confirm your email" in html.unescape(page),
     f"{status} {errors(page)}".rstrip())
link = confirmation_link()
step("confirmation mail in the outbox", link is not None, re.sub(r"token=.*", "token=…", link or "none within 60 s"))
status, headers, _ = request(link)
step("GET the confirmation link", status in (302, 303), f"{status} Location: {headers.get('Location')}")
sign_in_and_pass_the_gate()
print(f"signed up, confirmed and signed in as {address} through {base}")
