"""`frontdoor client add|list|remove|rotate-secret` as an operator runs them, on the database a running stack serves,
beside one client of the config file (`oidc.clients`).

- add prints a confidential client's secret once, as the only line on stdout; a public client gets none; the database
  keeps only its SHA-256, and the secret works at the provider (introspection authenticates the client with it); a
  rotated one replaces it;
- list shows both kinds, marked config / database (table and --json);
- remove / rotate-secret refuse the config file's client with one line saying to edit the file;
- one-line refusals: a bad redirect URI (a custom scheme for a confidential client, a fragment, plain http elsewhere
  than loopback), no redirect URI, a taken id (database or config), a bad id, an unknown client; a secret is never taken
  from argv (there is no such option).
"""
import hashlib
import json

import pytest
import requests

from http_client import REQUEST_TIMEOUT
from stack import new_stack
from test_cli import fails, ok, run

CONFIG_SECRET = "config-client-secret-0123456789"


@pytest.fixture(scope="module")
def oidc_cli_stack(tmp_path_factory, request):
    folder = tmp_path_factory.mktemp("oidc-cli-secret")
    secret_file = folder / "grafana.secret"
    secret_file.write_text(CONFIG_SECRET + "\n")
    extra = ("oidc:\n  clients:\n    - id: grafana\n"
             f"      secret_file: {json.dumps(str(secret_file))}\n"
             '      redirect_uris: ["https://grafana.example.com/login/generic_oauth"]\n')
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox"}, extra_yaml=extra)


def secret_works(stack, client_id, secret, stored=True):
    """Introspection answers 200 only to a client that authenticated with its secret (RFC 7662), else 401; for a
    database client (`stored`), the database holds the secret's SHA-256 exactly then, and never the secret itself."""
    held = None
    if stored:
        rows = stack.query("SELECT secretDigests FROM openIDClient WHERE id = ?", client_id)
        blob = bytes(rows[0][0]) if rows else b""
        assert secret.encode() not in blob
        held = hashlib.sha256(secret.encode()).digest() in [blob[i:i + 32] for i in range(0, len(blob), 32)]
    response = requests.post(stack.base + "/oidc/introspect", data={"token": "not-a-token"}, auth=(client_id, secret),
                             timeout=REQUEST_TIMEOUT)
    assert response.status_code in (200, 401), response.text
    assert held is None or (response.status_code == 200) == held
    return response.status_code == 200


def listed(stack):
    return {entry["id"]: entry for entry in json.loads(ok(stack, "client", "list", "--json"))}


def test_add_prints_the_secret_once_and_it_authenticates_the_client(oidc_cli_stack):
    out = ok(oidc_cli_stack, "client", "add", "wiki", "--redirect-uri", "https://wiki.example.com/callback",
             "--redirect-uri", "http://127.0.0.1:8000/cb", "--name", "The Wiki", "--scope", "openid email",
             "--second-factor", "required", "--backchannel-logout-uri", "https://wiki.example.com/bcl")
    lines = out.splitlines()
    assert len(lines) == 1 and len(lines[0]) >= 32, out
    secret = lines[0]
    entry = listed(oidc_cli_stack)["wiki"]
    assert entry["source"] == "database" and entry["name"] == "The Wiki" and not entry["public"]
    assert entry["redirectURIs"] == ["https://wiki.example.com/callback", "http://127.0.0.1:8000/cb"]
    assert entry["scopes"] == ["openid", "email"] and entry["secondFactor"] == "required"
    assert entry["backchannelLogoutURI"] == "https://wiki.example.com/bcl"
    assert secret not in json.dumps(listed(oidc_cli_stack))
    assert secret_works(oidc_cli_stack, "wiki", secret)
    assert not secret_works(oidc_cli_stack, "wiki", secret + "x")

    rotated = ok(oidc_cli_stack, "client", "rotate-secret", "wiki").strip()
    assert rotated and rotated != secret and "\n" not in rotated
    assert secret_works(oidc_cli_stack, "wiki", rotated)
    assert not secret_works(oidc_cli_stack, "wiki", secret)


def test_a_public_client_gets_no_secret_and_may_use_a_private_scheme(oidc_cli_stack):
    out = ok(oidc_cli_stack, "client", "add", "notes-ios", "--public", "--api-sign-in", "--pairwise",
             "--redirect-uri", "com.example.notes:/oidc-callback", "--post-logout-redirect-uri", "com.example.notes:/bye")
    assert out.strip() == "created public client notes-ios"
    entry = listed(oidc_cli_stack)["notes-ios"]
    assert entry["public"] and entry["apiSignIn"] and entry["subject"] == "pairwise"
    assert entry["postLogoutRedirectURIs"] == ["com.example.notes:/bye"]
    assert fails(oidc_cli_stack, "client", "rotate-secret", "notes-ios") == "frontdoor: client notes-ios is public: it has no secret"


