"""Several hosts on one PostgreSQL (issue 24): two frontdoor processes, A and B, each with its own socket, folder and
config (same public_url, database and mail settings) behind one nginx that serves an upstream over both sockets and
each host on its own port (hosts.py). What one host does, the other sees:

- an account signed up on A, confirmed by the mailed link on B, signed in on A, passes B's gate (auth_request);
- revocation on A (sign-out, sign-out everywhere else, password reset, deletion, `frontdoor sessions revoke` and
  `frontdoor user lock` with A's config) shuts B's gate within 1 s, measured (the figures go to the run's summary);
- failed sign-ins spread over A and B lock the account at lockout.max_failures (in turns, and all at once);
- a reset link mailed by A is redeemed on B; one link redeemed on A and B at once has one winner;
- a BrowserID certificate from A verifies on B; a key rotated on A signs B's next certificate;
- a social sign-in started on A is called back on B (and the other way round);
- mail queued on both hosts while SMTP is down is delivered once when it is back;
- kill -9 of A under sign-ups through the upstream and through B: every acknowledged sign-up is stored, B answers
  throughout, A restarts and serves.

PostgreSQL only (postgresql_only: `make e2e` deselects it, `make e2e-postgres` runs it): the hosts' database is a new
one in the PostgreSQL pass's session cluster (backends.new_database), as every stack of that pass gets; nothing here
stops or kills PostgreSQL itself, so a cluster of the module's own would cost an initdb and test nothing more.
"""
import threading
import time
from collections import Counter

import requests
import pytest
from browserid import jwt
from browserid.tests.support import get_keypair

from fakeserver import serving
from http_client import Browser, page_text
from mails import MailSink
from social import finish, social_provider_yaml, social_start, through_provider
from stack import running
from summary import SUMMARY
from users import unique_email
from waits import wait_for
from faults import half_written, kill_app, restart_app
from hosts import (CHECK_EMAIL, FAILED, PASSWORD, REVOCATIONS, Pair, account_of, confirmed, gate, message_ids, on,
                   refused, relocated, reset_form, reset_token, revocation_delay, run_cli, sign_up, signed_in, unsent)
from test_browserid_verify import backed_assertion, certify, payload, verify
from test_races import at_once

pytestmark = pytest.mark.postgresql_only("two hosts share one PostgreSQL database (issue 24)")

MAX_FAILURES = 4          # lockout.max_failures of the hosts (not the default 5, so the count is the configured one)
REVOCATION_LIMIT = 1.0    # seconds: issue 24's bound for revocation on every host
DELAYS = {}               # revocation kind -> (seconds, polls), printed in one line at the end of the module


def cache_hits(target):
    """`frontdoor_session_cache_hits_total` of the host behind `target` (its /metrics, read from loopback)."""
    text = requests.get(target.base + "/metrics", timeout=30).text
    return next(float(line.split()[1]) for line in text.splitlines() if line.startswith("frontdoor_session_cache_hits_total "))


@pytest.fixture(scope="module")
def sink():
    """The hosts' SMTP server (aiosmtpd; stop() and start() keep its port, closed meanwhile)."""
    yield from serving(MailSink())


@pytest.fixture(scope="module")
def hosts(tmp_path_factory, sink, oauth_server):
    """A and B: confirmation on, SMTP to the sink (retries after 0.2 s, no throttle), an account locked after
    MAX_FAILURES failures for an hour (no address block), DS128 user keys accepted, social provider "corp" on the
    tests' OIDC provider (its token key file shared, as an operator copies it to every host)."""
    folder = tmp_path_factory.mktemp("hosts")
    corp = {"id": "corp", "kind": "oidc", "name": "Corp SSO", "client_id": f"hosts-{time.time_ns()}",
            "client_secret": "hosts-secret-" + str(time.time_ns())}
    settings = {"confirmation.required": "true", **sink.settings(), "mail.throttle": "0s", "mail.retry_base": "0.2s",
                "lockout.max_failures": str(MAX_FAILURES), "lockout.duration": "1h", "lockout.address_max_failures": "0",
                "browserid.legacy_algorithms": "DS128"}   # PyBrowserID's user keys (get_keypair) are DS128
    pair = Pair(folder, settings, extra_yaml=social_provider_yaml(oauth_server, [corp], folder / "social-tokens.key"))
    oauth_server.add_client(corp["client_id"], corp["client_secret"], [pair.public_url + "/account/auth/corp/callback"])
    try:
        yield from running(pair)   # started, listed in STACKS for failure reports, stopped, checked to stay on loopback
    finally:
        if DELAYS:
            line = "revocation delay across hosts (A acts, B's gate refuses): " + ", ".join(
                f"{kind} {seconds * 1000:.0f} ms" for kind, (seconds, _) in DELAYS.items())
            SUMMARY.append(line)
            print("\n" + line)


