"""`frontdoor migrate` and the database's version (issue 22): `--status` lists what is pending and changes nothing,
every other command refuses an out-of-date database, `backup` copies it as it is, and `migrate` copies it before
applying anything unless told not to."""
import os
import sqlite3
import stat
import subprocess
from contextlib import closing

import pytest

from stack import BIN, ROOT

# Every test here makes its own SQLite file (test_postgres.py runs `migrate --status` on PostgreSQL).
pytestmark = pytest.mark.sqlite_only("an old SQLite file migrated, its copy before, and backup of it")

LATEST = "v18-audit-actor"
PENDING = ["v11-retention", "v12-session-notifications", "v13-address-proof", "v14-expiry-indexes", "v14-quiet-purges",
           "v14-audit-totals-at-prune", "v14-one-session-account-index", "v15-groups", "v15-usernames", "v16-second-factor", "v16-one-time-codes", "v16-passkeys",
           "v17-openid", LATEST]   # what make_old_database takes away


def frontdoor(folder, *args):
    return subprocess.run([BIN, *args, "--config", str(folder / "frontdoor.yml")], capture_output=True, text=True,
                          timeout=60, cwd=folder, input="")


def make_old_database(folder):
    """A database as the binary before the latest step left it: the step's row, table, triggers and column taken out again."""
    (folder / "frontdoor.yml").write_text(f'database:\n  path: "{folder / "frontdoor.sqlite"}"\nmail:\n  transport: outbox\n'
                                          f'templates:\n  path: "{ROOT / "templates"}"\n'
                                          f'social:\n  token_key_file: "{folder / "social.key"}"\n')
    made = frontdoor(folder, "migrate")
    assert made.returncode == 0 and made.stdout.startswith(f"created {folder / 'frontdoor.sqlite'} at {LATEST}"), made
    with closing(sqlite3.connect(folder / "frontdoor.sqlite")) as db:
        db.executemany("DELETE FROM grdb_migrations WHERE identifier = ?", [(step,) for step in PENDING])
        db.executescript("DROP TRIGGER audit_pruned; DROP TRIGGER audit_lastSignIn; DROP TABLE auditCount; "
                         "ALTER TABLE account DROP COLUMN lastSignInAt; ALTER TABLE socialIdentity DROP COLUMN unprovenBinding; "
                         "DROP INDEX emailAddress_unverified; DROP INDEX signInFailure_createdAt; DROP INDEX addressBlock_blockedUntil; "
                         "CREATE INDEX session_account ON session (accountId); DROP TABLE groupMember; DROP TABLE accountGroup; "
                         "DROP INDEX account_username; DROP INDEX account_withoutUsername; ALTER TABLE account DROP COLUMN username; "
                         "ALTER TABLE session DROP COLUMN factors; DROP TABLE secondFactorChallenge; DROP TABLE recoveryCode; "
                         "DROP TABLE oneTimeCode; DROP TABLE passkeyChallenge; DROP TABLE passkey; DROP TABLE openIDLogoutDelivery; "
                         "DROP TABLE openIDPushedRequest; DROP TABLE openIDDevice; DROP TABLE openIDConsent; DROP TABLE openIDToken; "
                         "DROP TABLE openIDCode; DROP TABLE openIDGrant; DROP TABLE openIDClient; ALTER TABLE audit DROP COLUMN actorId;")
        db.commit()


def account_columns(path):
    with closing(sqlite3.connect(path)) as db:
        return [row[1] for row in db.execute("PRAGMA table_info(account)")]


def test_status_lists_the_pending_step_and_other_commands_refuse_until_migrate_copied_and_applied_it(tmp_path):
    make_old_database(tmp_path)
    database = tmp_path / "frontdoor.sqlite"
    status = frontdoor(tmp_path, "migrate", "--status")
    assert status.returncode == 0 and status.stdout.splitlines() == [
        f"database {database} is at v10-address-group (10 applied)", *[f"pending: {step}" for step in PENDING]]
    assert "lastSignInAt" not in account_columns(database), "--status changes nothing"

    refused = frontdoor(tmp_path, "user", "list")
    assert refused.returncode == 1 and refused.stderr == \
        f"frontdoor: database {database} needs `frontdoor migrate` first (pending: {', '.join(PENDING)})\n"

    copy = tmp_path / "copy.sqlite"
    assert frontdoor(tmp_path, "backup", str(copy)).returncode == 0
    assert "lastSignInAt" not in account_columns(copy), "backup copies what is there, unmigrated"

    migrated = frontdoor(tmp_path, "migrate")
    lines = migrated.stdout.splitlines()
    assert migrated.returncode == 0 and len(lines) == 3, migrated
    assert lines[0].startswith(f"backed up {database} to {database}.before-{PENDING[0]}-") and lines[0].endswith(" bytes)")
    assert lines[1:] == [f"applied {', '.join(PENDING)}", f"database {database} is at {LATEST} (24 applied)"]
    before = next(tmp_path.glob(f"frontdoor.sqlite.before-{PENDING[0]}-*.sqlite"))
    assert stat.S_IMODE(os.stat(before).st_mode) == 0o600 and "lastSignInAt" not in account_columns(before)
    assert "lastSignInAt" in account_columns(database)
    assert frontdoor(tmp_path, "user", "list").returncode == 0
    again = frontdoor(tmp_path, "migrate")
    assert again.stdout == f"database {database} is at {LATEST} (24 applied)\n", "nothing pending: no copy, no step"
    assert len(list(tmp_path.glob("frontdoor.sqlite.before-*"))) == 1


def test_no_backup_applies_without_a_copy(tmp_path):
    make_old_database(tmp_path)
    migrated = frontdoor(tmp_path, "migrate", "--no-backup")
    assert migrated.returncode == 0 and migrated.stdout.splitlines()[0] == f"applied {', '.join(PENDING)}", migrated
    assert list(tmp_path.glob("frontdoor.sqlite.before-*")) == []
