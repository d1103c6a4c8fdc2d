"""bench/setup.py: the HTTP and SQL set-up steps of bench/run (run with the e2e venv's python, which has PyBrowserID).

  setup.py prepare BASE_URL DB OUT.json one account by HTTP sign-up (confirmation off; its address then marked
                                        verified in DB, as a confirmation link would), signed in, a BrowserID
                                        certificate from POST /browserid/certify for an RSA 2048 user key, a backed
                                        assertion valid for 3 h, an anonymous CSRF cookie + token, the page size;
                                        each checked once (sign-in 303, /verify "okay") before it is written
  setup.py seed DB N EMAIL              N remember-me sessions inserted with SQL for EMAIL's account: N-1 filler rows
                                        (randomblob digests) and one known token, printed on stdout for wrk
"""
import base64
import hashlib
import json
import re
import secrets
import sqlite3
import subprocess
import sys
import time
from urllib.parse import urlencode

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
PASSWORD = "bench horse battery staple"
AUDIENCE = "https://rp.example.com"


def fail(message):
    print(f"bench/setup.py: {message}", file=sys.stderr)
    sys.exit(1)


def rsa_keypair():
    """An RSA 2048 user key, what the sign-in dialog makes with WebCrypto: (BrowserID public JSON, PyBrowserID key)."""
    from browserid import jwt
    pem = subprocess.run(["openssl", "genrsa", "2048"], capture_output=True, check=True).stdout
    text = subprocess.run(["openssl", "rsa", "-noout", "-text"], input=pem, capture_output=True, check=True).stdout.decode()
    number = lambda name, end: int(re.sub(r"[\s:]", "", re.search(name + r":\s*([0-9a-f:\s]+?)\n" + end, text).group(1)), 16)
    n, d = number("modulus", "publicExponent"), number("privateExponent", "prime1")
    e = int(re.search(r"publicExponent: (\d+)", text).group(1))
    return {"algorithm": "RS", "n": str(n), "e": str(e)}, jwt.RS256Key({"n": str(n), "e": str(e), "d": str(d)})


def prepare(base, db_path, out_path):
    import requests
    from browserid import jwt

    email = f"bench-{time.time_ns()}@example.com"
    user = requests.Session()
    page = user.get(base + "/sign_up", timeout=10)
    token = CSRF.search(page.text)
    if page.status_code != 200 or not token:
        fail(f"GET /sign_up answered {page.status_code} without a form (is signup open?)")
    form = {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD, "csrf_token": token.group(1)}
    answer = user.post(base + "/sign_up", data=form, timeout=30, allow_redirects=False)
    if answer.status_code not in (302, 303):
        fail(f"sign-up answered {answer.status_code}")
    if "frontdoor_session" not in user.cookies:  # confirmation is off, but sign in explicitly if sign-up did not
        token = CSRF.search(user.get(base + "/sign_in", timeout=10).text).group(1)
        answer = user.post(base + "/sign_in", data={"email": email, "password": PASSWORD, "csrf_token": token},
                           timeout=30, allow_redirects=False)
        if answer.status_code != 303:
            fail(f"sign-in after sign-up answered {answer.status_code}")
    with sqlite3.connect(db_path) as db:  # BrowserID certifies verified addresses only
        db.execute("UPDATE emailAddress SET verifiedAt = createdAt WHERE address = ?", (email,))
    home = CSRF.search(user.get(base + "/", timeout=10).text)
    if not home:
        fail("no CSRF token on the signed-in home page")
    public, private = rsa_keypair()
    certified = user.post(base + "/browserid/certify", timeout=30, allow_redirects=False,
                          data={"email": email, "pubkey": json.dumps(public), "ephemeral": "false",
                                "csrf_token": home.group(1)})
    if certified.status_code != 200:
        fail(f"certify answered {certified.status_code}: {certified.text[:200]}")
    expires = int((time.time() + 3 * 3600) * 1000)
    assertion = certified.json()["certificate"] + "~" + jwt.generate({"aud": AUDIENCE, "exp": expires}, private)
    checked = requests.post(base + "/verify", data={"assertion": assertion, "audience": AUDIENCE}, timeout=30)
    if checked.status_code != 200 or checked.json().get("status") != "okay":
        fail(f"/verify refused the bench assertion: {checked.status_code} {checked.text[:200]}")

    anonymous = requests.get(base + "/sign_in", timeout=10)
    token = CSRF.search(anonymous.text)
    binding = anonymous.cookies.get("frontdoor_csrf")
    if anonymous.status_code != 200 or not token or not binding:
        fail("the anonymous sign-in page has no CSRF token or cookie")
    signed_in = requests.post(base + "/sign_in", data={"email": email, "password": PASSWORD, "csrf_token": token.group(1)},
                              cookies={"frontdoor_csrf": binding}, timeout=30, allow_redirects=False)
    if signed_in.status_code != 303:
        fail(f"the reused CSRF token did not sign in: {signed_in.status_code}")
    values = {"email": email, "password": PASSWORD, "csrf_cookie": binding, "csrf_token": token.group(1),
              "assertion": assertion, "audience": AUDIENCE, "page_bytes": len(anonymous.content),
              "signin_body": urlencode({"email": email, "password": PASSWORD, "csrf_token": token.group(1)}),
              "verify_body": urlencode({"assertion": assertion, "audience": AUDIENCE})}
    with open(out_path, "w") as out:
        json.dump(values, out)


def seed(db_path, count, email):
    raw = secrets.token_bytes(32)
    token = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    now = time.time()
    far = now + 365 * 24 * 3600
    with sqlite3.connect(db_path) as db:
        row = db.execute("SELECT accountId FROM emailAddress WHERE address = ? AND isPrimary", (email,)).fetchone()
        if not row:
            fail(f"no account with the primary address {email}")
        account = row[0]
        db.execute("PRAGMA synchronous = OFF")  # a throw-away bench database: no fsync per page
        db.execute("PRAGMA cache_size = -262144")  # 256 MiB: a million random-key inserts without re-reading pages
        if count > 1:
            db.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            INSERT INTO session (digest, accountId, createdAt, lastSeenAt, expiresAt, rememberMe, userAgent, remoteAddress)
            SELECT randomblob(32), ?, ?, ?, ?, 1, 'bench filler', '127.0.0.1' FROM n
            """, (count - 1, account, now, now, far))
        db.execute("""
            INSERT INTO session (digest, accountId, createdAt, lastSeenAt, expiresAt, rememberMe, userAgent, remoteAddress)
            VALUES (?, ?, ?, ?, ?, 1, 'bench wrk', '127.0.0.1')
            """, (hashlib.sha256(raw).digest(), account, now, now, far))
    print(token)


def main(args):
    if len(args) == 4 and args[0] == "prepare":
        prepare(args[1].rstrip("/"), args[2], args[3])
    elif len(args) == 4 and args[0] == "seed" and args[2].isdigit() and int(args[2]) >= 1:
        seed(args[1], int(args[2]), args[3])
    else:
        fail("usage: setup.py prepare BASE_URL DB OUT.json | setup.py seed DB N EMAIL")


if __name__ == "__main__":
    main(sys.argv[1:])
