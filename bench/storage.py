"""bench/storage.py: the load and the samplers of bench/storage (run with the e2e venv's python: psycopg, requests, the
tests' OAuth provider). Each command writes one JSON object to OUT.json; bench/storage_table.py makes the table.

  storage.py provider REDIRECT OUT.json     the tests' OAuth/OIDC provider (Tests/e2e/oauth_provider.py) with one
                                            client for REDIRECT; writes issuer, client_id, client_secret; runs until killed
  storage.py stuff BASE VALUES SECONDS CLIENTS OUT.json
        CLIENTS client addresses 127.0.1.1… (source addresses bound on loopback: nginx passes its REMOTE_ADDR, the
        lockout's per-address rule sees them as they are) post wrong passwords for unknown addresses at full speed
        (one keep-alive connection each, over 4 processes), while one person (127.0.0.1) signs in with the right
        password once a second; statuses, the person's latencies
  storage.py mixed BASE VALUES SECONDS DSN ACCOUNT OUT.json
        password sign-ins (8 threads), social sign-ins through the provider of values["social"] (4 threads) and
        residence collections (4 threads; verified residences staged with SQL) at once, while a seeder inserts
        expired sessions with SQL (50 every 100 ms) so every sign-in's purge has rows to delete
  storage.py deadlocks LOG OFFSET          the statements in PostgreSQL's deadlock reports after OFFSET, counted
  storage.py rtt DSN...                     the mean `SELECT 1` time over each DSN, ms, one a line
  storage.py locks DSN SECONDS OUT.json    samples `pg_locks WHERE NOT granted` with pg_stat_activity every 10 ms:
                                            each wait counted once (waiting pid and transaction start), its statement
                                            and what the blockers (pg_blocking_pids) were running
"""
import base64
import hashlib
import http.client
import json
import multiprocessing
import os
import re
import secrets
import sys
import threading
import time
from collections import Counter
from urllib.parse import urlencode, urlsplit

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def post_form(conn, path, body, cookie):
    conn.request("POST", path, body=body, headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    answer = conn.getresponse()
    answer.read()
    return answer.status, answer.will_close


def stuffer(base, values, deadline, addresses, queue):
    """One process: a thread per source address, wrong passwords for unknown addresses until `deadline`."""
    url = urlsplit(base)
    statuses, errors, lock = Counter(), Counter(), threading.Lock()
    cookie = "frontdoor_csrf=" + values["csrf_cookie"]

    def run(address):
        conn, local = None, Counter()
        while time.time() < deadline:
            body = urlencode({"email": f"victim-{secrets.token_hex(4)}@example.com", "password": secrets.token_hex(8),
                              "csrf_token": values["csrf_token"]})
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60, source_address=(address, 0))
                status, closing = post_form(conn, url.path + "/sign_in", body, cookie)
                local[status] += 1
                if closing:
                    conn.close(); conn = None
            except Exception as error:  # counted, then a fresh connection
                local[type(error).__name__] += 1
                conn = None
        with lock:
            for key, count in local.items():
                (statuses if isinstance(key, int) else errors)[key] += count

    threads = [threading.Thread(target=run, args=(a,)) for a in addresses]
    for t in threads: t.start()
    for t in threads: t.join()
    queue.put({"statuses": dict(statuses), "errors": dict(errors)})


def stuff(base, values_path, seconds, clients, out):
    values = json.load(open(values_path))
    seconds, clients = float(seconds), int(clients)
    addresses = [f"127.0.1.{i}" if i < 255 else f"127.0.2.{i - 254}" for i in range(1, clients + 1)]
    start = time.time()
    deadline = start + seconds
    queue = multiprocessing.Queue()
    groups = [addresses[i::4] for i in range(4)]
    workers = [multiprocessing.Process(target=stuffer, args=(base, values, deadline, g, queue)) for g in groups if g]
    for w in workers: w.start()
    url, person = urlsplit(base), []
    body = urlencode({"email": values["email"], "password": values["password"], "csrf_token": values["csrf_token"]})

    def sign_in():
        begun = time.time()
        try:
            conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60, source_address=("127.0.0.1", 0))
            status, _ = post_form(conn, url.path + "/sign_in", body, "frontdoor_csrf=" + values["csrf_cookie"])
            conn.close()
        except Exception as error:
            status = type(error).__name__
        person.append((status, time.time() - begun))

    tick, people = start, []
    while tick < deadline:
        people.append(threading.Thread(target=sign_in)); people[-1].start()
        tick += 1.0
        time.sleep(max(0.0, tick - time.time()))
    results = [queue.get() for _ in workers]
    for w in workers: w.join()
    for p in people: p.join()
    statuses, errors = Counter(), Counter()
    for r in results:
        statuses.update({int(k): v for k, v in r["statuses"].items()}); errors.update(r["errors"])
    json.dump({"seconds": seconds, "clients": clients, "statuses": statuses, "errors": errors, "person": person}, open(out, "w"))


