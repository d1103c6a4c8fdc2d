"""The operator's tools (user, sessions, audit, backup) run as the real binary on the database a running stack serves
(backup and a missing database file: SQLite only)."""
import json
import os
import sqlite3
import stat
import subprocess

import pytest

from http_client import Browser
from stack import BIN, ROOT, netguard_library, new_stack
from users import unique_email

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def cli_stack(tmp_path_factory, request):
    """Confirmation off, so an account made by `user add` signs in at once."""
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox"})


def run(stack, *args, stdin=""):
    """Runs `frontdoor ARGS --config …`; stdin is never a terminal here, so a password comes as one line."""
    return subprocess.run([BIN, *args, "--config", str(stack.config_path)], input=stdin, capture_output=True, text=True, timeout=60)


def ok(stack, *args, stdin=""):
    result = run(stack, *args, stdin=stdin)
    assert result.returncode == 0, result.stderr
    return result.stdout


def fails(stack, *args, stdin="", code=1):
    """The command fails with `code`; for exit 1, with exactly one line on stderr (returned)."""
    result = run(stack, *args, stdin=stdin)
    assert result.returncode == code, (result.stdout, result.stderr)
    if code == 1:
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("frontdoor: "), result.stderr
    return result.stderr.strip()


def add_user(stack, email, password=PASSWORD):
    ok(stack, "user", "add", email, stdin=password + "\n")


def signs_in(stack, email, password=PASSWORD):
    browser = Browser(stack)
    response = browser.post("/sign_in", {"email": email, "password": password})
    return browser if response.status_code == 303 else response


def test_user_add_reads_the_password_from_stdin_and_the_account_signs_in(cli_stack):
    email = unique_email("Added")
    out = ok(cli_stack, "user", "add", email, stdin=PASSWORD + "\n")
    assert out.startswith("created account ") and email in out
    assert isinstance(signs_in(cli_stack, email.lower()), Browser)
    rows = cli_stack.query("SELECT event, userAgent, remoteAddress FROM audit WHERE email = ? AND event = 'account_created'", email)
    assert rows == [("account_created", "frontdoor-cli", "local")]
    assert PASSWORD not in cli_stack.query("SELECT passwordHash FROM account a JOIN emailAddress e ON e.accountId = a.id "
                                           "WHERE e.address = ?", email)[0][0]


def test_user_add_refuses_bad_input_with_one_line(cli_stack):
    accounts = cli_stack.count("account")
    assert fails(cli_stack, "user", "add", unique_email(), stdin="") == \
        "frontdoor: no password: type it at the prompt, or give it as one line on stdin"
    assert fails(cli_stack, "user", "add", "not-an-address", stdin="short\n") == \
        "frontdoor: Email is not a valid email address; Password is too short (minimum is 12 characters)"
    taken = unique_email()
    add_user(cli_stack, taken)
    assert fails(cli_stack, "user", "add", taken.upper(), stdin=PASSWORD + "\n") == "frontdoor: Email has already been taken"
    assert cli_stack.count("account") == accounts + 1
    assert "Usage" in fails(cli_stack, "user", "add", "--password", "x", code=64), "there is no password option"


def test_user_list_and_show(cli_stack):
    email = unique_email("listed")
    add_user(cli_stack, email)
    signs_in(cli_stack, email)
    listed = json.loads(ok(cli_stack, "user", "list", "--search", email.upper(), "--json"))
    assert len(listed) == 1
    entry = listed[0]
    assert sorted(entry) == ["confirmed", "createdAt", "email", "id", "lastSignIn", "lockedUntil", "username"]
    assert entry["username"] == email.split("@")[0]
    assert entry["email"] == email and entry["confirmed"] is False and entry["lockedUntil"] is None
    assert entry["lastSignIn"].endswith("Z") and entry["createdAt"].endswith("Z")
    table = ok(cli_stack, "user", "list")
    assert table.splitlines()[0].split() == ["ID", "EMAIL", "USERNAME", "CONFIRMED", "LOCKED", "UNTIL", "CREATED", "LAST", "SIGN-IN"]
    assert any(line.split()[:4] == [str(entry["id"]), email, entry["username"], "no"] for line in table.splitlines())
    assert len(json.loads(ok(cli_stack, "user", "list", "--limit", "1", "--json"))) == 1
    assert fails(cli_stack, "user", "list", "--limit", "0") == "frontdoor: --limit must be a positive number"

    shown = json.loads(ok(cli_stack, "user", "show", str(entry["id"]), "--json"))
    assert shown["account"]["email"] == email and shown["liveSessions"] == 1
    assert [a["address"] for a in shown["addresses"]] == [email] and shown["addresses"][0]["verifiedAt"] is None
    assert [row["event"] for row in shown["recentAudit"]] == ["sign_in", "account_created"]
    text = ok(cli_stack, "user", "show", email)
    assert f"account {entry['id']}: {email}" in text and "live sessions 1" in text and "unverified" in text
    assert f"username      {entry['username']}" in text


