"""config/prometheus/frontdoor-alerts.yml: Debian's promtool accepts it (`check rules`), its unit tests pass (`test
rules` with frontdoor-alerts.test.yml), and every metric it names is one a real Frontdoor's /metrics exposes (scraped
from a stack here, on either backend), so a renamed family cannot leave an alert that never fires."""
import re
import subprocess

from backends import POSTGRESQL
from http_client import Browser
from stack import ROOT

RULES = ROOT / "config/prometheus/frontdoor-alerts.yml"
TESTS = ROOT / "config/prometheus/frontdoor-alerts.test.yml"
# Families only some installs expose: the session cache's exist on PostgreSQL with the cache on.
POSTGRESQL_ONLY = {"frontdoor_session_cache_listening"}


def promtool(*arguments):
    run = subprocess.run(["promtool", *arguments], capture_output=True, text=True, timeout=120, cwd=RULES.parent)
    return run.returncode, run.stdout + run.stderr


def test_promtool_checks_the_rules():
    code, output = promtool("check", "rules", str(RULES))
    assert code == 0 and "SUCCESS: 7 rules found" in output, output


def test_promtool_runs_the_rules_unit_tests():
    code, output = promtool("test", "rules", str(TESTS))
    assert code == 0 and "SUCCESS" in output, output


def test_every_metric_the_rules_name_is_exposed(stack):
    named = set(re.findall(r"\b(frontdoor_[a-z_]+)\{", RULES.read_text()))
    assert named == {"frontdoor_http_requests_total", "frontdoor_database_up", "frontdoor_session_cache_listening",
                     "frontdoor_mail_queue_depth", "frontdoor_lockouts_total", "frontdoor_address_blocks_total",
                     "frontdoor_oidc_codes_reused_total", "frontdoor_oidc_refresh_tokens_reused_total"}, named
    scraped = Browser(stack).get("/metrics")
    assert scraped.status_code == 200
    exposed = set(re.findall(r"^# TYPE (\S+) ", scraped.text, re.M))
    missing = named - exposed - (set() if POSTGRESQL else POSTGRESQL_ONLY)
    assert not missing, (missing, sorted(exposed))