def social_sign_in(base, provider_id):
    import requests
    browser = requests.Session()
    page = browser.get(base + "/sign_in", timeout=30)
    start = browser.post(f"{base}/auth/{provider_id}", data={"csrf_token": CSRF.search(page.text).group(1)},
                         allow_redirects=False, timeout=30)
    if start.status_code != 303:
        return start.status_code
    consent = browser.get(start.headers["Location"], allow_redirects=False, timeout=30)
    if consent.status_code == 200:
        consent = browser.post(start.headers["Location"], data={"decision": "approve"}, allow_redirects=False, timeout=30)
    if consent.status_code != 302:
        return 1000 + consent.status_code  # the provider's own failure, not frontdoor's
    done = browser.get(consent.headers["Location"], allow_redirects=False, timeout=60)
    if 300 <= done.status_code < 400:  # where it leads says how it ended: signed in, or back to the sign-in page
        return f"{done.status_code} to {urlsplit(done.headers.get('Location', '')).path}"
    return done.status_code


def mixed(base, values_path, seconds, dsn, account, out):
    import psycopg
    import requests
    values = json.load(open(values_path))
    deadline = time.time() + float(seconds)
    now = time.time()
    tickets = []
    with psycopg.connect(dsn, autocommit=True) as db:  # verified residences, as an approval leaves them
        for _ in range(3000):
            secret = secrets.token_bytes(32)
            tickets.append((secrets.token_urlsafe(16), base64.urlsafe_b64encode(secret).decode().rstrip("=")))
            db.execute("""INSERT INTO residence (id, address, normalizedAddress, secretDigest, linkDigest, state, accountId,
                          createdAt, expiresAt, verifiedAt) VALUES (%s, %s, %s, %s, %s, 'verified', %s, %s, %s, %s)""",
                       (tickets[-1][0], values["email"], values["email"].lower(), hashlib.sha256(secret).digest(),
                        secrets.token_bytes(32), int(account), now, now + 3600, now))
    counts, lock = {"password": Counter(), "social": Counter(), "residence": Counter(), "expired_seeded": Counter()}, threading.Lock()

    def count(kind, status):
        with lock: counts[kind][status] += 1

    def password():  # no cookie jar: each sign-in as a fresh browser with the one CSRF cookie
        data = {"email": values["email"], "password": values["password"], "csrf_token": values["csrf_token"]}
        while time.time() < deadline:
            try:
                r = requests.post(base + "/sign_in", data=data, cookies={"frontdoor_csrf": values["csrf_cookie"]}, allow_redirects=False, timeout=60)
                count("password", r.status_code)
            except Exception as error: count("password", type(error).__name__)

    def social():
        while time.time() < deadline:
            try: count("social", social_sign_in(base, "corp"))
            except Exception as error: count("social", type(error).__name__)

    def residence():
        while time.time() < deadline:
            with lock:
                if not tickets: return
                rid, secret = tickets.pop()
            try:
                r = requests.post(f"{base}/v1/residences/{rid}/verify", data=json.dumps({"secret": secret}), timeout=60,
                                  headers={"Content-Type": "application/json", "Accept": "application/json"})
                count("residence", r.status_code)
            except Exception as error: count("residence", type(error).__name__)

    def seeder():
        with psycopg.connect(dsn, autocommit=True) as db:
            while time.time() < deadline:
                t = time.time()
                db.execute("""INSERT INTO session (digest, accountId, createdAt, lastSeenAt, expiresAt, rememberMe, userAgent, remoteAddress)
                              SELECT decode(md5(random()::text) || md5(random()::text), 'hex'), %s, %s, %s, %s, false, 'bench expired', '127.0.0.1'
                              FROM generate_series(1, 50)""", (int(account), t - 7200, t - 7200, t - 10))
                with lock: counts["expired_seeded"]["rows"] += 50
                time.sleep(0.1)

    threads = ([threading.Thread(target=password) for _ in range(8)] + [threading.Thread(target=social) for _ in range(4)]
               + [threading.Thread(target=residence) for _ in range(4)] + [threading.Thread(target=seeder)])
    for t in threads: t.start()
    for t in threads: t.join()
    json.dump({"seconds": float(seconds), "counts": {k: {str(s): n for s, n in c.items()} for k, c in counts.items()}}, open(out, "w"))


