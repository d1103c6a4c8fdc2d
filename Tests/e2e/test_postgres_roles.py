"""Two PostgreSQL roles, as docs/several-hosts.md ("Two roles") sets them up: an owner runs `frontdoor migrate`, and
`frontdoor serve` runs as a runtime role with only SELECT/INSERT/UPDATE/DELETE on the tables and USAGE on the
sequences (no CREATE), signing people up, in and out through nginx.

The document's SQL block is run as it stands, with the role and database names changed, so the document cannot drift from
what works. PostgreSQL only (SQLite has no roles).
"""
import re
import subprocess
import uuid

import pytest

import backends
from http_client import Browser, page_text
from stack import BIN, ROOT, Stack, running
from users import unique_email

pytestmark = pytest.mark.postgresql_only("PostgreSQL roles and privileges")

PASSWORD = "correct horse battery"


def readme_grants():
    """docs/several-hosts.md's SQL block that sets up the runtime role's privileges."""
    text = (ROOT / "docs/several-hosts.md").read_text()
    blocks = [block for block in re.findall(r"```sql\n(.*?)```", text, re.S) if "ALTER DEFAULT PRIVILEGES" in block]
    assert len(blocks) == 1, "docs/several-hosts.md shows the two roles' grants once"
    return blocks[0]


@pytest.fixture(scope="module")
def roles(tmp_path_factory):
    """A new database owned by a new owner role, a runtime role, the document's grants run as the owner, and the schema
    migrated by `frontdoor migrate` as the owner. Returns (the runtime role's URL, the owner's URL)."""
    server = backends.cluster_url()
    suffix = uuid.uuid4().hex[:10]
    owner, app, database = f"fd_owner_{suffix}", f"fd_app_{suffix}", f"fd_roles_{suffix}"
    backends.psql(server, f"CREATE ROLE {owner} LOGIN")
    backends.psql(server, f"CREATE ROLE {app} LOGIN")
    backends.psql(server, f"CREATE DATABASE {database} OWNER {owner}")

    def url(role):
        assert server.startswith("postgresql://frontdoor@") and "/postgres?" in server, server
        return server.replace("frontdoor@", f"{role}@", 1).replace("/postgres?", f"/{database}?", 1)

    grants = readme_grants().replace("frontdoor_owner", owner).replace("frontdoor_app", app) \
        .replace("DATABASE frontdoor ", f"DATABASE {database} ")
    subprocess.run(["psql", url(owner), "-X", "-q", "-v", "ON_ERROR_STOP=1"], input=grants, text=True, check=True,
                   capture_output=True)
    owners = Stack(tmp_path_factory.mktemp("owner"), {"database.url": url(owner)})   # its config only: never started
    migrated = subprocess.run([BIN, "migrate", "--config", str(owners.config_path)], capture_output=True, text=True, timeout=120,
                              cwd=owners.folder)
    assert migrated.returncode == 0 and "applied v1-accounts-sessions" in migrated.stdout, (migrated.stdout, migrated.stderr)
    return url(app), url(owner)


@pytest.fixture(scope="module")
def runtime(tmp_path_factory, roles):
    app_url, _ = roles
    stack = Stack(tmp_path_factory.mktemp("runtime"), {"database.url": app_url, "confirmation.required": "false",
                                                       "mail.transport": "outbox"})
    yield from running(stack)


def test_the_runtime_role_cannot_change_the_schema(roles):
    app_url, _ = roles
    refused = subprocess.run(["psql", app_url, "-X", "-v", "ON_ERROR_STOP=1", "-c", "CREATE TABLE intruder (id bigint)"],
                             capture_output=True, text=True)
    assert refused.returncode != 0 and "permission denied for schema public" in refused.stderr, refused.stderr
    for statement in ("DROP TABLE session", "ALTER TABLE account ADD COLUMN intruder text"):
        refused = subprocess.run(["psql", app_url, "-X", "-v", "ON_ERROR_STOP=1", "-c", statement], capture_output=True, text=True)
        assert refused.returncode != 0 and "must be owner of table" in refused.stderr, refused.stderr


def test_serve_as_the_runtime_role_signs_up_in_and_out(runtime):
    email = unique_email("roles")
    browser = Browser(runtime)
    signed_up = browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert signed_up.status_code == 303, page_text(signed_up)[:500]
    assert browser.post("/sign_out", {}).status_code == 303
    again = Browser(runtime)
    signed_in = again.post("/sign_in", {"email": email, "password": PASSWORD})
    assert signed_in.status_code == 303, page_text(signed_in)[:500]
    assert f"Signed in as {email}" in page_text(again.get("/"))
    assert again.post("/sign_out", {}).status_code == 303
    assert "Signed in as" not in page_text(again.get("/"))
    assert runtime.query("SELECT COUNT(*) FROM account")[0][0] == 1


def test_commands_as_the_runtime_role_read_the_schema_without_ddl(runtime, roles):
    status = subprocess.run([BIN, "migrate", "--status", "--config", str(runtime.config_path)], capture_output=True, text=True,
                            timeout=120, cwd=runtime.folder)
    assert status.returncode == 0 and "nothing pending" in status.stdout, (status.stdout, status.stderr)


def test_a_pending_step_is_not_applied_by_the_runtime_role_and_named(runtime, roles):
    """As if a new binary's step were pending (its bookkeeping row taken away by the owner): `frontdoor migrate` as the
    runtime role changes nothing and says which step is pending and that the owner must migrate."""
    app_url, owner_url = roles
    last = backends.psql(owner_url, "SELECT identifier FROM schemaMigration ORDER BY appliedAt DESC, identifier DESC LIMIT 1")
    backends.psql(owner_url, f"DELETE FROM schemaMigration WHERE identifier = '{last}'")
    try:
        refused = subprocess.run([BIN, "migrate", "--config", str(runtime.config_path)], capture_output=True, text=True,
                                 timeout=120, cwd=runtime.folder)
        assert refused.returncode != 0, refused.stdout
        assert f"pending: {last}" in refused.stderr and "as the schema's owner" in refused.stderr, refused.stderr
    finally:
        backends.psql(owner_url, f"INSERT INTO schemaMigration (identifier, appliedAt) VALUES ('{last}', extract(epoch FROM now()))")
    assert "nothing pending" in subprocess.run([BIN, "migrate", "--status", "--config", str(runtime.config_path)],
                                               capture_output=True, text=True, timeout=120, cwd=runtime.folder).stdout
