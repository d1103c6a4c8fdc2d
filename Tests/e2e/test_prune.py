"""Retention (issue 22): `frontdoor audit prune` deletes the audit rows and sent mail older than their retention from
the database a running stack serves and says how many went per table; `serve` prunes in the background too. Mail not
yet sent stays however old, and the /metrics totals and `user list`'s last sign-in outlive the rows they came from."""
import json
import os
import re
import subprocess
import time
from datetime import datetime

import pytest

from http_client import Browser
from stack import BIN, new_stack
from users import unique_email
from waits import wait_for

PASSWORD = "correct horse battery"
DAY = 86400


@pytest.fixture(scope="module")
def keep_stack(tmp_path_factory, request):
    """The server keeps everything (retention 0), so its own pruning never races what the commands here delete; the
    commands get their retention from the environment."""
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox",
                                                     "retention.audit": "0", "retention.sent_mail": "0"})


def run(stack, *args, env=None, stdin=""):
    return subprocess.run([BIN, *args, "--config", str(stack.config_path)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})}, input=stdin)


def prune(stack, *args, env=None):
    result = run(stack, "audit", "prune", *args, env=env)
    assert result.returncode == 0 and result.stderr == "", result
    return result.stdout.splitlines()


def refused(stack, *args, env=None):
    """The one line on stderr of a prune that exits 1."""
    result = run(stack, "audit", "prune", *args, env=env)
    assert result.returncode == 1 and result.stdout == "" and result.stderr.count("\n") == 1, result
    return result.stderr.strip()


def deleted_line(line, label, age):
    """The count in `LABEL: deleted N row(s) from before TIME`, with TIME checked to be `age` seconds ago."""
    match = re.fullmatch(rf"{label}: deleted (\d+) row\(s\) from before (\S+Z)", line)
    assert match, line
    cutoff = datetime.fromisoformat(match.group(2).replace("Z", "+00:00")).timestamp()
    assert abs(cutoff - (time.time() - age)) < 120, line
    return int(match.group(1))


def sign_ins_total(stack):
    response = Browser(stack).get("/metrics")
    assert response.status_code == 200
    return int(re.search(r"^frontdoor_sign_ins_total (\d+)$", response.text, re.M).group(1))


def account_with_history(stack):
    """A confirmed account added by the CLI that signed in and asked for a reset link (delivered); returns (email, browser)."""
    email = unique_email("pruned")
    added = run(stack, "user", "add", email, "--confirmed", stdin=PASSWORD + "\n")
    assert added.returncode == 0, added.stderr
    browser = Browser(stack)
    assert browser.post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303
    Browser(stack).post("/password/new", {"email": email})
    wait_for(lambda: stack.query("SELECT 1 FROM mailQueue WHERE recipient = ? AND sentAt IS NOT NULL", email), what="the reset mail sent")
    return email, browser


def age_rows(stack, email, days):
    """Moves the account's audit rows and its sent mail `days` back in time."""
    stack.query("UPDATE audit SET createdAt = createdAt - ? WHERE email = ?", days * DAY, email)
    stack.query("UPDATE mailQueue SET createdAt = createdAt - ?1, sentAt = sentAt - ?1 WHERE recipient = ?2", days * DAY, email)


def queue_unsent(stack, email, days_old):
    """A mail queued `days_old` days ago that has not gone out yet (its next attempt is tomorrow)."""
    now = time.time()
    stack.query("INSERT INTO mailQueue (kind, sender, recipient, recipientKey, subject, message, messageId, createdAt, attempts, "
                "nextAttemptAt, lastError) VALUES ('password_changed', 'no-reply@localhost', ?1, ?1, 'unsent', 'text', ?2, ?3, 9, ?4, "
                "'connection refused')", email, f"unsent-{email}", now - days_old * DAY, now + DAY)


