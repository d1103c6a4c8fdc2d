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


def signed_up_and_in(driver, stack, email, to):
    """Signs up as `email` in the browser, confirms through the mailed link, signs in, and ends at `to`."""
    driver.get(stack.base + "/sign_up")
    fill(driver, email=email, password=PASSWORD, password_confirmation=PASSWORD)
    submit(driver)
    driver.get(outbox_link(stack, email, "/confirm?token="))
    driver.get(to)
    if "/account/sign_in" in driver.current_url:
        fill(driver, email=email, password=PASSWORD)
        submit(driver)
    page_wait(driver).until(lambda d: d.current_url == to)


def edit_front_page(driver, origin, line):
    """Adds `line` to the wiki's front page through its Edit link and waits for the saved page."""
    driver.get(origin + "/wiki/")
    loaded_after(driver, lambda: driver.find_element(By.LINK_TEXT, "Edit").click())
    driver.find_element(By.ID, "editcontent").send_keys(f"\n{line}\n")
    loaded_after(driver, lambda: driver.find_element(By.CSS_SELECTOR, "input[type=submit][value='Save Page']").click())
    page_wait(driver).until(lambda d: line in d.find_element(By.ID, "content").text)


def last_change(driver, origin):
    """RecentChanges' newest entry (a WebElement), opened through the wiki's own link."""
    loaded_after(driver, lambda: driver.find_element(By.LINK_TEXT, "RecentChanges").click())
    return page_wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".recentchanges .metadata"))[0]


def last_author(stack):
    return subprocess.run(["git", "-C", str(stack.wiki / "srv/src"), "log", "-1", "--format=%an <%ae>"], capture_output=True,
                          text=True, check=True).stdout.strip()


def test_a_person_signed_in_through_frontdoor_edits_the_wiki_under_their_own_name(wiki_stack, driver):
    stack = wiki_stack
    origin = f"http://127.0.0.1:{stack.port}"
    email = new_address()

    # Not signed in: the wiki sends the browser to Frontdoor's sign-in page.
    driver.get(origin + "/wiki/")
    assert "/account/sign_in?rd=" in driver.current_url and "Welcome." not in driver.page_source
    signed_up_and_in(driver, stack, email, origin + "/wiki/")
    assert "Welcome." in driver.find_element(By.ID, "content").text

    edit_front_page(driver, origin, "A line from the person signed in through Frontdoor.")

    # The wiki says who made the change: RecentChanges names them, and so does the commit.
    user = expected_user(stack, email)
    change = last_change(driver, origin)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "recipe-ikiwiki.png").write_bytes(screenshot(driver, WIDTH))
    assert change.find_element(By.CSS_SELECTOR, ".pagelinks").text == "index"
    assert change.find_element(By.CSS_SELECTOR, ".committype").text == "web"
    assert change.find_element(By.CSS_SELECTOR, ".committer").text == user
    assert last_author(stack) == f"{user} <{user}@web>"


def test_the_wiki_keeps_its_own_session_until_its_logout_as_the_recipe_warns(wiki_stack, driver):
    """docs/recipes.md's warning, shown: ikiwiki asks httpauth only for a session that has no name yet, so a second
    person signing in to Frontdoor in the same browser edits under the first one's name until the wiki's own Logout
    (Preferences), which the recipe tells people to use."""
    stack = wiki_stack
    origin = f"http://127.0.0.1:{stack.port}"
    driver.get(origin + "/account/sign_in")
    driver.delete_all_cookies()
    first, second = new_address(), new_address()
    signed_up_and_in(driver, stack, first, origin + "/wiki/")
    edit_front_page(driver, origin, "The first person's line.")
    assert last_change(driver, origin).find_element(By.CSS_SELECTOR, ".committer").text == expected_user(stack, first)

    # The first person signs out of Frontdoor (the home page's button); the second signs in in the same browser.
    driver.get(stack.base + "/")
    submit(driver, "main form[action$='/sign_out'] button[type=submit]")
    assert driver.get_cookie("frontdoor_session") is None
    signed_up_and_in(driver, stack, second, origin + "/wiki/")
    edit_front_page(driver, origin, "The second person's first line.")
    assert last_author(stack) == f"{expected_user(stack, first)} <{expected_user(stack, first)}@web>", \
        "ikiwiki now re-reads REMOTE_USER on every request: drop the warning from docs/recipes.md"

    # The wiki's Logout ends its session; the next edit is under the second person's name.
    driver.get(origin + "/wiki/ikiwiki.cgi?do=prefs")
    loaded_after(driver, lambda: driver.find_element(By.CSS_SELECTOR, "input[type=submit][value='Logout']").click())
    edit_front_page(driver, origin, "The second person's second line.")
    assert last_change(driver, origin).find_element(By.CSS_SELECTOR, ".committer").text == expected_user(stack, second)
    assert last_author(stack) == f"{expected_user(stack, second)} <{expected_user(stack, second)}@web>"
