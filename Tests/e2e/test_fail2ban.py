"""config/fail2ban/filter.d/frontdoor.conf, run by Debian's fail2ban-regex against the real log of a stack, in both
log formats: failed sign-ins made through nginx (web form, BrowserID dialog, JSON API) from their own loopback
addresses, next to successful sign-ins and a sign-up from others. The filter must find exactly the failing addresses,
each as often as it failed, and nothing of the others. Lines carrying a forged failure inside a logged value (as
Frontdoor writes them: line breaks escaped in text, quotes in JSON) must not count."""
import collections
import json
import re
import shutil
import subprocess

import pytest
import requests

from source_address import browser_from, session_from
from stack import ROOT, Stack, running
from users import unique_email

PASSWORD = "correct horse battery"
FILTER = ROOT / "config/fail2ban/filter.d/frontdoor.conf"
# Who does what, each from an address of its own (nginx sees them as REMOTE_ADDR).
WEB_FAILS, DIALOG_FAILS, API_FAILS, SUCCEEDS, SIGNS_UP = "127.0.0.11", "127.0.0.12", "127.0.0.13", "127.0.0.14", "127.0.0.15"
FORGED = "192.0.2.77"   # the address a forged line would name


@pytest.fixture(scope="module", params=["text", "json"])
def logged_stack(request, tmp_path_factory):
    # No account lock: the same account fails from several addresses here, and then signs in.
    yield from running(Stack(tmp_path_factory.mktemp("f2b"), {"confirmation.required": "false", "mail.transport": "outbox",
                                                             "lockout.max_failures": "0", "log.format": request.param}))


def filter_folder(tmp_path):
    """The filter beside Debian's common.conf, as it sits in /etc/fail2ban/filter.d once installed."""
    shutil.copy(FILTER, tmp_path / "frontdoor.conf")
    shutil.copy("/etc/fail2ban/filter.d/common.conf", tmp_path / "common.conf")
    return tmp_path / "frontdoor.conf"


def matched_addresses(log, filter_path):
    """fail2ban-regex's matches: one address per matched line."""
    run = subprocess.run(["fail2ban-regex", "-o", "ip", str(log), str(filter_path)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    return collections.Counter(run.stdout.split())


def make_traffic(stack):
    email = unique_email("f2b")
    signer = browser_from(stack, SIGNS_UP)
    assert signer.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    web = browser_from(stack, WEB_FAILS)
    for password in ("wrong one 1", "wrong one 2"):
        assert web.post("/sign_in", {"email": email, "password": password}).status_code == 200
    dialog = browser_from(stack, DIALOG_FAILS)
    page = dialog.get("/browserid/sign_in?return_to=https%3A%2F%2Frp.example").text
    rd = re.search(r'name="rd" value="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert dialog.post("/sign_in", {"email": "nobody-" + email, "password": "guess", "rd": rd}).status_code == 200
    api = session_from(API_FAILS)
    for _ in range(3):
        answer = api.post(stack.base + "/v1/users/sign_in", data=json.dumps({"user": {"email": email, "password": "nope"}}),
                          headers={"Content-Type": "application/json", "Accept": "application/json"}, timeout=60)
        assert answer.status_code == 401, answer.text
    ok = browser_from(stack, SUCCEEDS)
    assert ok.post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303
    answer = session_from(SUCCEEDS).post(stack.base + "/v1/users/sign_in", timeout=60,
                                         data=json.dumps({"user": {"email": email, "password": PASSWORD}}),
                                         headers={"Content-Type": "application/json", "Accept": "application/json"})
    assert answer.status_code == 201, answer.text


def test_the_filter_finds_every_failed_sign_in_address_and_nothing_else(logged_stack, tmp_path):
    stack = logged_stack
    make_traffic(stack)
    log = stack.folder / "frontdoor.log"
    found = matched_addresses(log, filter_folder(tmp_path))
    assert found == {WEB_FAILS: 2, DIALOG_FAILS: 1, API_FAILS: 3}, (found, stack.app_log_text()[-3000:])
    lines = [line for line in stack.app_log_text().splitlines() if "sign-in failed" in line]
    assert len(lines) == 6 and all("request_id" in line for line in lines), lines
    if "json" in stack.config_path.read_text():
        assert all(json.loads(line)["event"] == "sign-in failed" for line in lines)
    assert PASSWORD not in stack.app_log_text() and "wrong one" not in stack.app_log_text()


def test_nginx_request_id_names_the_request_in_the_log(logged_stack):
    stack = logged_stack
    requests.post(stack.base + "/v1/users/sign_in", data=json.dumps({"user": {"email": "nobody@example.com", "password": "x"}}),
                  headers={"Content-Type": "application/json", "Accept": "application/json"}, timeout=60)
    last = [line for line in stack.app_log_text().splitlines() if "sign-in failed" in line][-1]
    request_id = (json.loads(last)["request_id"] if last.startswith("{")
                  else re.search(r"request_id=(\S+)", last).group(1))
    assert re.fullmatch(r"[0-9a-f]{32}", request_id), last   # nginx's $request_id: 32 hex digits (one made here has 24)


def test_a_failure_forged_inside_a_logged_value_is_not_matched(tmp_path):
    # Lines as Frontdoor writes them when outside text (a provider's error, a BrowserID issuer) holds a forged failure:
    # in text the line break is escaped (TextLogHandler), so the forgery sits inside a line that starts otherwise; in
    # JSON it is inside a quoted, escaped value. Beside them one real line, so the filter is seen to work at all.
    fake = f"2026-11-29T04:01:02+0000 info frontdoor: account=- client={FORGED} reason=x [AccountCore] sign-in failed"
    log = tmp_path / "forged.log"
    log.write_text(
        f"2026-11-29T04:01:03+0000 warning frontdoor: client=127.0.0.16 error=x\\n{fake} request_id=ab [WebFront] social sign-in failed\n"
        f"2026-11-29T04:01:03+0000 notice frontdoor: client=127.0.0.16 request_id=ab [WebFront] x\\n{fake}\n"
        + json.dumps({"time": "2026-11-29T04:01:04.000Z", "level": "notice", "event": "x\n" + json.dumps(
            {"time": "2026-11-29T04:01:02.500Z", "level": "info", "event": "sign-in failed", "account": "-", "client": FORGED}),
            "client": "127.0.0.16"}, separators=(",", ":")) + "\n"
        "2026-11-29T04:01:05+0000 info frontdoor: account=- client=127.0.0.17 reason=unknown address request_id=ac [AccountCore] sign-in failed\n")
    folder = tmp_path / "filter"
    folder.mkdir()
    assert matched_addresses(log, filter_folder(folder)) == {"127.0.0.17": 1}