def test_prune_deletes_what_is_older_than_the_retention_and_says_how_many_per_table(keep_stack):
    stack = keep_stack
    email, browser = account_with_history(stack)
    (last_sign_in,) = [a["lastSignIn"] for a in json.loads(run(stack, "user", "list", "--json").stdout) if a["email"] == email]
    assert last_sign_in
    # Given its rows 400 days old (older than the audit's 365 days and sent mail's 30), a newer audit row, and a mail
    # never sent from just as long ago
    age_rows(stack, email, 400)
    queue_unsent(stack, email, 400)
    browser.post("/sign_out", {})
    old_audit = stack.query("SELECT event FROM audit WHERE email = ? AND createdAt < ? ORDER BY id", email, time.time() - 365 * DAY)
    assert [event for (event,) in old_audit] == ["account_created", "sign_in"]
    sign_ins = sign_ins_total(stack)

    # When the operator prunes with the retention of the config (here from the environment)
    lines = prune(stack, env={"FRONTDOOR_RETENTION_AUDIT": "365d", "FRONTDOOR_RETENTION_SENT_MAIL": "30d"})

    # Then one line per table says how many rows went, and exactly those are gone
    assert len(lines) == 2, lines
    assert deleted_line(lines[0], "audit", 365 * DAY) == 2
    assert deleted_line(lines[1], "sent mail", 30 * DAY) == 1
    assert stack.query("SELECT event FROM audit WHERE email = ?", email) == [("sign_out",)]
    assert stack.query("SELECT subject, sentAt FROM mailQueue WHERE recipient = ?", email) == [("unsent", None)], "unsent mail stays"
    # And what was read from the pruned rows is still there
    assert sign_ins_total(stack) == sign_ins, "a counter never falls"
    listed = [a for a in json.loads(run(stack, "user", "list", "--json").stdout) if a["email"] == email]
    assert [a["lastSignIn"] for a in listed] == [last_sign_in]
    assert prune(stack, env={"FRONTDOOR_RETENTION_AUDIT": "365d", "FRONTDOOR_RETENTION_SENT_MAIL": "30d"})[0].startswith(
        "audit: deleted 0 row(s) from before "), "nothing left to prune"


def test_zero_keeps_forever_and_older_than_overrides_it(keep_stack):
    stack = keep_stack
    email, _ = account_with_history(stack)
    age_rows(stack, email, 100)
    assert prune(stack) == ["audit: kept forever (retention.audit is 0)", "sent mail: kept forever (retention.sent_mail is 0)"]
    assert stack.query("SELECT COUNT(*) FROM audit WHERE email = ?", email) == [(2,)]
    lines = prune(stack, "--older-than", "90d")
    assert deleted_line(lines[0], "audit", 90 * DAY) == 2 and deleted_line(lines[1], "sent mail", 90 * DAY) == 1
    assert stack.query("SELECT COUNT(*) FROM audit WHERE email = ?", email) == [(0,)]
    assert stack.query("SELECT COUNT(*) FROM mailQueue WHERE recipient = ?", email) == [(0,)]


def test_bad_ages_are_one_line_and_change_nothing(keep_stack):
    stack = keep_stack
    rows = stack.count("audit")
    assert refused(stack, "--older-than", "soon") == 'frontdoor: --older-than must be a duration such as 30m, 2h or 7d, not "soon"'
    assert refused(stack, "--older-than", "30m") == ("frontdoor: --older-than must be at least signup_limit.window (1h): the "
                                                     "sign-up limit counts the audit trail's sign-ups that far back")
    assert refused(stack, env={"FRONTDOOR_RETENTION_SENT_MAIL": "10s"}) == (
        "frontdoor: retention.sent_mail must be 0 (keep forever) or at least mail.throttle (1m): the mail throttle looks "
        "that far back (got 10s)")
    assert stack.count("audit") == rows


@pytest.mark.sqlite_only("a missing SQLite file at database.path")
def test_a_missing_database_is_one_line_and_makes_nothing(keep_stack, tmp_path):
    stack = keep_stack
    rows = stack.count("audit")
    missing = tmp_path / "elsewhere" / "frontdoor.sqlite"
    assert refused(stack, env={"FRONTDOOR_DATABASE_PATH": str(missing)}).startswith(f"frontdoor: no database at {missing} ")
    assert not missing.parent.exists(), "nothing created"
    assert stack.count("audit") == rows


def test_serve_prunes_in_the_background(tmp_path_factory, request):
    for stack in new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox",
                                                       "retention.prune_interval": "1s"}):
        email, _ = account_with_history(stack)
        queue_unsent(stack, email, 400)
        age_rows(stack, email, 400)
        wait_for(lambda: stack.query("SELECT COUNT(*) FROM audit WHERE email = ?", email) == [(0,)], what="the old audit rows pruned")
        wait_for(lambda: stack.query("SELECT subject FROM mailQueue WHERE recipient = ?", email) == [("unsent",)],
                 what="the old sent mail pruned")
        wait_for(lambda: re.search(r"audit=\d+ sent_mail=\d+ .*pruned old rows", (stack.folder / "frontdoor.log").read_text()),
                 what="the log line")
        assert stack.query("SELECT COUNT(*) FROM mailQueue WHERE recipient = ? AND sentAt IS NULL", email) == [(1,)]