def test_an_unknown_account_is_one_clear_line(cli_stack):
    for args in (["user", "show", "nobody@example.com"], ["user", "lock", "nobody@example.com"], ["user", "confirm", "999999"],
                 ["user", "delete", "nobody@example.com", "--yes"], ["sessions", "list", "nobody@example.com"],
                 ["sessions", "revoke", "--account", "nobody@example.com"]):
        assert fails(cli_stack, *args).startswith("frontdoor: no account "), args
    assert fails(cli_stack, "user", "show", "nobody@example.com") == "frontdoor: no account nobody@example.com"


def test_confirm_marks_the_address_verified(cli_stack):
    email = unique_email()
    add_user(cli_stack, email)
    assert ok(cli_stack, "user", "confirm", email).strip() == f"confirmed {email}"
    assert cli_stack.query("SELECT verifiedAt IS NOT NULL FROM emailAddress WHERE address = ?", email) == [(1,)]
    assert "already confirmed" in ok(cli_stack, "user", "confirm", email)


def test_confirm_with_a_reason_and_the_links_an_operator_mails_follow_the_admin_pages_rules(cli_stack):
    email = unique_email()
    add_user(cli_stack, email)
    assert fails(cli_stack, "user", "send-reset", email) == \
        "frontdoor: The primary address is not confirmed, so no reset link was sent."
    assert ok(cli_stack, "user", "resend-confirmation", email).strip() == f"confirmation link queued for {email}"
    assert fails(cli_stack, "user", "resend-confirmation", email) == \
        "frontdoor: A mail went to that address a moment ago. Try again later."
    assert fails(cli_stack, "user", "confirm", email, "--reason", "  ") == "frontdoor: Give a reason to confirm by hand."
    assert ok(cli_stack, "user", "confirm", email, "--reason", "checked by phone").strip() == f"confirmed {email}"
    assert fails(cli_stack, "user", "resend-confirmation", email) == "frontdoor: That address has nothing to confirm."
    assert ok(cli_stack, "user", "send-reset", email).strip() == f"reset link queued for {email}"
    rows = cli_stack.records("SELECT event, detail, userAgent FROM audit WHERE email = ? AND event IN "
                             "('confirmation_sent', 'email_confirmed', 'password_reset_sent') ORDER BY id", email)
    assert [(r["event"], r["detail"], r["useragent"]) for r in rows] == [
        ("confirmation_sent", "by the operator", "frontdoor-cli"),
        ("email_confirmed", "by the operator: checked by phone", "frontdoor-cli"),
        ("password_reset_sent", "by the operator", "frontdoor-cli")]


def test_lock_refuses_the_right_password_and_unlock_lets_it_in(cli_stack):
    email = unique_email("locked")
    add_user(cli_stack, email)
    signed_in = signs_in(cli_stack, email)
    assert fails(cli_stack, "user", "lock", email, "--for", "soon") == \
        'frontdoor: --for must be a duration such as 30m, 2h or 7d, not "soon"'
    assert signed_in.get("/").status_code == 200
    out = ok(cli_stack, "user", "lock", email, "--for", "2h")
    assert signed_in.get("/").status_code == 302, "the lock ended the session"
    assert out.startswith(f"locked {email} until ")
    refused = signs_in(cli_stack, email)
    assert refused.status_code == 200 and "Invalid email or password." in refused.text
    assert json.loads(ok(cli_stack, "user", "show", email, "--json"))["account"]["lockedUntil"] is not None
    assert ok(cli_stack, "user", "unlock", email).strip() == f"unlocked {email}"
    assert isinstance(signs_in(cli_stack, email), Browser)
    events = [row["event"] for row in json.loads(ok(cli_stack, "audit", "list", "--account", email, "--json"))]
    assert events[:4] == ["sign_in", "unlock", "sign_in_failed", "lockout"]