def test_signed_up_on_a_confirmed_on_b_signed_in_on_a_passes_the_gate_on_b(hosts, sink):
    email = unique_email("hosts")
    browser = Browser(hosts.a)
    form_from_b = on(browser, hosts.b).token("/sign_up")   # the CSRF key is shared: B's form token is good on A
    answer = browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD,
                                       "csrf_token": form_from_b})
    assert answer.status_code == 200 and CHECK_EMAIL in answer.text
    link = sink.link(email, "/confirm?token=")
    assert link.startswith(hosts.public_url + "/account/confirm?token="), "mail links name the public URL"
    early = Browser(hosts.a).post("/sign_in", {"email": email, "password": PASSWORD})
    assert early.status_code == 200 and "You have to confirm your email address" in page_text(early)
    confirm = Browser(hosts.b).get(relocated(link, hosts.b))
    assert confirm.status_code == 302 and confirm.headers["Location"] == "/account/sign_in"
    assert hosts.store.query("SELECT verifiedAt IS NOT NULL FROM emailAddress WHERE normalizedAddress = ?",
                             email.lower()) == [(True,)]
    browser = signed_in(hosts.a, email)
    token = browser.cookie("frontdoor_session")
    for target in (hosts.b, hosts.a, hosts.front):
        assert gate(target, token) == 200, target.name
    assert f"Signed in as {email}" in page_text(on(browser, hosts.b).get("/"))
    assert gate(hosts.b, "x" * 43) == 401 and gate(hosts.b, "") == 401


@pytest.mark.parametrize("kind", list(REVOCATIONS))
def test_revocation_on_a_shuts_the_gate_on_b_within_a_second(hosts, sink, kind):
    email = confirmed(hosts, sink)
    token, act = REVOCATIONS[kind](hosts, sink, email)
    hits = cache_hits(hosts.b)
    assert gate(hosts.b, token) == 200 and gate(hosts.b, token) == 200
    assert cache_hits(hosts.b) > hits, "B answers from its own cache, so the revocation must reach it by NOTIFY"
    seconds, polls = revocation_delay(hosts.b, token, act)
    DELAYS[kind] = (seconds, polls)
    print(f"revocation delay {kind}: {seconds * 1000:.0f} ms ({polls} polls of B's gate)")
    assert seconds < REVOCATION_LIMIT, f"{kind}: B's gate let the session through for {seconds:.3f} s"
    for target in (hosts.b, hosts.a, hosts.front):
        assert gate(target, token) == 401, target.name


def test_failed_sign_ins_in_turns_on_a_and_b_lock_at_the_configured_count(hosts, sink):
    email = confirmed(hosts, sink)
    account = account_of(hosts, email)
    for failure in range(MAX_FAILURES - 1):
        assert refused(hosts.hosts[failure % 2], email, "wrong password!")
        assert hosts.store.query("SELECT lockedUntil FROM account WHERE id = ?", account) == [(None,)], failure + 1
    assert refused(hosts.hosts[(MAX_FAILURES - 1) % 2], email, "wrong password!")
    assert hosts.store.query("SELECT lockedUntil > ? FROM account WHERE id = ?", time.time() + 1800, account) == [(True,)]
    assert refused(hosts.a, email, PASSWORD) and refused(hosts.b, email, PASSWORD), "locked on both hosts"
    assert hosts.store.query("SELECT COUNT(*) FROM audit WHERE event = 'lockout' AND accountId = ?", account) == [(1,)]


