"""The database full: frontdoor runs with `database.max_size_mb` (SQLite's max_page_count on each of its connections)
and the test pads the file with a filler table from a connection of its own, until frontdoor's writes hit the cap.
Then changes get a clear 503 page (or the API's JSON 503) and nothing half-written, while people already signed in
keep passing the gate; `PRAGMA integrity_check` stays ok; and when the filler is deleted (space returns) the same
change works again, without a restart."""
import html
from contextlib import closing

import pytest

from api_client import Api
from http_client import Browser
from stack import new_stack
from users import unique_email
from waits import wait_for
from faults import integrity, sign_up

pytestmark = pytest.mark.sqlite_only("database.max_size_mb is SQLite's page cap; the test fills the file itself")

PASSWORD = "correct horse battery"
CAP_MB = 2
UNAVAILABLE = "We can't save changes right now, so nothing was changed. Please try again in a few minutes."


@pytest.fixture(scope="module")
def full_stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox",
                                                     "database.max_size_mb": str(CAP_MB), "api.enabled": "true"})


def pad_to_the_cap(stack, spare_pages):
    """Fills the file with filler rows until only `spare_pages` of the cap are left (this connection has no cap)."""
    with closing(stack.connect()) as db:  # waits for frontdoor's write lock (60 s) rather than failing after 5 s
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        cap = CAP_MB * (1 << 20) // page_size
        db.execute("CREATE TABLE IF NOT EXISTS filler (data BLOB)")
        while db.execute("PRAGMA page_count").fetchone()[0] < cap - spare_pages:
            db.execute("INSERT INTO filler VALUES (zeroblob(?))", (page_size // 2,))
            db.commit()
        db.commit()


def free_the_space(stack):
    stack.query("DELETE FROM filler")


def test_a_full_database_refuses_changes_clearly_keeps_sessions_and_recovers(full_stack):
    response, signed_in = sign_up(full_stack, unique_email("before"))
    assert response.status_code == 303
    pad_to_the_cap(full_stack, spare_pages=4)

    # Sign-ups fill the few spare pages, then one is refused: keep every address tried.
    refused, tried = None, []
    for _ in range(300):
        email = unique_email("filling")
        tried.append(email)
        response, browser = sign_up(full_stack, email)
        if response.status_code != 303:
            refused = (browser, email, response)
            break
    assert refused, "the database never filled up"
    browser, email, response = refused
    assert response.status_code == 503, (response.status_code, response.text[:500])
    assert response.headers["Retry-After"] == "60"
    assert UNAVAILABLE in html.unescape(response.text)

    # Nothing half-written: the refused address has no account and no address row; every account has its address.
    assert full_stack.query("SELECT COUNT(*) FROM emailAddress WHERE address = ?", email)[0][0] == 0
    assert full_stack.query("SELECT COUNT(*) FROM account WHERE id NOT IN (SELECT accountId FROM emailAddress)")[0][0] == 0
    for accepted in tried[:-1]:
        assert full_stack.query("SELECT COUNT(*) FROM emailAddress WHERE address = ?", accepted)[0][0] == 1
    assert integrity(full_stack) == [("ok",)]

    # Reading goes on: the signed-in person passes the gate and sees the home page; the sign-in page shows.
    assert signed_in.get("/auth/check").status_code == 200
    assert signed_in.get("/").status_code == 200
    assert Browser(full_stack).get("/sign_in").status_code == 200

    # The JSON API answers the same failure as JSON.
    api = Api(full_stack).post("/users", {"user": {"email": unique_email("api"), "password": PASSWORD}})
    assert api.status_code == 503 and UNAVAILABLE in api.text, (api.status_code, api.text)

    # Space returns: the same sign-up now works, without a restart.
    free_the_space(full_stack)
    response, browser = sign_up(full_stack, email)
    assert response.status_code == 303
    assert browser.get("/auth/check").status_code == 200
    assert full_stack.query("SELECT COUNT(*) FROM emailAddress WHERE address = ?", email)[0][0] == 1
    assert integrity(full_stack) == [("ok",)]
    # The refusal's log line: waited for, not read once (frontdoor may write it after its answer went out).
    wait_for(lambda: "database cannot take changes" in (full_stack.folder / "frontdoor.log").read_text(errors="replace"),
             what="the log line of the refused change")


def test_the_cap_must_be_a_size(tmp_path):
    from stack import BIN, render_yaml
    import subprocess
    config = tmp_path / "frontdoor.yml"
    config.write_text(render_yaml({"database.path": str(tmp_path / "db.sqlite"), "database.max_size_mb": "-1"}))
    result = subprocess.run([BIN, "config", "check", "--config", str(config)], capture_output=True, text=True, timeout=300)
    assert result.returncode != 0 and "database.max_size_mb" in result.stdout + result.stderr
