"""The OpenID Connect provider on two hosts sharing one PostgreSQL database (hosts.Pair): a code issued on host A is
redeemed at host B's token endpoint, and the ID token B signs verifies with the JWKS any host publishes (the keys are
shared through the database); a refresh token rotated on A is refreshed again on B, and the token A replaced is
refused on B (reuse detection holds across hosts, and ends the grant on both).

PostgreSQL only (postgresql_only: `make e2e-postgres` runs it).
"""
import pytest

from hosts import Pair
from http_client import Browser
from oidc import (Client, Person, authlib_session, authorization_url, authorize, callback_uri, id_token_claims,
                  oidc_section, token_request, userinfo, PASSWORD)
from stack import running
from users import unique_email

pytestmark = pytest.mark.postgresql_only("two hosts share one PostgreSQL database")


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("oidc-hosts")
    client = Client("app", [callback_uri()], first_party=True)
    pair = Pair(folder, {"confirmation.required": "false", "mail.transport": "outbox",
                         "social.token_key_file": str(folder / "social-tokens.key")},
                extra_yaml=oidc_section(folder, [client]))
    for host in pair.hosts:
        host.clients, host.issuer = {"app": client}, pair.public_url + "/account"
    yield from running(pair)


def person_on(host):
    email = unique_email("oidc-hosts")
    browser = Browser(host)
    answer = browser.post("/sign_up", {"email": email, "password": PASSWORD, "password_confirmation": PASSWORD})
    assert answer.status_code in (200, 303), answer.text[:300]
    person = Person(Browser(host), email)
    person.sign_in()
    return person


def token_at(host, client, data):
    return token_request(host, client, {**data, "_endpoint": host.base + "/oidc/token"})


def code_on(host, client, person):
    session = authlib_session(host, client)
    url, state, nonce, verifier = authorization_url(host, session)
    outcome = authorize(person, url.replace(host.issuer, host.base, 1))
    assert outcome.location and outcome.query["state"] == state, outcome
    return outcome.query["code"], verifier, nonce


def test_a_code_issued_on_a_is_redeemed_on_b(pair):
    client = pair.a.clients["app"]
    person = person_on(pair.a)
    code, verifier, nonce = code_on(pair.a, client, person)
    answer = token_at(pair.b, client, {"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
                                       "redirect_uri": client.redirect_uri})
    assert answer.status_code == 200, answer.text
    tokens = answer.json()
    for host in (pair.a, pair.b):   # either host's JWKS checks what B signed
        claims = id_token_claims(host, client, tokens["id_token"], nonce=nonce)
        assert claims["iss"] == pair.public_url + "/account"
    assert userinfo(pair.a, tokens["access_token"]).json()["email"] == person.email
    again = token_at(pair.a, client, {"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
                                      "redirect_uri": client.redirect_uri})
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant", "used on B, refused on A"


def test_a_refresh_on_b_after_a_rotation_on_a(pair):
    client = pair.a.clients["app"]
    person = person_on(pair.b)
    code, verifier, _ = code_on(pair.b, client, person)
    first = token_at(pair.b, client, {"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
                                      "redirect_uri": client.redirect_uri}).json()
    on_a = token_at(pair.a, client, {"grant_type": "refresh_token", "refresh_token": first["refresh_token"]})
    assert on_a.status_code == 200, on_a.text
    on_b = token_at(pair.b, client, {"grant_type": "refresh_token", "refresh_token": on_a.json()["refresh_token"]})
    assert on_b.status_code == 200, on_b.text
    latest = on_b.json()

    reused = token_at(pair.b, client, {"grant_type": "refresh_token", "refresh_token": first["refresh_token"]})
    assert reused.status_code == 400 and reused.json()["error"] == "invalid_grant"
    ended = token_at(pair.a, client, {"grant_type": "refresh_token", "refresh_token": latest["refresh_token"]})
    assert ended.status_code == 400 and ended.json()["error"] == "invalid_grant", "the reuse on B ended the grant on A"
    assert userinfo(pair.a, latest["access_token"]).status_code == 401
