"""The ikiwiki recipe (docs/recipes.md) with the real wiki: Debian's ikiwiki built from the recipe's setup, its CGI run
by Debian's fcgiwrap behind nginx/recipes/ikiwiki.conf and Frontdoor's gate. In Chromium a new person is sent from the
wiki to sign in, signs up, confirms, signs in, comes back to the wiki, edits its front page, and finds the edit under
their name on RecentChanges (screenshot: test-artifacts/screenshots/recipe-ikiwiki.png); the git commit ikiwiki made
names the same person."""
import os
import re
import subprocess

import pytest
from selenium.webdriver.common.by import By

from chromium_driver import make_chromium, page_wait
from look import ARTIFACTS, fill, screenshot, submit
from mails import outbox_link
from recipes import PASSWORD, Fcgiwrap, expected_user, new_address, recipe_location, recipe_section
from stack import new_stack

WIDTH = 1280


def wiki_setup(folder, origin):
    """The recipe's wiki.setup with this machine's paths and origin in place of /srv/wiki, /var/www/wiki and
    https://example.com."""
    text = re.search(r"```yaml\n(.*?)```", recipe_section("ikiwiki"), re.S).group(1)
    for old, new in (("/srv/wiki", str(folder / "srv")), ("/var/www/wiki", str(folder / "www")), ("https://example.com", origin)):
        assert old in text
        text = text.replace(old, new)
    return text


def make_wiki(folder, origin):
    """The recipe's steps: a source folder with a front page, its git repository, then `ikiwiki --setup`."""
    source = folder / "srv/src"
    source.mkdir(parents=True)
    (source / "index.mdwn").write_text("Welcome.\n")
    # Its first commit needs a name whatever git config the machine has; the wiki's web edits bring their own.
    named = {**os.environ, "GIT_AUTHOR_NAME": "wiki setup", "GIT_AUTHOR_EMAIL": "setup@example.com",
             "GIT_COMMITTER_NAME": "wiki setup", "GIT_COMMITTER_EMAIL": "setup@example.com"}
    subprocess.run(["ikiwiki-makerepo", "git", str(source), str(folder / "srv/repo.git")], check=True, capture_output=True, env=named)
    (folder / "wiki.setup").write_text(wiki_setup(folder, origin))
    built = subprocess.run(["ikiwiki", "--setup", str(folder / "wiki.setup")], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    assert (folder / "www/ikiwiki.cgi").exists()


@pytest.fixture(scope="module")
def fcgiwrap(tmp_path_factory):
    server = Fcgiwrap(tmp_path_factory.mktemp("fcgiwrap"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def wiki_stack(tmp_path_factory, request, fcgiwrap):
    wiki = tmp_path_factory.mktemp("ikiwiki")

    def files(stack):
        make_wiki(wiki, f"http://127.0.0.1:{stack.port}")
        return {"ikiwiki.conf": recipe_location("ikiwiki", {"/var/www/wiki": str(wiki / "www"),
                                                            "unix:/run/fcgiwrap.socket": f"unix:{fcgiwrap.socket}"})}
    for stack in new_stack(tmp_path_factory, request, {"mail.transport": "outbox"}, files):
        stack.wiki = wiki
        yield stack


@pytest.fixture(scope="module")
def driver():
    chromium = make_chromium(f"--window-size={WIDTH},900")
    yield chromium
    chromium.quit()


def loaded_after(driver, action):
    """Runs `action` (a click) and waits for the page it leads to."""
    old = driver.find_element(By.TAG_NAME, "html")
    action()
    page_wait(driver).until(lambda d: d.find_element(By.TAG_NAME, "html") != old)


def test_a_person_signed_in_through_frontdoor_edits_the_wiki_under_their_own_name(wiki_stack, driver):
    stack = wiki_stack
    origin = f"http://127.0.0.1:{stack.port}"
    email = new_address()

    # Not signed in: the wiki sends the browser to Frontdoor's sign-in page.
    driver.get(origin + "/wiki/")
    assert "/account/sign_in?rd=" in driver.current_url and "Welcome." not in driver.page_source
    # Sign up, confirm through the mailed link, sign in: back at the wiki.
    driver.get(stack.base + "/sign_up")
    fill(driver, email=email, password=PASSWORD, password_confirmation=PASSWORD)
    submit(driver)
    driver.get(outbox_link(stack, email, "/confirm?token="))
    driver.get(origin + "/wiki/")
    if "/account/sign_in" in driver.current_url:
        fill(driver, email=email, password=PASSWORD)
        submit(driver)
    page_wait(driver).until(lambda d: d.current_url == origin + "/wiki/")
    assert "Welcome." in driver.find_element(By.ID, "content").text

    # Edit the front page through the wiki's CGI.
    loaded_after(driver, lambda: driver.find_element(By.LINK_TEXT, "Edit").click())
    text = driver.find_element(By.ID, "editcontent")
    text.send_keys("\nA line from the person signed in through Frontdoor.\n")
    loaded_after(driver, lambda: driver.find_element(By.CSS_SELECTOR, "input[type=submit][value='Save Page']").click())
    page_wait(driver).until(lambda d: "A line from the person" in d.find_element(By.ID, "content").text)

    # The wiki says who made the change: RecentChanges names them, and so does the commit.
    user = expected_user(stack, email)
    loaded_after(driver, lambda: driver.find_element(By.LINK_TEXT, "RecentChanges").click())
    change = page_wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".recentchanges .metadata"))[0]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "recipe-ikiwiki.png").write_bytes(screenshot(driver, WIDTH))
    assert change.find_element(By.CSS_SELECTOR, ".pagelinks").text == "index"
    assert change.find_element(By.CSS_SELECTOR, ".committype").text == "web"
    assert change.find_element(By.CSS_SELECTOR, ".committer").text == user
    author = subprocess.run(["git", "-C", str(stack.wiki / "srv/src"), "log", "-1", "--format=%an <%ae>"], capture_output=True,
                            text=True, check=True).stdout.strip()
    assert author == f"{user} <{user}@web>"
