"""`<base>/health` and `<base>/health/ready` through nginx on either backend: JSON, no cookie, nothing secret, loopback
only as nginx/frontdoor.conf ships them; ready turns 503 (with Retry-After) while the database is away and back to 200
by itself when it returns. On SQLite "away" is the file moved from its path (writes would go to a file nobody reads);
on PostgreSQL the server stopped (a private cluster, as test_postgres_outage.py does). Meanwhile /metrics still
answers, with frontdoor_database_up 0."""
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest
import requests

from backends import POSTGRESQL
from source_address import session_from
from stack import ROOT, Stack, running
from waits import wait_for

SESSION_COOKIES = ("frontdoor_session", "frontdoor_csrf", "__Host-frontdoor_session", "__Host-frontdoor_csrf")


def get(stack, path, session=None):
    return (session or requests).get(stack.base + path, timeout=60, allow_redirects=False)


def ready_now(stack):
    response = get(stack, "/health/ready")
    return response if response.status_code == 200 else None


def assert_plain_json(response):
    assert response.headers["Content-Type"] == "application/json", response.headers
    assert response.headers.get("Cache-Control") == "no-store"
    assert "Set-Cookie" not in response.headers, response.headers
    body = response.json()
    for secret in ("postgresql://", "password", "sqlite", "/tmp"):
        assert secret not in response.text, response.text
    return body


def test_alive_and_ready_answer_json_without_cookies(stack):
    alive = get(stack, "/health")
    assert alive.status_code == 200 and assert_plain_json(alive) == {"status": "ok"}
    ready = wait_for(lambda: ready_now(stack), what="ready")   # PostgreSQL: once the listener listens
    checks = {"database": "ok", "listener": "ok"} if POSTGRESQL else {"database": "ok"}
    assert assert_plain_json(ready) == {"status": "ok", "checks": checks}
    assert requests.post(stack.base + "/health", timeout=60).status_code == 405


def test_health_is_loopback_only_in_the_shipped_site(stack):
    elsewhere = session_from("127.0.0.7")
    for path in ("/health", "/health/ready"):
        assert get(stack, path, elsewhere).status_code == 403, path
    assert get(stack, "/sign_in", elsewhere).status_code == 200   # only the health locations are closed


@pytest.fixture(scope="module")
def away_stack(tmp_path_factory):
    """A stack of its own whose database the test takes away: SQLite's file, or a private PostgreSQL cluster."""
    if not POSTGRESQL:
        for stack in running(Stack(tmp_path_factory.mktemp("health"), {"mail.transport": "outbox"})):
            yield stack, None
        return
    folder = Path(tempfile.mkdtemp(prefix="frontdoor-e2e-health-", dir="/tmp"))   # the postgres user must reach it
    url = pg_cluster("start", folder)
    name = "health_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", url, "-AtX", "-v", "ON_ERROR_STOP=1", "-c", f"CREATE DATABASE {name}"], check=True,
                   capture_output=True)
    try:
        for stack in running(Stack(tmp_path_factory.mktemp("health"), {
                "mail.transport": "outbox", "database.url": url.replace("/postgres?", f"/{name}?"),
                "database.connect_timeout": "2s"})):
            yield stack, folder
    finally:
        subprocess.run([str(ROOT / "scripts/pg-cluster"), "stop", str(folder)], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def pg_cluster(command, folder):
    return subprocess.run([str(ROOT / "scripts/pg-cluster"), command, str(folder)], check=True, capture_output=True,
                          text=True).stdout.strip()


def test_ready_is_503_while_the_database_is_away_and_200_again_when_it_returns(away_stack):
    stack, folder = away_stack
    wait_for(lambda: ready_now(stack), what="ready before")
    assert "\nfrontdoor_database_up 1\n" in get(stack, "/metrics").text
    if POSTGRESQL:
        pg_cluster("stop", folder)
    else:
        moved = stack.db.with_name("moved.sqlite")
        stack.db.rename(moved)
    try:
        down = get(stack, "/health/ready")
        assert down.status_code == 503 and down.headers.get("Retry-After") == "5", (down.status_code, down.text)
        assert assert_plain_json(down) == {"status": "unavailable", "checks": {"database": "unavailable"}}
        alive = get(stack, "/health")
        assert alive.status_code == 200 and alive.json() == {"status": "ok"}   # alive asks no database
        # The scrape still answers, saying so (config/prometheus/frontdoor-alerts.yml: FrontdoorDatabaseUnavailable).
        metrics = get(stack, "/metrics")
        assert metrics.status_code == 200 and "\nfrontdoor_database_up 0\n" in metrics.text, metrics.text[-500:]
        assert "frontdoor_http_requests_total" in metrics.text and "frontdoor_sign_ins_total" not in metrics.text
    finally:
        if POSTGRESQL:
            pg_cluster("start", folder)
        else:
            moved.rename(stack.db)
    back = wait_for(lambda: ready_now(stack), timeout=30, what="ready again after the database's return")
    assert back.json()["status"] == "ok"
    assert stack.app.poll() is None, stack.logs()