def test_set_password_ends_sessions_and_the_new_one_signs_in(cli_stack):
    email = unique_email()
    add_user(cli_stack, email)
    browser = signs_in(cli_stack, email)
    assert browser.get("/").status_code == 200
    assert fails(cli_stack, "user", "set-password", email, stdin="short\n") == \
        "frontdoor: Password is too short (minimum is 12 characters)"
    assert browser.get("/").status_code == 200, "a refused password changes nothing"
    assert ok(cli_stack, "user", "set-password", email, stdin="a brand new secret\n").strip() == \
        f"password of {email} changed; 1 session(s) ended"
    assert browser.get("/").status_code == 302
    assert signs_in(cli_stack, email).status_code == 200
    assert isinstance(signs_in(cli_stack, email, "a brand new secret"), Browser)


def test_sessions_list_and_revoke(cli_stack):
    email = unique_email("sessions")
    add_user(cli_stack, email)
    first, second = signs_in(cli_stack, email), signs_in(cli_stack, email)
    listed = json.loads(ok(cli_stack, "sessions", "list", email, "--json"))
    assert len(listed) == 2
    assert sorted(listed[0]) == ["accountId", "createdAt", "email", "expiresAt", "id", "kind", "lastSeenAt", "rememberMe",
                                 "remoteAddress", "userAgent"]
    assert all(len(s["id"]) == 12 and s["email"] == email and s["remoteAddress"] == "127.0.0.1" and s["kind"] == "browser"
               for s in listed)
    assert any(listed[0]["id"] in line for line in ok(cli_stack, "sessions", "list").splitlines())

    assert "Usage" in fails(cli_stack, "sessions", "revoke", code=64)
    assert fails(cli_stack, "sessions", "revoke", "--id", "0000zz") == "frontdoor: no live session 0000zz"
    assert ok(cli_stack, "sessions", "revoke", "--id", listed[0]["id"]).strip() == "revoked 1 session"
    assert [first.get("/").status_code, second.get("/").status_code].count(302) == 1
    assert ok(cli_stack, "sessions", "revoke", "--account", email).strip() == f"revoked 1 session(s) of {email}"
    assert first.get("/").status_code == second.get("/").status_code == 302
    assert ok(cli_stack, "sessions", "list", email).strip() == "no live sessions"
    assert len(cli_stack.query("SELECT id FROM audit WHERE event = 'session_revoked' AND email = ?", email)) == 2


def test_audit_list_filters_and_shows_the_client_address(cli_stack):
    email = unique_email("audited")
    add_user(cli_stack, email)
    signs_in(cli_stack, email)
    rows = json.loads(ok(cli_stack, "audit", "list", "--account", email, "--event", "sign_in", "--since", "10m", "--json"))
    assert len(rows) == 1
    assert rows[0]["remoteAddress"] == "127.0.0.1" and rows[0]["email"] == email and rows[0]["event"] == "sign_in"
    assert sorted(rows[0]) == ["accountId", "actorId", "createdAt", "detail", "email", "event", "id", "remoteAddress", "userAgent"]
    assert json.loads(ok(cli_stack, "audit", "list", "--account", email, "--until", "2020-01-01T00:00:00Z", "--json")) == []
    for _ in range(2):  # with the one above, three rows from the command line, whatever other tests ran before
        add_user(cli_stack, unique_email("audited-more"))
    by_address = json.loads(ok(cli_stack, "audit", "list", "--address", "local", "--limit", "3", "--json"))
    assert len(by_address) == 3 and all(row["userAgent"] == "frontdoor-cli" for row in by_address)
    message = fails(cli_stack, "audit", "list", "--event", "sign-in")
    assert message.startswith('frontdoor: unknown event "sign-in"; events are sign_up, sign_in, sign_in_failed,')
    assert "session_revoked" in message
    assert fails(cli_stack, "audit", "list", "--since", "yesterday").startswith("frontdoor: --since must be an ISO 8601 time")


