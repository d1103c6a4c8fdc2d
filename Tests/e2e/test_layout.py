"""The module table of docs/contributing.md ("Layout") says what Package.swift and the sources do: one row per target
under Sources/, its dependencies inside this package exactly as Package.swift declares them, and no source file
importing a module of this package that its target does not declare. Read with `swift package dump-package` (no
build), so the table cannot drift from the code."""
import json
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
IMPORT = re.compile(r"^\s*(?:@[\w()]+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.M)


@pytest.fixture(scope="module")
def package():
    """Each Sources/ target's dependencies on other targets of this package, from Package.swift."""
    dump = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert dump.returncode == 0, dump.stderr
    targets = [t for t in json.loads(dump.stdout)["targets"] if t["type"] in ("regular", "executable", "system")]
    names = {t["name"] for t in targets}
    graph = {}
    for target in targets:
        if target.get("path", "").startswith("Tests"):
            continue
        deps = set()
        for dependency in target.get("dependencies", []):
            (kind, value), = dependency.items()
            if kind in ("byName", "target") and value[0] in names:
                deps.add(value[0])
        graph[target["name"]] = deps
    return graph


def readme_table():
    """The rows of the table under docs/contributing.md's '## Layout': module -> the set named in its 'depends on' column."""
    text = (ROOT / "docs/contributing.md").read_text()
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 3 or not cells[0].startswith("`Sources/"):
            continue
        module = cells[0].strip("`").removeprefix("Sources/")
        rows[module] = set(re.findall(r"`(\w+)`", cells[1]))
    return rows


def test_every_target_has_a_row_naming_exactly_its_declared_dependencies(package):
    rows = readme_table()
    assert set(rows) == set(package), f"docs/contributing.md rows {sorted(rows)} vs Package.swift {sorted(package)}"
    for module, deps in package.items():
        assert rows[module] == deps, f"{module}: docs/contributing.md says {sorted(rows[module])}, Package.swift {sorted(deps)}"


def test_no_source_file_imports_a_module_of_this_package_its_target_does_not_declare(package):
    wrong = []
    for module, deps in package.items():
        for source in (ROOT / "Sources" / module).rglob("*.swift"):
            for imported in IMPORT.findall(source.read_text()):
                if imported in package and imported != module and imported not in deps:
                    wrong.append(f"{source.relative_to(ROOT)} imports {imported}")
    assert not wrong, "\n".join(wrong)


def test_the_direction_rules_hold(package):
    """frontdoor -> WebFront -> {AccountCore, BrowserID, OAuthClient, FastCGI}; AccountCore -> AccountRules;
    FrontdoorClient -> AccountRules; never the reverse, and the three protocol modules never import each other.
    JOSE is a leaf (Encodings only) below BrowserID, OAuthClient and WebFront."""
    def reaches(start):
        seen, todo = set(), [start]
        while todo:
            for dep in package[todo.pop()]:
                if dep not in seen:
                    seen.add(dep)
                    todo.append(dep)
        return seen
    for lower in ("AccountCore", "BrowserID", "OAuthClient", "FastCGI", "AccountRules", "FrontdoorClient"):
        assert "WebFront" not in reaches(lower) and "frontdoor" not in reaches(lower), lower
    for a in ("AccountCore", "BrowserID", "FastCGI", "OAuthClient"):
        for b in ("AccountCore", "BrowserID", "FastCGI", "OAuthClient"):
            assert a == b or b not in reaches(a), f"{a} reaches {b}"
    assert reaches("FrontdoorClient") - {"Locking"} <= {"AccountRules"}
    # JOSE, the one JWS implementation, stays a leaf every protocol module can use.
    assert reaches("JOSE") <= {"Encodings"}
    assert {"JOSE"} <= package["BrowserID"] & package["OAuthClient"] & package["WebFront"]
    assert "FastCGI" in package["WebFront"] and "WebFront" in package["frontdoor"]
