"""A rolling upgrade on PostgreSQL: two hosts on one database behind nginx (hosts.py); host B, still on the running
binary, keeps serving while the next version's migration step is applied under it.

The step is the kind docs/install.md "Upgrading" allows while old hosts run: a nullable column added to every table (the
tables an old host reads whole included), applied with the DDL a next version's migration would run and recorded in
`schemaMigration` under a name this binary does not know. Before it, B has served each flow twice, so its pooled
connections hold their prepared statements; after it, B serves each flow again: sign-up, confirmation, a password
reminder, a sign-up of a taken address, sign-in and sign-out, a social sign-up and a social link to an existing account
(the fake provider) - every answer what it was before the step, none a 500 (a statement prepared before the step
must not fail with "cached plan must not change result type").

Also: a `frontdoor migrate` started while another process migrates waits for it (saying so), past its statement
timeout.

PostgreSQL only: SQLite has one writer file per host, not several hosts on one database.
"""
import subprocess
import time

import psycopg
import pytest

import backends
from fakeserver import serving
from hosts import CHECK_EMAIL, PASSWORD, Pair, on, relocated
from http_client import Browser, page_text
from mails import MailSink
from social import finish, social_provider_yaml, social_start, through_provider
from stack import BIN, Stack, running
from users import unique_email

pytestmark = pytest.mark.postgresql_only("hosts on one PostgreSQL database upgraded one at a time")

NEXT_STEP = "v99-rolling-upgrade-test-column"   # a name no binary knows: an old host must ignore an applied step it lacks
NAME = "Corp SSO"


@pytest.fixture(scope="module")
def sink():
    yield from serving(MailSink())


@pytest.fixture(scope="module")
def pair(tmp_path_factory, sink, oauth_server):
    """A and B: confirmation on, mail to the sink, two pool connections each (B's both see the flows before the
    step), social provider "corp" on the tests' OIDC provider."""
    folder = tmp_path_factory.mktemp("rolling")
    corp = {"id": "corp", "kind": "oidc", "name": NAME, "client_id": f"rolling-{time.time_ns()}",
            "client_secret": "rolling-secret-" + str(time.time_ns())}
    settings = {"confirmation.required": "true", **sink.settings(), "mail.throttle": "0s", "mail.retry_base": "0.2s",
                "database.pool_size": "2"}
    hosts = Pair(folder, settings, extra_yaml=social_provider_yaml(oauth_server, [corp], folder / "social-tokens.key"))
    oauth_server.add_client(corp["client_id"], corp["client_secret"], [hosts.public_url + "/account/auth/corp/callback"])
    yield from running(hosts)


def expect(answer, status, text=""):
    assert answer.status_code == status and text in page_text(answer), (answer.status_code, page_text(answer)[:600])
    return answer


def flows_on_b(pair, sink, oauth_provider):
    """Every flow the step could break, on host B only (mailed links moved to B)."""
    b = pair.b
    email = unique_email("rolling")
    browser = Browser(b)
    expect(browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}), 200, CHECK_EMAIL)
    expect(Browser(b).get(relocated(sink.link(email, "/confirm?token="), b)), 302)
    expect(Browser(b).post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}), 200,
           CHECK_EMAIL)   # a taken address: the same answer (and a mail to its owner)
    expect(Browser(b).post("/password/new", {"email": email}), 200)
    assert "/password/edit?token=" in sink.link(email, "/password/edit?token=")
    signed_in = Browser(b)
    expect(signed_in.post("/sign_in", {"email": email, "password": PASSWORD}), 303)
    assert f"Signed in as {email}" in page_text(signed_in.get("/"))
    expect(signed_in.post("/sign_out", {}), 303)

    social = unique_email("rolling-social")
    oauth_provider.next_user(sub=str(time.time_ns()), email=social, email_verified=True, name="Rolling Social")
    newcomer = Browser(b)
    callback = through_provider(newcomer, social_start(newcomer, "corp"))
    expect(finish(newcomer, relocated(callback, b)), 200, f"Welcome! Your account was created with {NAME}.")

    oauth_provider.next_user(sub=str(time.time_ns()), email=email, email_verified=True, name="Same Person")
    linking = Browser(b)
    callback = through_provider(linking, social_start(linking, "corp"))
    expect(finish(linking, relocated(callback, b)), 200, f"An account with {email} already exists here.")
    linked = expect(linking.post("/auth/link", {"password": PASSWORD}), 303)
    expect(finish(linking, linked.headers["Location"]), 200, f"{NAME} is now linked to your account.")


def test_host_b_serves_every_flow_while_a_next_version_adds_a_column(pair, sink, oauth_provider):
    for _ in range(2):
        flows_on_b(pair, sink, oauth_provider)
    tables = backends.psql(pair.database_url, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                                              "AND tablename <> 'schemamigration' ORDER BY tablename").split()
    assert {"account", "emailaddress", "socialflow", "socialpending"} <= set(tables)
    backends.psql(pair.database_url, "BEGIN; " + "".join(f"ALTER TABLE {table} ADD COLUMN nextVersionNote text; "
                                                         for table in tables)
                  + f"INSERT INTO schemaMigration (identifier, appliedAt) VALUES ('{NEXT_STEP}', "
                    "extract(epoch FROM now())); COMMIT")
    for _ in range(2):
        flows_on_b(pair, sink, oauth_provider)
    assert "cached plan" not in pair.b.logs()


MIGRATION_LOCK = int.from_bytes(b"Frontdor", "big")   # PostgresMigrations.lockKey


def test_migrate_waits_for_another_migration_past_the_statement_timeout_and_says_so(tmp_path):
    """A second `frontdoor migrate` (or a host's first start) while another process holds the migration lock: it waits,
    says so on stderr, and applies every step once the lock is released - even after longer than its statement timeout
    (1 s here), which is where it used to fail."""
    url = backends.new_database()
    stack = Stack(tmp_path, {"database.url": url, "database.statement_timeout": "1s"})   # its config only: never started
    holder = psycopg.connect(url, autocommit=True)
    holder.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    migrate = subprocess.Popen([BIN, "migrate", "--config", str(stack.config_path)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        first = migrate.stderr.readline()
        assert "another process is migrating" in first, first + migrate.stderr.read()
        time.sleep(1.5)   # past the statement timeout: the wait must not be cut by it (what is tested, not a sync)
        assert migrate.poll() is None, migrate.stderr.read()
    finally:
        holder.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
        holder.close()
    out, err = migrate.communicate(timeout=120)
    assert migrate.returncode == 0 and "applied v1-accounts-sessions" in out, (out, err)
