"""docs/troubleshooting.md quotes the lines an operator meets as the binary prints them: each case here makes the real
`frontdoor` fail the way a row describes and finds the line it printed, with this run's folders named as the page
names them, in one of the page's code spans. A message reworded in the code fails here until the page follows.
Each case runs on its own SQLite files (no stack, no server), whatever FRONTDOOR_E2E_BACKEND says."""
import os
import re
import subprocess

import pytest

from stack import BIN, ROOT

PAGE = ROOT / "docs/troubleshooting.md"
PASSWORD = "correct horse battery"
# This run's folders, under tmp_path, and the paths the page shows in their place.
FOLDERS = {"etc": "/etc/frontdoor", "lib": "/var/lib/frontdoor", "srv": "/srv/here", "elsewhere": "/srv/elsewhere/var",
           "backups": "/var/backups", "nosuchdir": "/run/frontdoor"}


def page_spans():
    """The text of every code span of the page."""
    return re.findall(r"`([^`]+)`", PAGE.read_text())


class Operator:
    """Runs the binary with a clean environment: the database and key under lib/, templates from the checkout."""

    def __init__(self, folder):
        self.folder = folder
        for name in FOLDERS:
            if name != "nosuchdir":
                (folder / name).mkdir()
        self.env = {"PATH": os.environ["PATH"], "HOME": str(folder), "FRONTDOOR_TEMPLATES_PATH": str(ROOT / "templates"),
                    "FRONTDOOR_DATABASE_PATH": str(folder / "lib/frontdoor.sqlite"),
                    "FRONTDOOR_SOCIAL_TOKEN_KEY_FILE": str(folder / "lib/social-tokens.key")}

    def run(self, *args, stdin="", **env):
        return subprocess.run([BIN, *args], input=stdin, capture_output=True, text=True, timeout=60, cwd=self.folder,
                              env={**self.env, **{key: value.format(tmp=self.folder) for key, value in env.items()}})

    def ok(self, *args, stdin="", **env):
        result = self.run(*args, stdin=stdin, **env)
        assert result.returncode == 0, result.stderr
        return result

    def line(self, *args, stdin="", **env):
        """The one-line complaint of a failed command, with this run's folders replaced by the page's and without
        backticks (a code span on the page cannot hold them)."""
        result = self.run(*args, stdin=stdin, **env)
        assert result.returncode != 0, result.stdout
        lines = [line for line in result.stderr.splitlines() if line.startswith(("frontdoor: ", "fastcgi: "))]
        assert lines, result.stderr
        text = lines[-1].replace("`", "")
        for name, shown in sorted(FOLDERS.items(), key=lambda item: -len(item[0])):
            text = text.replace(str(self.folder / name), shown)
        return text


def assert_documented(text, part=r"(.*)"):
    """`text` (or the group of `part` in it) is in one of the page's code spans."""
    match = re.search(part, text)
    assert match, f"{part!r} not in {text!r}"
    quoted = match.group(1)
    assert any(quoted in span for span in page_spans()), f"docs/troubleshooting.md does not quote: {quoted}"


@pytest.fixture
def operator(tmp_path):
    return Operator(tmp_path)


@pytest.fixture
def migrated(operator):
    operator.ok("migrate")
    operator.ok("user", "list")   # records the token key's check, as a first start does
    return operator


CONFIG_CASES = {
    "missing file": ([], "", {}),
    "unknown key": ([], "sesion:\n  idle_timeout: 5m\n", {}),
    "bad duration": ([], "session:\n  idle_timeout: 5x\n", {}),
    "no templates": ([], "", {"FRONTDOOR_TEMPLATES_PATH": "{tmp}/srv/templates"}),
    "short retention": ([], "", {"FRONTDOOR_RETENTION_AUDIT": "1m"}),
    "smtp without url": ([], "", {"FRONTDOOR_MAIL_TRANSPORT": "smtp"}),
    "smtp in clear": ([], "", {"FRONTDOOR_MAIL_TRANSPORT": "smtp", "FRONTDOOR_MAIL_SMTP_URL": "smtp://mail.example.com:587"}),
    "smtp password": ([], "", {"FRONTDOOR_MAIL_TRANSPORT": "smtp", "FRONTDOOR_MAIL_SMTP_URL": "smtps://u:secret@mail.example.com"}),
    "smtp ca file": ([], "", {"FRONTDOOR_MAIL_TRANSPORT": "smtp", "FRONTDOOR_MAIL_SMTP_URL": "smtps://mail.example.com:465",
                              "FRONTDOOR_MAIL_SMTP_CA_FILE": "{tmp}/etc/ca.pem"}),
    "database password": ([], "", {"FRONTDOOR_DATABASE_URL": "postgresql://frontdoor:secret@127.0.0.1/frontdoor"}),
    "database in clear": ([], "", {"FRONTDOOR_DATABASE_URL": "postgresql://frontdoor@db.example.com/frontdoor"}),
    "default language": ([], "languages:\n  available: en, fr\n  default: pt\n", {}),
    "message key": ([], "messages:\n  fr:\n    sign_in_titel: Bonjour\n", {}),
    "profile field": ([], "profile:\n  fields:\n    - name: username\n      min_length: four\n", {}),
    "provider": ([], "social:\n  providers:\n    - id: corp\n      preset: oidc\n      client_id: x\n      client_secret: y\n", {}),
    "weak argon2": ([], "", {"FRONTDOOR_PASSWORD_ARGON2_MEMORY_KIB": "1000"}),
}


