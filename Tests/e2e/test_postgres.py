"""Frontdoor served on PostgreSQL (issue 23): a private cluster (scripts/pg-cluster: socket only, its own temp
folder), a stack whose database.url names a database in it; sign-up, sign-in, settings and sign-out through nginx,
the rows in PostgreSQL, `migrate --status` and `config check` on it, and the server going away and coming back."""
import subprocess
import threading

import pytest
import requests

from backends import create_database as new_database, psql, remove_cluster, start_cluster
from http_client import Browser
from stack import BIN, ROOT, Stack, running
from users import unique_email
from waits import wait_for

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def cluster():
    folder, url = start_cluster()   # its own: these tests stop, crash and restart it
    yield folder, url
    remove_cluster(folder)


@pytest.fixture(scope="module")
def pg_stack(tmp_path_factory, cluster):
    url = new_database(cluster[1])
    stack = Stack(tmp_path_factory.mktemp("stack"), {"confirmation.required": "false", "mail.transport": "outbox",
                                                     "database.url": url, "database.connect_timeout": "2s"})
    stack.url = url
    yield from running(stack)


def test_people_sign_up_sign_in_and_out_with_their_rows_in_postgresql(pg_stack):
    email = unique_email("pg")
    browser = Browser(pg_stack)
    assert browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    assert email in browser.get("/settings").text
    assert browser.post("/sign_out", {}).status_code == 303
    assert browser.get("/settings").status_code in (302, 303)
    assert browser.post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303
    assert email in browser.get("/settings").text
    assert psql(pg_stack.url, f"SELECT COUNT(*) FROM emailAddress WHERE normalizedAddress = '{email.lower()}'") == "1"
    assert int(psql(pg_stack.url, "SELECT COUNT(*) FROM session")) >= 1
    assert psql(pg_stack.url, "SELECT COUNT(*) FROM audit WHERE event = 'sign_in'") == "1"
    assert psql(pg_stack.url, "SELECT COUNT(*) FROM auditCount WHERE total > 0") == "0", "an insert counts nothing: pruning does"


def test_migrate_status_and_config_check_speak_of_the_postgresql_database(pg_stack):
    status = subprocess.run([BIN, "migrate", "--status", "--config", str(pg_stack.config_path)], capture_output=True, text=True)
    assert status.returncode == 0, status.stderr
    assert "is at v18-audit-actor" in status.stdout and "nothing pending" in status.stdout
    check = subprocess.run([BIN, "config", "check", "--config", str(pg_stack.config_path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_config_check_says_in_one_line_what_is_wrong(pg_stack, tmp_path):
    cases = {
        "host unreachable": pg_stack.url.replace("host=", "host=/nonexistent"),
        "database missing": pg_stack.url.split("?")[0].rsplit("/", 1)[0] + "/no_such_db?" + pg_stack.url.split("?")[1],
        "authentication failed": pg_stack.url.replace("frontdoor@", "nobody@"),
    }
    for reason, url in cases.items():
        config = tmp_path / f"{reason.replace(' ', '-')}.yml"
        config.write_text(pg_stack.config_path.read_text().replace(pg_stack.url, url))
        check = subprocess.run([BIN, "config", "check", "--config", str(config)], capture_output=True, text=True)
        assert check.returncode == 1
        lines = check.stderr.strip().splitlines()
        assert len(lines) == 1 and reason in lines[0], check.stderr


def test_a_password_in_the_url_is_refused_before_anything_connects(pg_stack, tmp_path):
    config = tmp_path / "password.yml"
    config.write_text(pg_stack.config_path.read_text().replace("frontdoor@", "frontdoor:secret@"))
    check = subprocess.run([BIN, "config", "check", "--config", str(config)], capture_output=True, text=True)
    assert check.returncode == 1 and "password_file" in check.stderr and "secret" not in check.stderr


def test_the_server_going_away_answers_503_and_its_return_serves_again(pg_stack, cluster):
    email = unique_email("pgdown")
    browser = Browser(pg_stack)
    assert browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    folder, _ = cluster
    subprocess.run([str(ROOT / "scripts/pg-cluster"), "stop", str(folder)], check=True, capture_output=True)
    try:
        down = browser.get("/settings")
        assert down.status_code == 503 and down.headers.get("Retry-After"), down.text[:300]
        gate = browser.get("/auth/check")   # what nginx's auth_request asks: fails closed
        assert gate.status_code not in (200, 204)
    finally:
        subprocess.run([str(ROOT / "scripts/pg-cluster"), "start", str(folder)], check=True, capture_output=True)
    # The pool replaces its dead connections by itself: no restart of frontdoor.
    wait_for(lambda: email in browser.get("/settings").text, timeout=30, what="service back after the server's return")
    assert pg_stack.app.poll() is None


def test_a_crash_of_postgresql_under_load_gives_503s_never_a_500_or_a_half_written_row(pg_stack, cluster):
    """Sign-ups and page views from four threads while the server crashes (immediate stop) and comes back."""
    folder, _ = cluster
    statuses, created, stop = [], [], threading.Event()
    lock = threading.Lock()

    def load():
        browser = Browser(pg_stack)
        while not stop.is_set():
            email = unique_email("crash")
            try:
                answer = browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
                page = browser.get("/settings")
            except requests.RequestException as error:   # a reply nginx could not give is a failure too
                answer, page = None, error
            with lock:
                statuses.extend([getattr(answer, "status_code", "error"), getattr(page, "status_code", "error")])
                if getattr(answer, "status_code", None) == 303:
                    created.append(email)

    threads = [threading.Thread(target=load) for _ in range(4)]
    for thread in threads:
        thread.start()
    wait_for(lambda: len(created) >= 4, what="sign-ups before the crash")
    subprocess.run([str(ROOT / "scripts/pg-cluster"), "kill", str(folder)], check=True, capture_output=True)
    wait_for(lambda: statuses.count(503) >= 4, what="503s while the server is down")
    before = len(created)
    subprocess.run([str(ROOT / "scripts/pg-cluster"), "start", str(folder)], check=True, capture_output=True)
    wait_for(lambda: len(created) >= before + 8, timeout=30, what="sign-ups again after the server's return")
    stop.set()
    for thread in threads:
        thread.join()
    # 403: a sign-up posted without a CSRF token because its form page had been a 503 (a browser would not post it).
    assert set(statuses) <= {200, 302, 303, 403, 503}, sorted(set(map(str, statuses)))
    assert pg_stack.app.poll() is None
    # No half-written rows: every account has its one primary address, every sign-up that answered 303 is there.
    assert psql(pg_stack.url, "SELECT COUNT(*) FROM account a WHERE (SELECT COUNT(*) FROM emailAddress e "
                              "WHERE e.accountId = a.id AND e.isPrimary) <> 1") == "0"
    stored = set(psql(pg_stack.url, "SELECT normalizedAddress FROM emailAddress WHERE normalizedAddress LIKE 'crash%'").split())
    assert {email.lower() for email in created} <= stored
