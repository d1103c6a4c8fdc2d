"""GET /account/metrics through nginx: Prometheus text that a real parser reads, with the figures moving as people
sign in, fail, get locked and pass the gate; refused (404) to addresses not allowed."""
from prometheus_client.parser import text_string_to_metric_families

from backends import POSTGRESQL
from http_client import Browser
from stack import new_stack
from users import unique_email
from waits import wait_for

import pytest

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def metrics_stack(tmp_path_factory, request):
    yield from new_stack(tmp_path_factory, request, {"confirmation.required": "false", "mail.transport": "outbox",
                                                     "lockout.max_failures": "2", "metrics.host": "host-a"})


def scrape(stack):
    response = Browser(stack).get("/metrics")
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))), 0)


def test_metrics_parse_and_count_what_happens(metrics_stack):
    stack = metrics_stack
    before = scrape(stack)
    browser = Browser(stack)
    email = unique_email("metrics")
    browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert browser.get("/auth/check").status_code == 200
    assert Browser(stack).get("/auth/check").status_code == 401
    browser.post("/sign_out", {})
    assert browser.post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303
    for _ in range(2):
        Browser(stack).post("/sign_in", {"email": email, "password": "wrong wrong"})
    after = scrape(stack)
    assert value(after, "frontdoor_sign_ins_total") - value(before, "frontdoor_sign_ins_total") == 1
    assert value(after, "frontdoor_sign_in_failures_total") - value(before, "frontdoor_sign_in_failures_total") == 2
    assert value(after, "frontdoor_lockouts_total") - value(before, "frontdoor_lockouts_total") == 1
    assert value(after, "frontdoor_gate_checks_total", result="allowed") - value(before, "frontdoor_gate_checks_total", result="allowed") == 1
    assert value(after, "frontdoor_gate_checks_total", result="unauthenticated") >= 1
    posted = value(after, "frontdoor_http_requests_total", route="sign_in", status="303")
    assert posted - value(before, "frontdoor_http_requests_total", route="sign_in", status="303") == 1
    count = value(after, "frontdoor_http_request_duration_seconds_count", route="sign_in")
    assert value(after, "frontdoor_http_request_duration_seconds_bucket", route="sign_in", le="+Inf") == count > 0
    assert value(after, "frontdoor_mail_queue_depth") >= 0 and value(after, "process_resident_memory_bytes") > 1_000_000


def test_metrics_are_refused_to_other_addresses(tmp_path_factory, request):
    for stack in new_stack(tmp_path_factory, request, {"metrics.allowed_addresses": "192.0.2.1"}):
        assert Browser(stack).get("/metrics").status_code == 404


def test_metrics_allow_a_cidr_range_of_addresses(tmp_path_factory, request):
    """nginx connects from 127.0.0.1, which lies in 127.0.0.0/8 (issue 22: ranges, not exact strings)."""
    for stack in new_stack(tmp_path_factory, request, {"metrics.allowed_addresses": "2001:db8::/32, 127.0.0.0/8"}):
        assert Browser(stack).get("/metrics").status_code == 200


def test_metrics_name_the_host_and_on_postgresql_show_the_session_cache(metrics_stack):
    stack = metrics_stack
    samples = scrape(stack)
    assert value(samples, "frontdoor_host_info", host="host-a") == 1
    if not POSTGRESQL:
        assert not any(name.startswith(("frontdoor_session_cache", "frontdoor_database_round_trips")) for name, _ in samples), \
            "one SQLite file: no cache, no round trips to count"
        return
    wait_for(lambda: value(scrape(stack), "frontdoor_session_cache_listening") == 1, timeout=10, what="the listener")
    browser = Browser(stack)
    email = unique_email("cache")
    browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    before = scrape(stack)
    for _ in range(3):
        assert browser.get("/auth/check").status_code == 200
    middle = scrape(stack)
    grew = {name: value(middle, f"frontdoor_session_cache_{name}_total") - value(before, f"frontdoor_session_cache_{name}_total")
            for name in ("hits", "misses")}
    assert grew["hits"] >= 2 and grew["misses"] <= 1, grew
    assert value(middle, "frontdoor_session_cache_entries") >= 1
    assert value(middle, "frontdoor_database_round_trips_total") > value(before, "frontdoor_database_round_trips_total")
    browser.post("/sign_out", {})
    assert browser.get("/auth/check").status_code == 401, "the host that signed out forgets at once"
    after = scrape(stack)
    assert value(after, "frontdoor_session_cache_invalidations_total") > value(middle, "frontdoor_session_cache_invalidations_total")


def test_second_factors_are_counted(metrics_stack):
    """Turning codes on and off moves their counters; a sign-in finished with a code counts as one sign-in."""
    from test_settings_account import signed_up
    from two_step import enrol
    stack = metrics_stack
    before = scrape(stack)
    browser, email = signed_up(stack)
    enrolled = enrol(browser)
    browser.post("/sign_out", {})
    fresh = Browser(stack)
    assert fresh.post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303
    assert fresh.post("/sign_in/second_factor", {"code": enrolled.code(offset=30)}).status_code == 303
    assert fresh.post("/settings/two_step/off", {}).status_code == 303
    after = scrape(stack)
    for name, moved in (("frontdoor_second_factors_enabled_total", 1), ("frontdoor_second_factors_removed_total", 1),
                        ("frontdoor_sign_ins_total", 1), ("frontdoor_passkeys_added_total", 0)):
        assert value(after, name) - value(before, name) == moved, name