def test_failed_sign_ins_at_once_on_a_and_b_lock_once(hosts, sink):
    email = confirmed(hosts, sink)
    account = account_of(hosts, email)
    tries = [Browser(hosts.hosts[i % 2]) for i in range(2 * MAX_FAILURES)]
    tokens = [browser.token("/sign_in") for browser in tries]
    answers = at_once(*[lambda b=b, t=t: b.post("/sign_in", {"email": email, "password": "wrong password!", "csrf_token": t})
                        for b, t in zip(tries, tokens)])
    assert all(answer.status_code == 200 and FAILED in page_text(answer) for answer in answers)
    assert hosts.store.query("SELECT lockedUntil IS NOT NULL FROM account WHERE id = ?", account) == [(True,)]
    assert hosts.store.query("SELECT COUNT(*) FROM audit WHERE event = 'lockout' AND accountId = ?", account) == [(1,)]
    assert refused(hosts.a, email, PASSWORD) and refused(hosts.b, email, PASSWORD)


def test_a_reset_link_mailed_by_a_is_redeemed_on_b(hosts, sink):
    email = confirmed(hosts, sink)
    token = reset_token(hosts, sink, email)
    browser = Browser(hosts.b)
    assert browser.get("/password/edit?token=" + token).status_code == 200
    answer = browser.post("/password/edit", reset_form(browser, token, "reset on host b"))
    assert answer.status_code == 303 and gate(hosts.a, browser.cookie("frontdoor_session")) == 200
    assert refused(hosts.a, email, PASSWORD) and isinstance(signed_in(hosts.a, email, "reset on host b"), Browser)
    late = Browser(hosts.a)
    again = late.post("/password/edit", {"token": token, "password": "used twice, refused", "password_confirmation":
                                         "used twice, refused", "csrf_token": late.token("/sign_in")})
    assert again.status_code == 200 and "The password reset link is invalid" in page_text(again)


def test_one_reset_link_raced_on_a_and_b_has_one_winner(hosts, sink):
    for _ in range(3):
        email = confirmed(hosts, sink)
        token = reset_token(hosts, sink, email)
        browsers = [Browser(hosts.a), Browser(hosts.b)]
        forms = [reset_form(browser, token, f"winner on host {host}") for browser, host in zip(browsers, "ab")]
        answers = at_once(*[lambda b=b, f=f: b.post("/password/edit", f) for b, f in zip(browsers, forms)])
        assert sorted(answer.status_code for answer in answers) == [200, 303], [a.status_code for a in answers]
        winner = next(i for i, answer in enumerate(answers) if answer.status_code == 303)
        assert "The password reset link is invalid" in page_text(answers[1 - winner])
        assert browsers[1 - winner].cookie("frontdoor_session") is None
        assert gate(hosts.b, browsers[winner].cookie("frontdoor_session")) == 200
        assert isinstance(signed_in(hosts.hosts[1 - winner], email, forms[winner]["password"]), Browser)
        assert refused(hosts.a, email, forms[1 - winner]["password"])
        assert hosts.store.query("SELECT COUNT(*) FROM audit WHERE event = 'password_reset' AND accountId = ?",
                                 account_of(hosts, email)) == [(1,)]