def test_delete_needs_yes_and_removes_everything_but_the_trail(cli_stack):
    email = unique_email("deleted")
    add_user(cli_stack, email)
    browser = signs_in(cli_stack, email)
    (account_id,) = cli_stack.query("SELECT accountId FROM emailAddress WHERE address = ?", email)[0]
    assert fails(cli_stack, "user", "delete", email) == f"frontdoor: deleting {email} cannot be undone; add --yes to delete it"
    assert cli_stack.query("SELECT COUNT(*) FROM account WHERE id = ?", account_id) == [(1,)]
    assert ok(cli_stack, "user", "delete", email, "--yes").strip() == f"deleted account {account_id} ({email})"
    assert browser.get("/").status_code == 302
    for table in ("emailAddress", "session"):
        assert cli_stack.query(f"SELECT COUNT(*) FROM {table} WHERE accountId = ?", account_id) == [(0,)]
    assert cli_stack.query("SELECT email FROM audit WHERE event = 'account_deleted' AND accountId = ?", account_id) == [(email,)]
    trail = json.loads(ok(cli_stack, "audit", "list", "--account", email, "--json"))
    assert trail[0]["event"] == "account_deleted", "the trail of a deleted account is still found by its address"


@pytest.mark.sqlite_only("`frontdoor backup` copies the SQLite file")
def test_backup_while_serving(cli_stack, tmp_path):
    email = unique_email("backed")
    add_user(cli_stack, email)
    signs_in(cli_stack, email)
    target = tmp_path / "copy.sqlite"
    out = ok(cli_stack, "backup", str(target)).splitlines()[0]
    assert out.startswith(f"backed up {cli_stack.db} to {target} (") and out.endswith(" bytes)")
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    with sqlite3.connect(target) as copy:
        addresses = {row[0] for row in copy.execute("SELECT address FROM emailAddress")}
        accounts = copy.execute("SELECT COUNT(*) FROM account").fetchone()[0]
    assert email in addresses and accounts == cli_stack.count("account")

    before = target.read_bytes()
    assert fails(cli_stack, "backup", str(target)) == f"frontdoor: {target} exists; give --force to replace it"
    assert target.read_bytes() == before
    add_user(cli_stack, unique_email("later"))
    assert ok(cli_stack, "backup", str(target), "--force").startswith("backed up ")
    with sqlite3.connect(target) as copy:
        assert copy.execute("SELECT COUNT(*) FROM account").fetchone()[0] == cli_stack.count("account")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.sqlite"], "the token key is kept apart, not beside"
    assert "Usage" in fails(cli_stack, "backup", code=64)


@pytest.mark.sqlite_only("`frontdoor backup` copies the SQLite file")
def test_backup_keeps_the_token_key_apart_and_both_restore(cli_stack, tmp_path):
    """The sealed provider tokens need social.token_key_file: a backup folder that held it beside each copy would hand
    them to whoever takes the backups. So `backup` writes the database only; `--token-key KEYPATH` writes the key
    (mode 0600) to another folder, and restoring the copy with the key kept apart gives a working database."""
    email = unique_email("restored")
    add_user(cli_stack, email)
    key = cli_stack.folder / "social-tokens.key"
    backups, keys = tmp_path / "backups", tmp_path / "keys"
    backups.mkdir()
    keys.mkdir(mode=0o700)
    target = backups / "copy.sqlite"
    out = ok(cli_stack, "backup", str(target)).splitlines()
    assert len(out) == 1 and out[0].startswith("backed up ") and [p.name for p in backups.iterdir()] == ["copy.sqlite"]
    assert fails(cli_stack, "backup", "--force", str(target), "--token-key", str(backups / "key")) == (
        "frontdoor: --token-key must be in another folder than the backup: whoever takes the backups would open the "
        "provider tokens with it")
    key_copy = keys / "social-tokens.key"
    out = ok(cli_stack, "backup", "--force", str(target), "--token-key", str(key_copy)).splitlines()
    assert out[1] == f"copied social.token_key_file {key} to {key_copy}"
    assert key_copy.read_bytes() == key.read_bytes() and stat.S_IMODE(os.stat(key_copy).st_mode) == 0o600
    assert [p.name for p in backups.iterdir()] == ["copy.sqlite"]
    key_copy.write_bytes(b"stale")
    assert fails(cli_stack, "backup", str(backups / "other.sqlite"), "--token-key", str(key_copy)) == (
        f"frontdoor: {key_copy} exists; give --force to replace it")
    ok(cli_stack, "backup", str(target), "--force", "--token-key", str(key_copy))
    assert key_copy.read_bytes() == key.read_bytes(), "--force replaces the key copy too"

    restored = tmp_path / "restored"
    restored.mkdir()
    (restored / "frontdoor.sqlite").write_bytes(target.read_bytes())
    os.chmod(restored / "frontdoor.sqlite", 0o600)
    (restored / "social-tokens.key").write_bytes(key_copy.read_bytes())
    os.chmod(restored / "social-tokens.key", 0o600)   # as docs/operations.md's restore says (install -m 600); frontdoor refuses more
    config = restored / "frontdoor.yml"
    config.write_text(cli_stack.config_path.read_text().replace(str(cli_stack.folder), str(restored)))
    listed = subprocess.run([BIN, "user", "list", "--search", email, "--json", "--config", str(config)], capture_output=True,
                            text=True, timeout=60)
    assert listed.returncode == 0 and [entry["email"] for entry in json.loads(listed.stdout)] == [email], listed.stderr
    assert (restored / "social-tokens.key").read_bytes() == key.read_bytes(), "the restored key is the one in use, not a new one"


