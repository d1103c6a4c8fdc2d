"""Shared by the recipe tests (test_recipes.py, test_recipe_ikiwiki.py): the person a recipe's app should see, the
recipes' nginx locations (nginx/recipes/) and app settings (docs/recipes.md) as an operator copies them, and fcgiwrap.

What the gate sends for a person is written here once (expected_user, expected_name, expected_groups), so the day
Remote-User changes meaning one line changes."""
import configparser
import os
import re
import secrets
import signal
import subprocess
from pathlib import Path

from http_client import Browser
from mails import outbox_link
from stack import ROOT, stop_process
from waits import wait_for

PASSWORD = "correct horse battery"
RECIPES_DOC = ROOT / "docs/recipes.md"


def new_address():
    """A new address whose local part is lower-case letters and digits only, so it is its own username."""
    return f"ann{secrets.token_hex(5)}@example.com"


def expected_user(stack, email):
    """Remote-User for the account of `email`: its username, made from the address here (docs/headers.md)."""
    [(username,)] = stack.query("SELECT a.username FROM account a JOIN emailAddress e ON e.accountId = a.id WHERE e.address = ?",
                                email)
    assert username == email.split("@")[0].lower(), "new_address's local part is its own username"
    return username


def expected_name(stack, email):
    """Remote-Name for an account that never set a display name: its username, here the address's local part."""
    return email.split("@", 1)[0]


def expected_groups(stack, email):
    """Remote-Groups for an account in no group: nothing (nginx then sends no header)."""
    return ""


def confirmed_person(stack, email=None):
    """A requests Browser signed up, confirmed through the mailed link and signed in as a new address; (browser, email).
    Confirmed, since the gate passes Remote-Email and Remote-Name for a confirmed address only."""
    email = email or new_address()
    browser = Browser(stack)
    assert browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code in (200, 303)
    assert browser.get(outbox_link(stack, email, "/confirm?token=")).status_code in (302, 303)
    assert browser.post("/sign_in", {"email": email, "password": PASSWORD}).status_code == 303
    return browser, email


def recipe_location(name, replacements):
    """nginx/recipes/NAME.conf with each of `replacements` (the operator's own ports and paths) put in."""
    text = (ROOT / "nginx/recipes" / f"{name}.conf").read_text()
    for old, new in replacements.items():
        assert old in text, f"{old} is not in nginx/recipes/{name}.conf"
        text = text.replace(old, new)
    return text


def recipe_section(heading):
    """The part of docs/recipes.md under the `## ` heading that starts with `heading`."""
    sections = re.split(r"^## ", RECIPES_DOC.read_text(), flags=re.M)
    found = [s for s in sections if s.startswith(heading)]
    assert len(found) == 1, f"docs/recipes.md has no single section '## {heading}'"
    return found[0]


def recipe_settings(heading):
    """The first ```ini block of that section, parsed as the app would (section and key names kept as written)."""
    block = re.search(r"```ini\n(.*?)```", recipe_section(heading), re.S).group(1)
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read_string(block)
    return parser


class Fcgiwrap:
    """Debian's fcgiwrap on a unix socket in `folder` (what the fcgiwrap.socket unit gives an operator), in a process
    group of its own: its preforked children outlive a SIGTERM to the parent alone, so stop() ends the whole group."""

    def __init__(self, folder: Path):
        self.socket = folder / "fcgiwrap.sock"
        self.log = open(folder / "fcgiwrap.log", "w")
        self.process = subprocess.Popen(["fcgiwrap", "-c", "2", "-s", f"unix:{self.socket}"], stdin=subprocess.DEVNULL,
                                        stdout=self.log, stderr=subprocess.STDOUT, cwd=folder, start_new_session=True)
        wait_for(lambda: self.socket.exists() or self.process.poll() is not None, what="the fcgiwrap socket")
        assert self.process.poll() is None, (folder / "fcgiwrap.log").read_text()

    def stop(self):
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        stop_process(self.process)
        wait_for(lambda: not group_alive(self.process.pid), what="fcgiwrap's children to end")
        self.log.close()


def group_alive(group):
    try:
        os.killpg(group, 0)
        return True
    except ProcessLookupError:
        return False
