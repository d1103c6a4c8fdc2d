"""`frontdoor db copy` (issue 23) end to end: a stack on SQLite where a person signs up, is confirmed and stays signed
in, gets a BrowserID certificate, and whose confirmation mail stays queued (SMTP to a port nobody listens on yet);
the stack stops, `db copy` fills a PostgreSQL database in a private cluster (scripts/pg-cluster, a folder of its own
directly in /tmp), and the same stack, its config changed only in database.url, serves from PostgreSQL: the same
browser cookie is still signed in, the old certificate still verifies at POST /verify, the queued mail goes out once
(the SMTP sink now listens on that port), new rows get fresh ids. Then the refusals, one line each: a target that is
not empty, an out-of-date or missing source, an unknown table, an unreachable server, a password in a URL."""
import json
import shutil
import sqlite3
import subprocess
import time
from contextlib import closing

import pytest
import requests
from browserid import jwt
from browserid.tests.support import get_keypair

from backends import create_database, psql, remove_cluster, start_cluster
from http_client import Browser
from mails import MailSink
from stack import BIN, Stack
from users import unique_email
from waits import wait_for

PASSWORD = "correct horse battery"
AUD = "https://rp.example.com"


@pytest.fixture(scope="module")
def cluster():
    folder, url = start_cluster("frontdoor-e2e-copy-")
    yield url
    remove_cluster(folder)


def new_database(server):
    return create_database(server, "copy_")


def frontdoor(*args, config=None):
    extra = ["--config", str(config)] if config else []
    return subprocess.run([BIN, *args, *extra], capture_output=True, text=True, timeout=300)


def sqlite_rows(path, sql):
    with closing(sqlite3.connect(path, timeout=60)) as db:
        return db.execute(sql).fetchall()


