"""`frontdoor --version` and the frontdoor_build_info gauge: what an operator compares across hosts. The backends line
names the libraries the process loaded, so it must agree with what this machine has installed."""
import re
import sqlite3
import subprocess

from prometheus_client.parser import text_string_to_metric_families

from http_client import Browser
from stack import BIN, new_stack

LINES = re.compile(r"\Afrontdoor (?P<version>\S+)\ncommit: (?P<commit>\S+)\nbuilt: (?P<built>\S+)\n"
                   r"backends: SQLite (?P<sqlite>[0-9.]+), PostgreSQL \(libpq (?P<libpq>[0-9.]+)\)\nlicense: Apache-2.0\n\Z")


def version_output():
    run = subprocess.run([BIN, "--version"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    match = LINES.match(run.stdout)
    assert match, f"unexpected --version output:\n{run.stdout}"
    return match


def installed_version(package):
    """Debian's upstream version of `package` (15.13-0+deb12u1 -> 15.13)."""
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=True).stdout
    return re.match(r"(?:\d+:)?([0-9.]+)", out).group(1)


def test_version_names_the_build_and_the_libraries_this_process_loaded():
    found = version_output()
    assert found["sqlite"] == sqlite3.sqlite_version, "Python here loads Debian's libsqlite3 too"
    assert found["libpq"] == installed_version("libpq5")
    stamped = all(found[name] != "unknown" for name in ("version", "commit", "built"))
    unstamped = all(found[name] == "unknown" for name in ("version", "commit", "built"))
    assert stamped or unstamped, "scripts/dist stamps all three, a plain swift build none"
    if stamped:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", found["built"])


def test_metrics_carry_the_build_info_of_the_running_binary(tmp_path_factory, request):
    found = version_output()
    for stack in new_stack(tmp_path_factory, request, {}):
        response = Browser(stack).get("/metrics")
        assert response.status_code == 200
        families = {family.name: family for family in text_string_to_metric_families(response.text)}
        info = families["frontdoor_build_info"]
        assert info.type == "gauge"
        assert [(s.labels, s.value) for s in info.samples] == [({"version": found["version"], "commit": found["commit"]}, 1.0)]
