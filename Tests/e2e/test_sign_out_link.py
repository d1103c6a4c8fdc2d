"""The sign-out link an app can put in its menu: `<base>/sign_out?rd=URL` shows one button (a GET never signs out:
a prefetch, an <img> or a link in a mail cannot end a session), the button's POST carries the CSRF token, and the
browser then returns to `rd` when it is a return target this site allows (public_url's host, redirect.allowed_hosts,
a path here); any other `rd` goes where a sign-out goes without one."""
from urllib.parse import quote

import requests
from selenium.webdriver.common.by import By

from chromium_driver import page_wait
from http_client import Browser
from users import unique_email

PASSWORD = "correct horse battery"
EVIL = "https://evil.example/phish"


def signed_in(stack):
    browser = Browser(stack)
    email = unique_email("out")
    assert browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    return browser, email


def gate_lets_in(stack, browser):
    return browser.get("/auth/check").status_code == 200


def test_chromium_follows_an_apps_sign_out_link_and_comes_back_to_the_app(stack, chromium):
    email = unique_email("out")
    wait = page_wait(chromium)
    chromium.get(stack.base + "/sign_up")
    for field, value in (("email", email), ("password", PASSWORD), ("password_confirmation", PASSWORD)):
        chromium.find_element(By.ID, field).send_keys(value)
    chromium.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait.until(lambda d: f"Signed in as {email}" in d.find_element(By.TAG_NAME, "main").text)
    back = f"http://127.0.0.1:{stack.port}/account/sign_in?from=app"   # public_url's host: an allowed return target
    chromium.get(f"{stack.base}/sign_out?rd={quote(back, safe='')}")
    wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Sign out")
    main = chromium.find_element(By.TAG_NAME, "main")
    assert "Sign out of Frontdoor?" in main.text and f"Signed in as {email}" in main.text, main.text
    assert len(main.find_elements(By.CSS_SELECTOR, "button")) == 1
    token = chromium.get_cookie("frontdoor_session")["value"]
    assert requests.get(stack.base + "/auth/check", cookies={"frontdoor_session": token}, timeout=60).status_code == 200, \
        "showing the page signed nobody out"
    main.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait.until(lambda d: d.current_url == back)
    assert requests.get(stack.base + "/auth/check", cookies={"frontdoor_session": token}, timeout=60).status_code == 401
    assert chromium.get_cookie("frontdoor_session") is None or not chromium.get_cookie("frontdoor_session")["value"]


def test_a_cross_site_rd_is_refused_on_the_page_and_after_the_post(stack):
    browser, _ = signed_in(stack)
    page = browser.get("/sign_out?rd=" + quote(EVIL, safe=""))
    # The form's rd and the Cancel link name the home page instead (the language switcher's own return field holds this
    # page's URI, evil.example only inside its query).
    main = page.text.split("<main", 1)[1].split("</main>", 1)[0]
    assert page.status_code == 200 and "evil.example" not in main, main
    assert 'name="rd" value="/account/"' in main and 'href="/account/"' in main
    assert gate_lets_in(stack, browser)
    out = browser.post("/sign_out", {"rd": EVIL})
    assert out.status_code == 303 and out.headers["Location"] == "/account/sign_in", out.headers
    assert not gate_lets_in(stack, browser)


def test_tricky_rds_are_refused_and_a_path_here_is_followed(stack):
    for rd in ("//evil.example/", "/\\evil.example", "https:evil.example", "https://127.0.0.1@evil.example/",
               "%2F%2Fevil.example", "javascript:alert(1)"):
        browser, _ = signed_in(stack)
        out = browser.post("/sign_out", {"rd": rd})
        assert out.status_code == 303 and out.headers["Location"] == "/account/sign_in", (rd, out.headers)
    browser, _ = signed_in(stack)
    assert browser.post("/sign_out", {"rd": "/account/sign_up"}).headers["Location"] == "/account/sign_up"


def test_the_page_never_signs_out_and_the_post_needs_the_token(stack):
    browser, _ = signed_in(stack)
    for _ in range(2):
        assert browser.get("/sign_out?rd=/account/").status_code == 200
    assert browser.get("/sign_out", headers={"Purpose": "prefetch"}).status_code == 200
    assert gate_lets_in(stack, browser)
    refused = browser.post("/sign_out", {"rd": "/account/"}, csrf=False)
    assert refused.status_code == 403 and gate_lets_in(stack, browser)


def test_signed_out_already_the_link_goes_straight_on(stack):
    out = Browser(stack).get("/sign_out?rd=" + quote("/account/sign_up", safe=""))
    assert out.status_code == 302 and out.headers["Location"] == "/account/sign_up"
    refused = Browser(stack).get("/sign_out?rd=" + quote(EVIL, safe=""))
    assert refused.status_code == 302 and refused.headers["Location"] == "/account/sign_in"
