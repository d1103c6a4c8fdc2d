"""Paths in the config (issue 22): a relative path in a config file is taken from the file's folder, whatever folder
frontdoor runs in; `config check` prints every path resolved; the production example (absolute paths) and the dev
config (`make run`: the checkout's var/) read as they should."""
import os
import subprocess

from stack import BIN, ROOT

ENV = {"PATH": "/usr/bin:/bin"}  # no FRONTDOOR_* from the caller's environment


def config_check(config, cwd, **environment):
    return subprocess.run([BIN, "config", "check", "--config", str(config)], env={**ENV, **environment}, cwd=cwd,
                          capture_output=True, text=True, timeout=60)


def test_relative_paths_in_a_config_are_taken_from_its_folder_and_printed_resolved(tmp_path):
    site, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    site.mkdir()
    elsewhere.mkdir()
    templates = os.path.relpath(ROOT / "templates", site)   # ../../…/templates: check loads them from there
    (site / "frontdoor.yml").write_text(
        f'database:\n  path: "data/frontdoor.sqlite"\ntemplates:\n  path: "{templates}"\n'
        f'mail:\n  transport: outbox\n  outbox: "./spool/../outbox"\nsocial:\n  token_key_file: "keys/social.key"\n')
    # From another folder, with the config named relatively, and one path given by the environment
    checked = config_check("../site/frontdoor.yml", elsewhere, FRONTDOOR_PASSWORD_BLOCKLIST_FILE="lists/refused.txt")
    assert checked.returncode == 0, checked.stderr
    lines = checked.stdout.splitlines()
    assert f'  path: "{site}/data/frontdoor.sqlite"' in lines
    assert f'  path: "{ROOT}/templates"' in lines
    assert f'  outbox: "{site}/outbox"' in lines
    assert f'  token_key_file: "{site}/keys/social.key"' in lines
    assert f'  blocklist_file: "{elsewhere}/lists/refused.txt"' in lines, "an environment value: the current folder"
    assert '  socket: ""' in lines, "empty stays empty (fd 0)"
    # migrate, run from that other folder, makes the database in the config's folder
    made = subprocess.run([BIN, "migrate", "--config", "../site/frontdoor.yml"], env=ENV, cwd=elsewhere,
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    assert (site / "data/frontdoor.sqlite").exists() and list(elsewhere.iterdir()) == []


def test_the_production_example_is_accepted_with_its_absolute_paths(tmp_path):
    # Its templates folder (/usr/local/share/frontdoor/templates) is where the install puts them, not on a test
    # machine: check needs templates it can load, so they come from the checkout through the environment.
    checked = config_check(ROOT / "config/frontdoor.example.yml", tmp_path, FRONTDOOR_TEMPLATES_PATH=str(ROOT / "templates"))
    assert checked.returncode == 0, checked.stderr
    lines = checked.stdout.splitlines()
    for line in ('  path: "/var/lib/frontdoor/frontdoor.sqlite"', '  outbox: "/var/lib/frontdoor/outbox"',
                 '  token_key_file: "/var/lib/frontdoor/social-tokens.key"', '  socket: ""', '  transport: "smtp"',
                 '  secure_cookie: "always"', '  fetch_only_allowed_hosts: "true"'):
        assert line in lines, line
    assert list(tmp_path.iterdir()) == [], "check writes nothing"
    example = (ROOT / "config/frontdoor.example.yml").read_text()
    assert all(f'{key}: "/' in example for key in ("path", "outbox", "token_key_file")), "the example's paths are absolute"


def test_the_dev_config_keeps_make_runs_data_in_the_checkouts_var(tmp_path):
    checked = config_check(ROOT / "config/frontdoor.dev.yml", tmp_path)
    assert checked.returncode == 0, checked.stderr
    lines = checked.stdout.splitlines()
    for line in (f'  path: "{ROOT}/var/frontdoor.sqlite"', f'  path: "{ROOT}/templates"', f'  socket: "{ROOT}/var/frontdoor.sock"',
                 f'  outbox: "{ROOT}/var/outbox"', f'  token_key_file: "{ROOT}/var/social-tokens.key"'):
        assert line in lines, line
