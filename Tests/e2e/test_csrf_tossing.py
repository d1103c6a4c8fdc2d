"""CSRF against cookie tossing, through nginx: a sibling subdomain (docs/protect-apps.md's cross-subdomain layout) or a plain-http
network attacker can set a cookie for this host's name with Domain= and a longer Path, which the browser then sends
first. The attacker fetches a signed-out page once, keeps its pair (binding cookie, form token), plants the cookie in
the victim's browser and posts the victim's forms with the token."""
import re

import pytest
import requests

from http_client import CSRF, REQUEST_TIMEOUT, Browser, page_text
from social import finish, social_start, through_provider
from users import unique_email

PASSWORD = "correct horse battery"


def signed_up(stack, base=None, verify=True):
    browser = Browser(stack, base=base, verify=verify)
    email = unique_email("Toss")
    assert browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    return browser, email


def attackers_pair(base, verify=True):
    """(cookie name, binding, token) of one signed-out page, as the attacker's own browser gets them."""
    page = requests.get(base + "/sign_in", timeout=REQUEST_TIMEOUT, verify=verify)
    name, value = next((c.name, c.value) for c in page.cookies if c.name.endswith("frontdoor_csrf"))
    return name, value, CSRF.search(page.text).group(1)


def raw_post(base, path, cookie, data, verify=True):
    return requests.post(base + path, data=data, headers={"Cookie": cookie}, timeout=REQUEST_TIMEOUT,
                         allow_redirects=False, verify=verify)


def display_name_field(browser):
    return re.search(r'<input id="display_name"[^>]*>', browser.get("/settings").text).group(0)


def test_a_signed_in_form_with_a_planted_pre_session_pair_is_refused(stack):
    victim, _ = signed_up(stack)
    _, binding, token = attackers_pair(stack.base)
    session = victim.cookie("frontdoor_session")
    sent = f"frontdoor_csrf={binding}; frontdoor_session={session}"
    response = raw_post(stack.base, "/settings", sent, {"display_name": "Mallory", "csrf_token": token})
    assert response.status_code == 403
    assert "Mallory" not in display_name_field(victim)
    # The victim's own page still posts.
    assert victim.post("/settings", {"display_name": "Ann"}).status_code == 303
    assert 'value="Ann"' in display_name_field(victim)


@pytest.mark.filterwarnings("ignore::urllib3.exceptions.InsecureRequestWarning")  # the test server's certificate is self-signed
def test_over_https_the_binding_is_host_only_and_a_tossed_one_is_not_read(stack):
    base = stack.https_base
    _, attacker_email = signed_up(stack, base=base, verify=False)
    name, binding, token = attackers_pair(base, verify=False)
    assert name == "__Host-frontdoor_csrf"
    victim = Browser(stack, base=base, verify=False)
    header = next(h for h in victim.get("/sign_in").raw.headers.getlist("Set-Cookie") if h.startswith("__Host-frontdoor_csrf="))
    assert "Path=/;" in header and "Secure" in header and "Domain=" not in header
    own = victim.cookie("__Host-frontdoor_csrf")
    # A sibling can only set the plain name (browsers refuse a __Host- cookie with Domain=): a login CSRF into the
    # attacker's account fails.
    sent = f"frontdoor_csrf={binding}; __Host-frontdoor_csrf={own}"
    login = raw_post(base, "/sign_in", sent, {"email": attacker_email, "password": PASSWORD, "csrf_token": token}, verify=False)
    assert login.status_code == 403
    assert not any(h.startswith(("frontdoor_session=", "__Host-frontdoor_session=")) for h in login.raw.headers.getlist("Set-Cookie"))