def test_a_sqlite_install_copied_to_postgresql_keeps_sessions_certificates_and_queued_mail(tmp_path_factory, cluster):
    sink = MailSink()   # its port is in the config from the start; nothing listens there until the PostgreSQL stack runs
    folder = tmp_path_factory.mktemp("copy")
    stack = Stack(folder, {
        # SQLite, named: under `make e2e-postgres` a stack without a database of its own would get a PostgreSQL one.
        "database.path": str(folder / "frontdoor.sqlite"),
        **sink.settings(),
        "mail.retry_base": "1s", "browserid.legacy_algorithms": "DS128, RS128"})
    email = unique_email("copy")
    browser = Browser(stack)
    try:
        stack.start()
        signed_up = browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
        assert signed_up.status_code == 200 and "We have sent a message" in signed_up.text, signed_up.text[-3000:]
        confirm = frontdoor("user", "confirm", email, config=stack.config_path)
        assert confirm.returncode == 0, confirm.stderr
        assert browser.post("/sign_in", {"email": email, "password": PASSWORD, "remember_me": "1"}).status_code == 303
        assert email in browser.get("/settings").text
        public, private = get_keypair(email)
        certified = browser.post("/browserid/certify", {"email": email, "pubkey": json.dumps(public), "ephemeral": "false"})
        assert certified.status_code == 200, certified.text
        assertion = certified.json()["certificate"] + "~" + jwt.generate({"aud": AUD, "exp": int((time.time() + 600) * 1000)}, private)
        assert verify(stack, assertion)["status"] == "okay"
        # The confirmation mail was tried and refused (nobody listens yet): queued, not sent.
        wait_for(lambda: sqlite_rows(stack.db, "SELECT COUNT(*) FROM mailQueue WHERE sentAt IS NULL AND attempts > 0")[0][0] >= 1,
                 what="a failed delivery attempt")
    finally:
        stack.stop()
    queued = sqlite_rows(stack.db, "SELECT messageId, recipient FROM mailQueue WHERE sentAt IS NULL ORDER BY id")
    assert queued and all(recipient == email for _, recipient in queued)
    before = {table: sqlite_rows(stack.db, f"SELECT COUNT(*) FROM {table}")[0][0]
              for table in ("account", "session", "signingKey", "audit", "auditCount", "mailQueue", "serverSecret")}
    audit_counts = dict(sqlite_rows(stack.db, "SELECT event, total FROM auditCount"))
    last_sign_in = sqlite_rows(stack.db, "SELECT lastSignInAt FROM account")[0][0]

    target = new_database(cluster)
    copied = frontdoor("db", "copy", f"sqlite:{stack.db}", target, config=stack.config_path)
    assert copied.returncode == 0, copied.stderr
    assert "copied" in copied.stdout.splitlines()[-1] and "every table's count checked" in copied.stdout
    assert f"session: {before['session']} rows" in copied.stdout and f"account: {before['account']} rows" in copied.stdout
    for table, rows in before.items():
        assert psql(target, f"SELECT COUNT(*) FROM {table}") == str(rows), table
    assert dict(line.split("|") for line in psql(target, "SELECT event, total FROM auditCount").splitlines()) == \
        {event: str(total) for event, total in audit_counts.items()}   # copied, not counted again by the trigger
    assert float(psql(target, "SELECT lastSignInAt FROM account")) == last_sign_in

    # The same stack, only database.url changed; the SQLite file moved away, so nothing can read it.
    stack.config_path.write_text(stack.config_path.read_text().replace("database:\n", f'database:\n  url: "{target}"\n', 1))
    stack.db.rename(stack.db.with_suffix(".copied"))
    sink.start()
    try:
        stack.start()
        assert email in browser.get("/settings").text   # the same cookie, still signed in
        assert verify(stack, assertion)["status"] == "okay"   # the certificate issued on SQLite, checked with the copied key
        # The sink keeps a message before it answers 250, and sentAt is set after that answer.
        wait_for(lambda: psql(target, "SELECT COUNT(*) FROM mailQueue WHERE sentAt IS NULL") == "0", what="the queue sent")
        again = frontdoor("mail", "retry", config=stack.config_path)
        assert again.returncode == 0 and "sent 0" in again.stdout, again.stdout + again.stderr
        delivered = [m["message"]["Message-ID"].strip("<>").split("@")[0] for m in sink.messages]   # <messageId@mail.from's domain>
        assert delivered == [message_id for message_id, _ in queued]   # each queued mail once, no second copy
        newcomer = unique_email("fresh")
        assert Browser(stack).post("/sign_up", {"email": newcomer, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 200
        assert int(psql(target, f"SELECT accountId FROM emailAddress WHERE normalizedAddress = '{newcomer.lower()}'")) > before["account"]
    finally:
        stack.stop()
        sink.stop()

    refused = frontdoor("db", "copy", f"sqlite:{stack.db.with_suffix('.copied')}", target, config=stack.config_path)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1 and "not empty" in refused.stderr, refused.stderr


def verify(stack, assertion):
    return requests.post(stack.base + "/verify", data={"assertion": assertion, "audience": AUD}, timeout=30).json()


def one_line_failure(result, *words):
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr.count("\n") == 1 and all(word in result.stderr for word in words), result.stderr
    return result.stderr


def test_every_refusal_is_one_line_and_writes_nothing(tmp_path, cluster):
    good = tmp_path / "good.sqlite"
    one_line_failure(frontdoor("db", "copy", f"sqlite:{tmp_path / 'missing.sqlite'}", new_database(cluster)), "no database at")
    config = tmp_path / "frontdoor.yml"
    config.write_text(f'database:\n  path: "{good}"\n')
    assert frontdoor("migrate", config=config).returncode == 0
    # An empty database copies too (TO migrated by the copy), and a missing SQLite TO is made.
    empty = new_database(cluster)
    first = frontdoor("db", "copy", f"sqlite:{good}", empty)
    assert first.returncode == 0 and "copied 0 rows in 32 tables" in first.stdout, first.stderr
    back = frontdoor("db", "copy", empty, f"sqlite:{tmp_path / 'new.sqlite'}")
    assert back.returncode == 0 and (tmp_path / "new.sqlite").stat().st_mode & 0o077 == 0, back.stderr
    # Out of date: a step missing from the source.
    old = tmp_path / "old.sqlite"
    shutil.copy(good, old)
    with closing(sqlite3.connect(old)) as db, db:
        db.execute("DELETE FROM grdb_migrations WHERE identifier = 'v11-retention'")
    one_line_failure(frontdoor("db", "copy", f"sqlite:{old}", new_database(cluster)), "needs `frontdoor migrate` first", "v11-retention")
    # A table the copy does not know.
    stranger = tmp_path / "stranger.sqlite"
    shutil.copy(good, stranger)
    with closing(sqlite3.connect(stranger)) as db, db:
        db.execute("CREATE TABLE pluginData (id INTEGER PRIMARY KEY)")
    fresh = new_database(cluster)
    one_line_failure(frontdoor("db", "copy", f"sqlite:{stranger}", fresh), "does not know: pluginData")
    assert psql(fresh, "SELECT COUNT(*) FROM account") == "0"
    # Unreachable, a password in the URL (never printed), and a URL of neither kind.
    one_line_failure(frontdoor("db", "copy", f"sqlite:{good}", fresh.replace("host=", "host=/nonexistent")), "host unreachable")
    leaked = one_line_failure(frontdoor("db", "copy", f"sqlite:{good}", fresh.replace("frontdoor@", "frontdoor:hunter2@")),
                              "must not hold a password", "--to-password-file")
    assert "hunter2" not in leaked
    one_line_failure(frontdoor("db", "copy", str(good), fresh), "FROM must be sqlite:PATH or postgresql://")
    one_line_failure(frontdoor("db", "copy", f"sqlite:{good}", fresh, "--to-password-file", str(tmp_path / "nope")),
                     "cannot read --to-password-file")