def test_mail_list_keys_show_and_config_check_for_scripts(cli_stack):
    stack = cli_stack
    email = unique_email("mailjson")
    ok(stack, "invite", "create", email, "--mail")
    mails = json.loads(ok(stack, "mail", "list", "--json"))
    invitation = next(m for m in mails if m["recipient"] == email)
    assert invitation["kind"] == "invitation" and invitation["createdAt"].endswith("Z")
    assert run(stack, "mail", "list", "--limit", "-1").returncode != 0
    keys = json.loads(ok(stack, "keys", "show", "--json"))
    assert keys["issuer"] == f"127.0.0.1:{stack.port}"
    current = [k for k in keys["keys"] if k["current"]]
    assert len(current) == 1 and json.loads(current[0]["publicKey"])["algorithm"] == "RS"
    assert "privateKey" not in json.dumps(keys)
    checked = run(stack, "config", "check")
    assert checked.returncode == 0 and 'socket_mode: "0660"' in checked.stdout
    bad = subprocess.run([BIN, "config", "check"], env={**os.environ, "FRONTDOOR_SIGNUP": "maybe"}, capture_output=True, text=True)
    assert bad.returncode == 1 and "signup: must be open, invite or closed" in bad.stderr


@pytest.mark.sqlite_only("a missing SQLite file at a relative database.path")
def test_a_command_refuses_a_missing_database_instead_of_making_an_empty_one(tmp_path):
    """Issue 22: only `migrate` and `serve` create or migrate; any other command where database.path finds nothing says
    which file it looked at, in one line, and leaves no file behind. A relative database.path in the config file is in
    the file's folder, whatever folder the command runs in."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    config = tmp_path / "frontdoor.yml"
    config.write_text(f'database:\n  path: "var/frontdoor.sqlite"\nmail:\n  transport: outbox\ntemplates:\n  path: "{ROOT / "templates"}"\n'
                      f'social:\n  token_key_file: "{tmp_path / "social.key"}"\n')
    for args in (["user", "list"], ["user", "add", "someone@example.com"], ["audit", "list"], ["mail", "list"], ["keys", "show"],
                 ["backup", str(tmp_path / "copy.sqlite")]):
        result = subprocess.run([BIN, *args, "--config", str(config)], input="correct horse battery\n", capture_output=True,
                                text=True, timeout=60, cwd=folder)
        assert result.returncode == 1, (args, result.stdout, result.stderr)
        assert result.stderr == f"frontdoor: no database at {tmp_path}/var/frontdoor.sqlite (check database.path and the folder " \
                                "you run from; `frontdoor migrate` creates it)\n", args
    assert list(folder.iterdir()) == [] and not (tmp_path / "var").exists() and not (tmp_path / "copy.sqlite").exists()
    made = subprocess.run([BIN, "migrate", "--config", str(config)], capture_output=True, text=True, timeout=60, cwd=folder)
    assert made.returncode == 0 and (tmp_path / "var/frontdoor.sqlite").exists(), made.stderr
    assert list(folder.iterdir()) == []
    assert subprocess.run([BIN, "user", "list", "--config", str(config)], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path).returncode == 0, "found from any folder"


def test_a_host_with_another_token_key_is_refused_in_one_line_until_it_has_the_shared_one(cli_stack, tmp_path):
    """Issue 24: every host must hold the first host's social.token_key_file; another key, or none, is refused with one
    line that says what to do, and `keys forget-token-key` starts over on purpose."""
    def with_key(path, *args):
        env = dict(os.environ, FRONTDOOR_SOCIAL_TOKEN_KEY_FILE=str(path))
        return subprocess.run([BIN, *args, "--config", str(cli_stack.config_path)], capture_output=True, text=True,
                              timeout=60, env=env)

    other = tmp_path / "other.key"
    descriptor = os.open(other, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(descriptor, os.urandom(32))
    os.close(descriptor)
    for path, says in ((other, "holds another key than the one this database"),
                       (tmp_path / "missing.key", "missing, but this database has a token key already")):
        refused = with_key(path, "user", "list")
        assert refused.returncode == 1 and refused.stderr.count("\n") == 1 and says in refused.stderr, refused.stderr
        assert "forget-token-key" in refused.stderr
    assert not (tmp_path / "missing.key").exists(), "a host without the key makes none while one is recorded"
    assert ok(cli_stack, "user", "list") is not None, "the host with the shared key goes on"


def test_database_urls_that_leak_or_travel_in_clear_are_refused_in_one_line(tmp_path):
    """A PostgreSQL URL to another host needs sslmode=require or stronger (libpq's default `prefer` can be downgraded
    by a man in the middle), as plain smtp:// is refused; a password is caught however its keyword is spelled (libpq
    percent-decodes keywords); and a URL shown in a message hides its query values but where it connects."""
    def check(url):   # netguard: the accepted URLs' connection attempts never leave loopback, nor their name lookups
        return subprocess.run([BIN, "config", "check"], env={**os.environ, "FRONTDOOR_DATABASE_URL": url,
                                                             "FRONTDOOR_TEMPLATES_PATH": str(ROOT / "templates"),
                                                             "LD_PRELOAD": str(netguard_library())},
                              capture_output=True, text=True, timeout=60, cwd=tmp_path)
    for url in ("postgresql://frontdoor@db.example.com/frontdoor", "postgresql://frontdoor@db.example.com/frontdoor?sslmode=prefer",
                "postgresql://frontdoor@localhost/frontdoor?host=192.0.2.5", "postgresql://frontdoor@127.0.0.1,db.example.com/f"):
        refused = check(url)
        assert refused.returncode == 1 and "add sslmode=verify-full (or require)" in refused.stderr, (url, refused.stderr)
    for url in ("postgresql://frontdoor@db.example.com/frontdoor?sslmode=verify-full", "postgresql://frontdoor@127.0.0.2:5433/f",
                "postgresql://frontdoor@[::1]/f", "postgresql://frontdoor@/f?host=/run/postgresql", "postgresql:///f",
                "postgresql://frontdoor@db.example.com/f?sslmode=require"):
        accepted = check(url)   # then it connects (nothing listens there: one line saying so)
        assert "add sslmode" not in accepted.stderr and "cannot connect to" in accepted.stderr, (url, accepted.stderr)
    for url in ("postgresql://frontdoor@/f?host=/run/postgresql&pass%77ord=hunter2", "postgresql://frontdoor@/f?%70assword=hunter2"):
        leaked = check(url)
        assert leaked.returncode == 1 and "must not hold a password" in leaked.stderr and "hunter2" not in leaked.stdout + leaked.stderr
        copy = subprocess.run([BIN, "db", "copy", url, f"sqlite:{tmp_path / 'to.sqlite'}"], capture_output=True, text=True,
                              timeout=60, cwd=tmp_path)
        assert copy.returncode == 1 and "FROM must not hold a password" in copy.stderr, copy.stderr
    remote = subprocess.run([BIN, "db", "copy", "postgresql://frontdoor@db.example.com/f", f"sqlite:{tmp_path / 'to.sqlite'}"],
                            capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert remote.returncode == 1 and "FROM to another host may be read in clear" in remote.stderr, remote.stderr
    shown = subprocess.run([BIN, "db", "copy", "postgresql://frontdoor@/f?host=/nonexistent&options=-cfrontdoor.k%3Dhunter2",
                            f"sqlite:{tmp_path / 'to.sqlite'}"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert shown.returncode == 1 and "host unreachable" in shown.stderr, shown.stderr
    assert "hunter2" not in shown.stdout + shown.stderr and "host=/nonexistent&options=***" in shown.stderr
    assert not (tmp_path / "to.sqlite").exists()


@pytest.mark.sqlite_only("SQLite files and a password file named by the environment")
def test_a_database_or_password_file_others_can_read_is_refused_in_one_line(tmp_path):
    """The SQLite file holds password hashes, session digests and the BrowserID private key, and the password file
    the PostgreSQL role's password: a file others may read (made by hand, restored by cp, a pre-made db copy target) is
    refused with one line saying how to fix it, as a loose social.token_key_file is, instead of being filled."""
    env = {**os.environ, "FRONTDOOR_TEMPLATES_PATH": str(ROOT / "templates"),
           "FRONTDOOR_SOCIAL_TOKEN_KEY_FILE": str(tmp_path / "social.key"), "FRONTDOOR_MAIL_OUTBOX": str(tmp_path / "outbox")}

    def frontdoor(*args, **more):
        return subprocess.run([BIN, *args], env={**env, **more}, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    database = tmp_path / "loose.sqlite"
    made = frontdoor("migrate", FRONTDOOR_DATABASE_PATH=str(database))
    assert made.returncode == 0 and stat.S_IMODE(database.stat().st_mode) == 0o600, made.stderr
    database.chmod(0o644)
    for args in (["migrate"], ["user", "list"]):
        refused = frontdoor(*args, FRONTDOOR_DATABASE_PATH=str(database))
        assert refused.returncode == 1 and refused.stderr == (f"frontdoor: database {database}: mode 644 lets others read it; "
                                                              f"make it 600 (chmod 600 {database})\n"), (args, refused.stderr)
    target = tmp_path / "target.sqlite"
    target.touch(mode=0o644)
    target.chmod(0o644)
    copy = frontdoor("db", "copy", f"sqlite:{database}", f"sqlite:{target}")
    assert copy.returncode == 1 and "mode 644 lets others read it" in copy.stderr and target.stat().st_size == 0, copy.stderr
    database.chmod(0o640)   # a group the operator chose is theirs to decide
    assert frontdoor("user", "list", FRONTDOOR_DATABASE_PATH=str(database)).returncode == 0
    secret = tmp_path / "db-password"
    secret.write_text("hunter2\n")
    secret.chmod(0o644)
    loose = frontdoor("user", "list", FRONTDOOR_DATABASE_URL="postgresql://frontdoor@/f?host=/nonexistent",
                      FRONTDOOR_DATABASE_PASSWORD_FILE=str(secret))
    assert loose.returncode == 1 and loose.stderr == (f"frontdoor: database.password_file {secret}: mode 644 lets others read it; "
                                                      f"make it 600 (chmod 600 {secret})\n"), loose.stderr
    secret.chmod(0o600)
    tight = frontdoor("user", "list", FRONTDOOR_DATABASE_URL="postgresql://frontdoor@/f?host=/nonexistent",
                      FRONTDOOR_DATABASE_PASSWORD_FILE=str(secret))
    assert tight.returncode == 1 and "host unreachable" in tight.stderr and "hunter2" not in tight.stderr


@pytest.mark.parametrize("mode", ["open", "invite", "closed"])
def test_config_check_warns_in_one_line_when_anyone_can_sign_up_and_enter_the_protected_apps(cli_stack, mode):
    """Open sign-up with a gate that names no FRONTDOOR_ALLOW rule admits whoever makes an account: `config check` says so
    on stderr in one line with the way out, and still exits 0 with the configuration alone on stdout. Invitation-only and
    closed sign-up get no warning."""
    checked = subprocess.run([BIN, "config", "check", "--config", str(cli_stack.config_path)], capture_output=True, text=True,
                             timeout=60, env={**os.environ, "FRONTDOOR_SIGNUP": mode})
    assert checked.returncode == 0, checked.stderr
    assert f'signup: "{mode}"' in checked.stdout and "warning" not in checked.stdout
    if mode == "open":
        assert checked.stderr.count("\n") == 1 and checked.stderr.startswith("frontdoor: warning: signup is open: "), checked.stderr
        assert "FRONTDOOR_ALLOW" in checked.stderr and "set signup: invite (or closed)" in checked.stderr
    else:
        assert checked.stderr == ""