def test_two_cookies_of_the_bindings_name_are_refused_over_plain_http(stack):
    _, attacker_email = signed_up(stack)
    _, binding, token = attackers_pair(stack.base)
    victim = Browser(stack)
    victim.get("/sign_in")
    sent = f"frontdoor_csrf={binding}; frontdoor_csrf={victim.cookie('frontdoor_csrf')}"
    login = raw_post(stack.base, "/sign_in", sent, {"email": attacker_email, "password": PASSWORD, "csrf_token": token})
    assert login.status_code == 403
    assert not any(h.startswith(("frontdoor_session=", "__Host-frontdoor_session=")) for h in login.raw.headers.getlist("Set-Cookie"))


def on_https(stack, url):
    """`url` (on the stack's http base, as the provider redirects to public_url) on its https server instead."""
    return stack.https_base + url.split("/account", 1)[1]


@pytest.mark.filterwarnings("ignore::urllib3.exceptions.InsecureRequestWarning")
def test_a_tossed_social_binding_does_not_finish_the_attackers_flow_in_the_victims_browser(social, oauth_provider):
    base = social.https_base
    victim, victim_email = signed_up(social, base=base, verify=False)
    oauth_provider.next_user(sub="attacker-sub", email=unique_email("attacker"), email_verified=True, name="Attacker")
    attacker = Browser(social, base=base, verify=False)
    callback = on_https(social, through_provider(attacker, social_start(attacker, "corp")))
    binding = next(c.value for c in attacker.session.cookies if c.name.endswith("frontdoor_oauth"))
    accounts, identities_before = social.count("account"), social.count("socialIdentity")
    # The sibling tosses the attacker's binding under the only name it can set, then sends the victim to the callback.
    sent = f"frontdoor_oauth={binding}; __Host-frontdoor_session={victim.cookie('__Host-frontdoor_session')}"
    answer = requests.get(callback, headers={"Cookie": sent}, timeout=REQUEST_TIMEOUT, allow_redirects=False, verify=False)
    assert answer.status_code in (302, 303) and answer.headers["Location"].endswith("/sign_in")
    assert not any(h.startswith(("frontdoor_session=", "__Host-frontdoor_session=")) for h in answer.raw.headers.getlist("Set-Cookie")), "no sign-in"
    assert not any(code["redeemed"] for code in oauth_provider.code_list()), "the attacker's code was not even redeemed"
    assert (social.count("account"), social.count("socialIdentity")) == (accounts, identities_before)
    assert victim_email in victim.get("/").text, "the victim is still signed in as themself"
    assert attacker.cookie("__Host-frontdoor_oauth") == binding, "over https the binding is a __Host- cookie"
    # In the attacker's own browser the same callback works: the __Host- binding makes the round trip over https.
    assert "Signed in as" in page_text(finish(attacker, callback))


@pytest.mark.filterwarnings("ignore::urllib3.exceptions.InsecureRequestWarning")
def test_over_https_a_tossed_session_cookie_does_not_open_the_gate_as_the_attacker(stack):
    base = stack.https_base

    def check(cookie):
        return requests.get(base + "/auth/check", headers={"Cookie": cookie}, timeout=REQUEST_TIMEOUT,
                            allow_redirects=False, verify=False)

    attacker, _ = signed_up(stack, base=base, verify=False)
    name, planted = next((c.name, c.value) for c in attacker.session.cookies if c.name.endswith("frontdoor_session"))
    attacker_id = check(f"{name}={planted}").headers["Remote-User"]
    victim, _ = signed_up(stack, base=base, verify=False)
    # A sibling can set only the plain name (browsers refuse a __Host- cookie with Domain=): it is not the session.
    tossed = check(f"frontdoor_session={planted}")
    assert tossed.status_code == 401 and tossed.headers.get("Remote-User") != attacker_id
    own = victim.cookie("__Host-frontdoor_session")
    assert own, "over https the session cookie is a __Host- cookie"
    # Sent first, beside the victim's own: the gate answers as the victim.
    both = check(f"frontdoor_session={planted}; __Host-frontdoor_session={own}")
    assert both.status_code == 200 and both.headers["Remote-User"] not in ("", attacker_id)
    assert victim.get("/auth/check").headers["Remote-User"] == both.headers["Remote-User"]
