"""Passkeys on two hosts sharing one PostgreSQL database (hosts.py): a challenge begun on host A is finished on host
B, for adding a passkey and for signing in with it, and the answer posted again to the other host is refused (the
challenge row, not a host's memory, is the state, and its single use is one conditional UPDATE). The hosts' public_url
is 127.0.0.1 (no browser here: a software authenticator answers, with that origin and RP ID).

PostgreSQL only, like test_several_hosts.py.
"""
import pytest

from hosts import PASSWORD, Pair, on
from http_client import Browser
from soft_authenticator import SoftAuthenticator
from stack import running
from users import unique_email

pytestmark = pytest.mark.postgresql_only("two hosts share one PostgreSQL database")


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("passkey-hosts")
    # The token key file is shared, as an operator copies it to every host.
    yield from running(Pair(folder, {"confirmation.required": "false", "mail.transport": "outbox",
                                     "social.token_key_file": str(folder / "social-tokens.key")}))


def options(browser, path, token):
    answer = browser.post(path, {"csrf_token": token}, csrf=False)
    assert answer.status_code == 200, answer.text
    return answer.json()["publicKey"]


def test_a_challenge_begun_on_one_host_is_finished_on_the_other_once(pair):
    at_a = Browser(pair.a)
    email = unique_email("passkey-hosts")
    assert at_a.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD}).status_code == 303
    at_b = on(at_a, pair.b)
    authenticator = SoftAuthenticator(pair.public_url, "127.0.0.1")

    # Added: options from A, the answer to B.
    token = at_a.token("/settings/passkeys")
    created = authenticator.create(options(at_a, "/passkeys/register/options", token))
    added = at_b.post("/passkeys/register", {"csrf_token": token, "name": "Two hosts", "credential": created}, csrf=False)
    assert added.status_code == 200, added.text
    assert pair.store.query("SELECT name FROM passkey") == [("Two hosts",)]

    # Signed in: options from B, the answer to A; the same answer again to B is refused.
    browser_b = Browser(pair.b)
    browser_a = on(browser_b, pair.a)
    token = browser_b.token("/sign_in")
    answer = authenticator.get(options(browser_b, "/passkeys/sign_in/options", token))
    signed_in = browser_a.post("/passkeys/sign_in", {"csrf_token": token, "credential": answer}, csrf=False)
    assert signed_in.status_code == 200, signed_in.text
    assert email in browser_a.get("/settings").text
    # The same browser (its binding, and now its session's form token) sends it again, to B.
    replayed = browser_b.post("/passkeys/sign_in", {"csrf_token": browser_b.token("/settings/passkeys"), "credential": answer},
                              csrf=False)
    assert replayed.status_code == 400 and replayed.json()["error"] == "passkey_challenge_invalid"
    assert pair.store.query("SELECT COUNT(*) FROM passkeyChallenge WHERE usedAt IS NOT NULL")[0][0] == 2
