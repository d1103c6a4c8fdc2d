"""A requests client of a stack as a browser would use it: CSRF tokens filled in, session cookies remembered."""
import html
import re

import requests

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
# A bound on one request of a test (a hang fails the test), generous for a loaded 2-core machine where sign-ins queue
# for argon2; never what a test measures.
REQUEST_TIMEOUT = 60


class Browser:
    """A requests session that fills in the CSRF token the way a browser posting a form would."""

    def __init__(self, stack, base=None, verify=True):
        self.stack = stack
        self.base = base or stack.base
        self.session = requests.Session()
        self.verify = verify  # per request: REQUESTS_CA_BUNDLE in the environment would override a session setting

    def get(self, path, **kw):
        kw.setdefault("allow_redirects", False)
        kw.setdefault("verify", self.verify)
        return self.seen(self.session.get(self.url(path), timeout=REQUEST_TIMEOUT, **kw))

    def seen(self, response):
        """Remembers every session cookie value the server hands out (checked against the database at the end)."""
        for r in [*response.history, response]:
            for header in r.raw.headers.getlist("Set-Cookie"):
                name, _, rest = header.partition("=")
                value = rest.split(";", 1)[0]
                if name.strip() in ("frontdoor_session", "__Host-frontdoor_session") and value:
                    self.stack.seen_session_tokens.add(value)
        return response

    def token(self, path):
        for page in (path, "/"):
            match = CSRF.search(self.get(page).text)
            if match:
                return match.group(1)
        return ""

    def post(self, path, data, csrf=True, **kw):
        data = dict(data)
        if csrf and "csrf_token" not in data:
            data["csrf_token"] = self.token(path.split("?")[0])
        kw.setdefault("allow_redirects", False)
        kw.setdefault("verify", self.verify)
        return self.seen(self.session.post(self.url(path), data=data, timeout=REQUEST_TIMEOUT, **kw))

    def url(self, path):
        return path if path.startswith("http") else self.base + path

    def cookie(self, name):
        return self.session.cookies.get(name)


def page_text(response):
    """A page's HTML with entities decoded (the catalog's apostrophes arrive as &#39;)."""
    return html.unescape(response.text)