def test_a_certificate_from_a_verifies_on_b_and_a_key_rotated_on_a_signs_on_b(hosts, sink):
    email = confirmed(hosts, sink)
    on_a = signed_in(hosts.a, email)
    on_b = on(on_a, hosts.b)
    public, private = get_keypair(email)
    answer = certify(on_a, email, public)
    assert answer.status_code == 200, answer.text
    first = answer.json()["certificate"]
    issuer = hosts.public_url.split("//", 1)[1]
    assert payload(first)["iss"] == issuer and payload(first)["principal"]["email"] == email
    checked = verify(hosts.b, backed_assertion(first, private)).json()
    assert checked["status"] == "okay" and checked["email"] == email and checked["issuer"] == issuer, checked

    document = lambda host: on_b.session.get(host.origin + "/.well-known/browserid", timeout=30).json()  # noqa: E731
    old_key = document(hosts.b)["public-key"]
    assert document(hosts.a)["public-key"] == old_key and jwt.parse(first).check_signature(old_key)
    from_b = certify(on_b, email, public).json()["certificate"]   # B signs too (with its view of the current key)
    assert jwt.parse(from_b).check_signature(old_key)
    rotated = run_cli(hosts.a, "keys", "rotate")
    assert rotated.returncode == 0 and "now current" in rotated.stdout, rotated.stderr
    new_key = document(hosts.b)["public-key"]
    assert new_key != old_key and document(hosts.b)["keys"] == [new_key, old_key] == document(hosts.a)["keys"]
    answer = certify(on_b, email, public)
    assert answer.status_code == 200, answer.text
    second = answer.json()["certificate"]
    assert jwt.parse(second).check_signature(new_key), "B signs with the key rotated in on A"
    assert not jwt.parse(second).check_signature(old_key)
    for certificate in (first, second):
        for host in hosts.hosts:
            assert verify(host, backed_assertion(certificate, private)).json()["status"] == "okay"


@pytest.mark.parametrize("start, back", [("a", "b"), ("b", "a")])
def test_a_social_sign_in_started_on_one_host_is_called_back_on_the_other(hosts, oauth_provider, start, back):
    email = unique_email("social")
    oauth_provider.next_user(sub=str(time.time_ns()), email=email, email_verified=True, name="Two Hosts")
    first, second = getattr(hosts, start), getattr(hosts, back)
    for welcome in ("Welcome! Your account was created with Corp SSO.", "Signed in successfully."):
        browser = Browser(first)
        callback = through_provider(browser, social_start(browser, "corp"))
        assert callback.startswith(hosts.public_url + "/account/auth/corp/callback?"), callback
        landing = finish(on(browser, second), relocated(callback, second))
        assert landing.status_code == 200 and welcome in page_text(landing), page_text(landing)[:800]
        assert f"Signed in as {email}" in page_text(landing)
        assert gate(first, browser.cookie("frontdoor_session")) == 200
    account = account_of(hosts, email)
    assert hosts.store.query("SELECT COUNT(*) FROM socialIdentity WHERE accountId = ? AND provider = 'corp'", account) == [(1,)]


def test_mail_queued_on_both_hosts_while_smtp_is_down_is_delivered_once(hosts, sink):
    reminded = [confirmed(hosts, sink) for _ in range(2)]
    wait_for(lambda: unsent(hosts) == 0, what="an empty queue before the outage")
    first_id = hosts.store.query("SELECT COALESCE(MAX(id), 0) + 1 FROM mailQueue")[0][0]
    received_before = len(message_ids(sink))
    sink.stop()   # the port is closed: every delivery fails to connect
    try:
        signed_up = [sign_up(Browser(host)) for host in hosts.hosts for _ in range(3)]
        for host, email in zip(hosts.hosts, reminded):
            assert Browser(host).post("/password/new", {"email": email}).status_code == 200
        expected = {(email.lower(), "confirmation") for email in signed_up} | \
                   {(email.lower(), "password_reset") for email in reminded}
        queued = hosts.store.query("SELECT recipientKey, kind, messageId FROM mailQueue WHERE id >= ?", first_id)
        assert sorted((r, k) for r, k, _ in queued) == sorted(expected)
        wait_for(lambda: hosts.store.query("SELECT MIN(attempts) FROM mailQueue WHERE id >= ?", first_id)[0][0] >= 2,
                 what="two failed tries of every queued mail")
        assert unsent(hosts) == len(expected) and len(message_ids(sink)) == received_before
    finally:
        sink.start()   # the same port again
    ids = {message_id for _, _, message_id in queued}
    wait_for(lambda: ids <= set(message_ids(sink)) and unsent(hosts) == 0, what="every queued mail delivered")
    counts = Counter(message_ids(sink))
    assert [i for i, n in counts.items() if n > 1] == [], "a mail was delivered twice"
    sent = [message_id for (message_id,) in hosts.store.query("SELECT messageId FROM mailQueue")]
    assert sorted(counts) == sorted(sent), "the sink got exactly the queued mails, from whichever host"
    email = signed_up[0]
    assert Browser(hosts.b).get(relocated(sink.link(email, "/confirm?token="), hosts.b)).status_code == 302
    assert isinstance(signed_in(hosts.a, email), Browser)


