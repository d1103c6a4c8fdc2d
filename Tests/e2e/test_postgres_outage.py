"""PostgreSQL going away under a running stack (issue 23), on a private cluster of this module's own (whatever
FRONTDOOR_E2E_BACKEND says): every page that needs the database answers the site's own 503 page (HTML, the "can't save
changes" message, Retry-After) for signed-in and anonymous visitors alike, the gate lets no one through, nothing is
logged as a failed error page, and service comes back by itself when the server does."""
import html
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest
import requests

from http_client import REQUEST_TIMEOUT, Browser
from stack import ROOT, Stack, running
from users import unique_email
from waits import wait_for

PASSWORD = "correct horse battery"
APP_SECRET = "outage-app-secret-0123456789"
UNAVAILABLE = "We can't save changes right now, so nothing was changed. Please try again in a few minutes."


def pg_cluster(command, folder):
    return subprocess.run([str(ROOT / "scripts/pg-cluster"), command, str(folder)], check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture(scope="module")
def cluster():
    folder = Path(tempfile.mkdtemp(prefix="frontdoor-e2e-outage-", dir="/tmp"))   # the postgres user must reach it
    url = pg_cluster("start", folder)
    yield folder, url
    subprocess.run([str(ROOT / "scripts/pg-cluster"), "stop", str(folder)], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def outage_stack(tmp_path_factory, cluster):
    name = "outage_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", cluster[1], "-AtX", "-v", "ON_ERROR_STOP=1", "-c", f"CREATE DATABASE {name}"], check=True,
                   capture_output=True)
    url = cluster[1].replace("/postgres?", f"/{name}?")
    folder = tmp_path_factory.mktemp("stack")
    (folder / "app.secret").write_text(APP_SECRET + "\n")
    clients = ("oidc:\n  clients:\n    - id: app\n      secret_file: app.secret\n"
               '      redirect_uris: ["https://app.example.com/cb"]\n')
    yield from running(Stack(folder, {"confirmation.required": "false", "mail.transport": "outbox",
                                      "database.url": url, "database.connect_timeout": "2s"}, extra_yaml=clients))


def is_the_unavailable_page(response):
    return (response.status_code == 503 and response.headers.get("Retry-After")
            and response.headers.get("Content-Type", "").startswith("text/html")
            and UNAVAILABLE in html.unescape(response.text) and "<html" in response.text)


def test_while_the_server_is_down_pages_answer_the_503_page_and_the_gate_stays_shut(outage_stack, cluster):
    stack = outage_stack
    email = unique_email("outage")
    member = Browser(stack)
    assert member.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    visitor = Browser(stack)
    token = visitor.token("/sign_in")
    pg_cluster("stop", cluster[0])
    try:
        for response in (member.get("/settings"), member.get("/settings/sessions"),
                         visitor.post("/sign_in", {"email": email, "password": PASSWORD, "csrf_token": token}, csrf=False)):
            assert is_the_unavailable_page(response), (response.status_code, response.headers, response.text[:300])
        assert member.get("/auth/check").status_code not in (200, 204)
        # The OpenID provider's back channel answers its clients in their own language (RFC 6749 JSON), still 503 with
        # Retry-After: an app's HTTP library reads the error code instead of an HTML page.
        for response in (requests.post(stack.base + "/oidc/token", data={"grant_type": "authorization_code", "code": "x" * 43,
                                                                         "redirect_uri": "https://app.example.com/cb"},
                                       auth=("app", APP_SECRET), timeout=REQUEST_TIMEOUT),
                         requests.get(stack.base + "/oidc/userinfo", headers={"Authorization": "Bearer " + "y" * 43},
                                      timeout=REQUEST_TIMEOUT)):
            assert response.status_code == 503 and response.headers.get("Retry-After"), (response.status_code, response.text[:300])
            assert response.headers.get("Content-Type", "").startswith("application/json"), response.headers
            assert response.json()["error"] == "temporarily_unavailable" and response.headers.get("Cache-Control") == "no-store"
    finally:
        pg_cluster("start", cluster[0])
    wait_for(lambda: email in member.get("/settings").text, timeout=30, what="service back after the server's return")
    assert visitor.post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303
    assert "error page failed" not in stack.app_log_text(), stack.logs()
    assert stack.app.poll() is None