@pytest.mark.parametrize("case", CONFIG_CASES)
def test_config_check_lines_are_quoted(operator, case):
    _, yaml, env = CONFIG_CASES[case]
    config = operator.folder / "etc/frontdoor.yml"
    if case != "missing file":
        config.write_text(yaml)
    assert_documented(operator.line("config", "check", "--config", str(config), **env))


def test_database_lines_are_quoted(migrated):
    assert_documented(migrated.line("user", "list", FRONTDOOR_DATABASE_PATH="{tmp}/elsewhere/frontdoor.sqlite"))
    database = migrated.folder / "lib/frontdoor.sqlite"
    database.chmod(0o644)
    assert_documented(migrated.line("user", "list"))
    database.chmod(0o600)
    (migrated.folder / "etc/db-password").write_text("secret\n")
    (migrated.folder / "etc/db-password").chmod(0o644)
    assert_documented(migrated.line("user", "list", FRONTDOOR_DATABASE_URL="postgresql://frontdoor@127.0.0.1/frontdoor",
                                    FRONTDOOR_DATABASE_PASSWORD_FILE="{tmp}/etc/db-password"))
    assert_documented(migrated.line("user", "list", FRONTDOOR_PASSWORD_BLOCKLIST_FILE="{tmp}/etc/blocklist.txt"))
    migrated.ok("backup", str(migrated.folder / "backups/frontdoor.sqlite"))
    assert_documented(migrated.line("backup", str(migrated.folder / "backups/frontdoor.sqlite")))


def test_token_key_lines_are_quoted(migrated):
    key = migrated.folder / "lib/social-tokens.key"
    kept = key.read_bytes()
    part = r"social-tokens\.key: \S+social-tokens\.key: (.*)$"   # the page writes the repeated path as …
    key.chmod(0o644)
    assert_documented(migrated.line("user", "list"), part)
    key.unlink()
    assert_documented(migrated.line("user", "list"), part)
    key.write_bytes(kept[:5])
    key.chmod(0o600)
    assert_documented(migrated.line("user", "list"), part)
    key.write_bytes(bytes(32))
    assert_documented(migrated.line("user", "list"), part)


def test_command_lines_are_quoted(migrated):
    assert_documented(migrated.line("user", "show", "bob@example.com"))
    assert_documented(migrated.line("user", "add", "bad", stdin="short\n"))
    assert_documented(migrated.line("user", "add", "x@example.com", stdin=""))
    migrated.ok("user", "add", "ann@example.com", stdin=PASSWORD + "\n")
    assert_documented(migrated.line("user", "delete", "ann@example.com"))
    assert_documented(migrated.line("invite", "create", "ann@example.com"))
    assert_documented(migrated.line("invite", "create", "zoe@example.com", FRONTDOOR_SIGNUP="closed"))
    assert_documented(migrated.line("invite", "revoke", "ann@example.com"))
    assert_documented(migrated.line("sessions", "revoke", "--id", "3f9a"))
    assert_documented(migrated.line("audit", "list", "--event", "signin"), r'^(frontdoor: unknown event "signin"; events are sign_up, sign_in, )')


def test_serve_lines_are_quoted(migrated):
    result = subprocess.run([BIN, "serve"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
                            cwd=migrated.folder, env=migrated.env)
    assert result.returncode != 0
    assert_documented(result.stderr.strip().splitlines()[-1])
    assert_documented(migrated.line("serve", "--socket", str(migrated.folder / "nosuchdir/frontdoor.sock")))


def test_the_checker_fails_on_a_line_the_page_does_not_quote():
    with pytest.raises(AssertionError, match="does not quote"):
        assert_documented("frontdoor: a line nobody wrote down")