LOCKS = """
SELECT w.pid, w.xact_start, l.locktype, l.mode, left(regexp_replace(w.query, '\\s+', ' ', 'g'), 70),
       (SELECT string_agg(left(regexp_replace(b.query, '\\s+', ' ', 'g'), 70), ' | ') FROM pg_stat_activity b
        WHERE b.pid = ANY (pg_blocking_pids(w.pid)))
FROM pg_locks l JOIN pg_stat_activity w ON w.pid = l.pid
WHERE NOT l.granted AND w.datname = current_database()
"""


def locks(dsn, seconds, out):
    import psycopg
    deadline, samples, waits = time.time() + float(seconds), 0, {}
    with psycopg.connect(dsn, autocommit=True) as db:
        while time.time() < deadline:
            for pid, started, locktype, mode, query, blockers in db.execute(LOCKS).fetchall():
                waits.setdefault((pid, str(started), query), (locktype, mode, blockers or ""))
            samples += 1
            time.sleep(0.01)
    kinds = Counter((w[0], q, w[2]) for (_, _, q), w in waits.items())
    json.dump({"samples": samples, "waits": len(waits),
               "row_waits": sum(1 for w in waits.values() if w[0] in ("transactionid", "tuple")),
               "top": [{"locktype": k[0], "waiting": k[1], "held_by": k[2], "count": n} for k, n in kinds.most_common(5)]},
              open(out, "w"))


def rtt(*dsns):
    """Prints the mean time of `SELECT 1` over each DSN, in ms (what a round trip to PostgreSQL costs through it)."""
    import psycopg
    for dsn in dsns:
        with psycopg.connect(dsn, autocommit=True) as db:
            for _ in range(20): db.execute("SELECT 1").fetchall()
            begun = time.perf_counter()
            for _ in range(300): db.execute("SELECT 1").fetchall()
            print(f"{(time.perf_counter() - begun) / 300 * 1000:.2f}")


def deadlocks(log, offset):
    """Prints, as JSON, the statements PostgreSQL's "deadlock detected" reports (its log from byte `offset` on) name,
    each with how often: which transactions' statements closed the cycles."""
    with open(log, errors="replace") as f:
        f.seek(int(offset))
        text = f.read()
    named = Counter()
    for report in text.split("ERROR:  deadlock detected")[1:]:
        detail = report.split("STATEMENT:")[0]
        found = set(re.sub(r"\s+", " ", m)[:60] for m in re.findall(r"Process \d+: ([^\n]+)", detail))
        found.update(f"(while {verb} a row of {table})" for verb, table in
                     re.findall(r'while (\w+) tuple \S+ in relation "(\w+)"', detail))  # where the victim was
        named.update(found)
    print(json.dumps([[statement, n] for statement, n in named.most_common(6)]))


def provider(redirect, out):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "e2e"))
    from oauth_provider import OAuthProvider
    server = OAuthProvider().start()
    client_id, secret = "bench-" + secrets.token_hex(4), secrets.token_urlsafe(24)
    server.add_client(client_id, secret, [redirect])
    with open(out + ".tmp", "w") as f:
        json.dump({"issuer": server.issuer, "client_id": client_id, "client_secret": secret}, f)
    os.rename(out + ".tmp", out)
    threading.Event().wait()


if __name__ == "__main__":
    {"provider": provider, "stuff": stuff, "mixed": mixed, "locks": locks, "rtt": rtt, "deadlocks": deadlocks}[sys.argv[1]](*sys.argv[2:])