def test_list_marks_the_config_files_clients_and_the_databases(oidc_cli_stack):
    ok(oidc_cli_stack, "client", "add", "listed", "--public", "--redirect-uri", "http://localhost:9000/cb")
    entries = listed(oidc_cli_stack)
    assert entries["grafana"]["source"] == "config" and entries["listed"]["source"] == "database"
    table = ok(oidc_cli_stack, "client", "list").splitlines()
    assert table[0].split()[:3] == ["ID", "SOURCE", "TYPE"]
    rows = {line.split()[0]: line.split()[1:3] for line in table[1:]}
    assert rows["grafana"] == ["config", "confidential"] and rows["listed"] == ["database", "public"]


def test_the_config_files_clients_are_changed_in_the_file_only(oidc_cli_stack):
    for command in ("remove", "rotate-secret"):
        message = fails(oidc_cli_stack, "client", command, "grafana")
        assert "config file" in message and "edit the file" in message, message
    assert secret_works(oidc_cli_stack, "grafana", CONFIG_SECRET, stored=False)
    assert "grafana" in listed(oidc_cli_stack)


def test_remove_ends_a_database_client(oidc_cli_stack):
    secret = ok(oidc_cli_stack, "client", "add", "gone", "--redirect-uri", "https://gone.example.com/cb").strip()
    assert ok(oidc_cli_stack, "client", "remove", "gone").strip() == "removed client gone"
    assert "gone" not in listed(oidc_cli_stack)
    assert not secret_works(oidc_cli_stack, "gone", secret)
    assert fails(oidc_cli_stack, "client", "remove", "gone") == "frontdoor: no client gone"
    assert fails(oidc_cli_stack, "client", "rotate-secret", "gone") == "frontdoor: no client gone"


@pytest.mark.parametrize("arguments, words", [
    (["bad-uri", "--redirect-uri", "com.example.app:/cb"], "--redirect-uri \"com.example.app:/cb\" must be an https URL"),
    (["bad-uri", "--redirect-uri", "https://app.example.com/cb#frag"], "without a fragment"),
    (["bad-uri", "--redirect-uri", "http://app.example.com/cb"], "http on a loopback host"),
    (["bad-uri", "--public", "--redirect-uri", "https://a.example/cb", "--post-logout-redirect-uri", "nodot:/x"], "--post-logout-redirect-uri"),
    (["no-uri"], "give at least one --redirect-uri"),
    (["bad id!", "--redirect-uri", "https://a.example/cb"], "a client id is 1 to 64"),
    (["scopes", "--redirect-uri", "https://a.example/cb", "--scope", "email"], "--scope must include openid"),
    (["scopes", "--redirect-uri", "https://a.example/cb", "--scope", "openid offline_access"], "is not offered"),
    (["factor", "--redirect-uri", "https://a.example/cb", "--second-factor", "sometimes"], "--second-factor must be required or optional"),
    (["bcl", "--redirect-uri", "https://a.example/cb", "--backchannel-logout-uri", "http://evil.example/bcl"], "--backchannel-logout-uri"),
    (["grafana", "--redirect-uri", "https://a.example/cb"], "a client grafana exists already"),
])
def test_add_refuses_with_one_line(oidc_cli_stack, arguments, words):
    message = fails(oidc_cli_stack, "client", "add", *arguments)
    assert words in message, message
    assert arguments[0] not in listed(oidc_cli_stack) or arguments[0] == "grafana"


def test_a_taken_database_id_is_refused_and_a_secret_is_never_taken_from_argv(oidc_cli_stack):
    ok(oidc_cli_stack, "client", "add", "twice", "--redirect-uri", "https://twice.example.com/cb")
    assert "a client twice exists already" in fails(oidc_cli_stack, "client", "add", "twice", "--redirect-uri", "https://t.example/cb")
    result = run(oidc_cli_stack, "client", "add", "argv", "--redirect-uri", "https://a.example/cb", "--secret", "s3cret-s3cret-s3cret")
    assert result.returncode == 64 and "--secret" in result.stderr, result.stderr
    assert "argv" not in listed(oidc_cli_stack)