def test_kill_9_of_a_under_sign_ups_loses_no_acknowledged_one_and_b_answers_throughout(hosts, sink):
    """Three clients sign up through the upstream, three through B, two straight at A (so A is busy when it dies: the
    kill comes while one of theirs is being sent or answered). A's clients stop at their first answer that is not a
    sign-up; the others go on until both the upstream and B have acknowledged three sign-ups sent after A was gone."""
    log, lock, stop, failures, busy_on_a, killed = [], threading.Lock(), threading.Event(), [], [0], {}

    def client(target, index):
        try:
            while not stop.is_set():
                email, sent = unique_email(f"kill-{target.name}{index}"), time.monotonic()
                with lock:
                    busy_on_a[0] += target is hosts.a
                answer = Browser(target).post("/sign_up", {"email": email, "password": PASSWORD,
                                                           "password_confirmation": PASSWORD})
                ok = answer.status_code == 200 and CHECK_EMAIL in answer.text
                with lock:
                    busy_on_a[0] -= target is hosts.a
                    log.append((target.name, email, sent, time.monotonic(), answer.status_code, ok))
                if target is hosts.a and not ok:
                    return
        except BaseException as error:  # noqa: B036 - reported by the test's thread
            failures.append((target.name, repr(error)))

    def acknowledged(name, after=0.0):
        with lock:
            return [entry for entry in log if entry[5] and entry[0] == name and entry[2] > after]

    threads = [threading.Thread(target=client, args=(target, i), daemon=True)
               for target, count in ((hosts.front, 3), (hosts.b, 3), (hosts.a, 2)) for i in range(count)]
    for thread in threads:
        thread.start()
    try:
        wait_for(lambda: sum(len(acknowledged(name)) for name in ("front", "B", "A")) >= 8 and busy_on_a[0] or failures,
                 timeout=120, what="sign-ups before the kill, and one in flight on A")
        killed["at"] = time.monotonic()
        kill_app(hosts.a)
        killed["gone"] = time.monotonic()
        wait_for(lambda: (len(acknowledged("front", killed["gone"])) >= 3 and len(acknowledged("B", killed["gone"])) >= 3)
                 or failures, what="sign-ups through the upstream and B after the kill")
    finally:
        stop.set()
        for thread in threads:
            thread.join(120)
    assert not failures, failures
    entries = list(log)
    b_answers = [status for name, _, _, _, status, _ in entries if name == "B"]
    assert b_answers and all(200 <= status < 400 for status in b_answers), Counter(b_answers)
    after_kill = [(status, ok) for name, _, sent, _, status, ok in entries if name == "front" and sent > killed["gone"]]
    assert after_kill and all(ok for _, ok in after_kill), Counter(after_kill)
    acknowledged_emails = [email for _, email, _, _, _, ok in entries if ok]
    for email in acknowledged_emails:
        assert hosts.store.query(
            "SELECT COUNT(*) FROM account a JOIN emailAddress e ON e.accountId = a.id "
            "WHERE e.normalizedAddress = ? AND e.isPrimary", email.lower()) == [(1,)], email
    assert half_written(hosts.a) == [], "a sign-up cut by the kill is there whole or not at all"
    in_flight = [status for name, _, sent, answered, status, _ in entries if sent < killed["at"] < answered]
    print(f"kill -9 of A: {len(entries)} sign-ups sent, {len(acknowledged_emails)} acknowledged and stored, "
          f"{len(after_kill)} through the upstream after the kill (all served by B), in flight at the kill {in_flight}, "
          f"statuses {dict(Counter(entry[4] for entry in entries))}")

    restart_app(hosts.a)
    email = sign_up(Browser(hosts.a))
    assert Browser(hosts.a).get(relocated(sink.link(email, "/confirm?token="), hosts.a)).status_code == 302
    browser = signed_in(hosts.a, email)
    assert gate(hosts.a, browser.cookie("frontdoor_session")) == 200 == gate(hosts.b, browser.cookie("frontdoor_session"))
