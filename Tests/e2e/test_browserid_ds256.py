"""A DS256 assertion through `/verify` behind nginx: DSA with a 2048-bit p and a 256-bit q (SHA-256), BrowserID's
legacy DSA algorithm, accepted only where `browserid.legacy_algorithms` lists it.

ds256.test (idp_server.py, on loopback) publishes a DS256 key and signs the certificate of a DS256 user key, which
signs the assertion: both signatures of the chain are DS256. The stack lists DS256 alone, so neither DS128 nor RS128
helps it pass. A tampered assertion (payload or signature) and a tampered certificate are refused with the verifier's
reasons; the plain stack (no legacy algorithm) refuses the good assertion before fetching anything.
"""
import base64
import json

import pytest
from browserid import jwt
from browserid.tests.support import make_assertion

from idp_server import ds256_issuer_key, ds256_keypair
from stack import new_stack
from test_browserid_verify import AUD, now_ms, verify

EMAIL = "dora@ds256.test"


@pytest.fixture(scope="module")
def ds256_stack(tmp_path_factory, request, test_idp):
    """The test identity providers reachable over http by name; DS256 the one legacy algorithm accepted."""
    yield from new_stack(tmp_path_factory, request, {"mail.transport": "outbox", "browserid.http_hosts": test_idp.http_hosts,
                                                     "browserid.fetch_allowed_hosts": test_idp.allowed_hosts,
                                                     "browserid.legacy_algorithms": "DS256"})


def ds256_assertion(email=EMAIL, audience=AUD):
    """An assertion for `email` at `audience`: a new DS256 user key, certified by ds256.test's DS256 key."""
    return make_assertion(email, audience, issuer="ds256.test", exp=now_ms(120), email_keypair=ds256_keypair(),
                          issuer_keypair=ds256_issuer_key())


def segments(token):
    return token.split(".")


def decoded(segment):
    return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))


def encoded(value):
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


def with_payload(token, change):
    """`token` (a JWS) with its payload changed by `change` and its signature kept."""
    header, body, signature = segments(token)
    claims = decoded(body)
    change(claims)
    return ".".join((header, encoded(claims), signature))


def test_a_ds256_assertion_is_okay(ds256_stack, test_idp):
    assertion = ds256_assertion()
    certificate, signed = assertion.split("~")
    assert decoded(segments(certificate)[0])["alg"] == "DS256" and decoded(segments(signed)[0])["alg"] == "DS256"
    assert jwt.parse(certificate).payload["public-key"]["algorithm"] == "DS"
    answer = verify(ds256_stack, assertion)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["status"] == "okay", body
    assert (body["email"], body["issuer"], body["audience"]) == (EMAIL, "ds256.test", AUD)
    assert body["expires"] > now_ms()
    assert ("ds256.test", "/.well-known/browserid") in test_idp.requests, "ds256.test's key was fetched"


EVIL = "https://evil.example.com"


@pytest.mark.parametrize("tamper, audience, reason", [
    # Another site's audience written into the assertion after the user key signed it, verified for that site.
    (lambda certificate, signed: (certificate, with_payload(signed, lambda c: c.update(aud=EVIL))), EVIL, "invalid signature"),
    # The assertion's life stretched after signing.
    (lambda certificate, signed: (certificate, with_payload(signed, lambda c: c.update(exp=now_ms(3600)))), AUD,
     "invalid signature"),
    # The assertion's DS256 signature with one byte flipped (r and s are 32 bytes each).
    (lambda certificate, signed: (certificate, flipped(signed)), AUD, "invalid signature"),
    # The certificate's principal changed after ds256.test signed it: another address of the same domain.
    (lambda certificate, signed: (with_payload(certificate, lambda c: c["principal"].update(email="mallory@ds256.test")), signed),
     AUD, "bad signature in chain"),
], ids=["audience", "expiry", "signature", "certificate"])
def test_a_tampered_ds256_assertion_is_refused(ds256_stack, test_idp, tamper, audience, reason):
    certificate, signed = ds256_assertion().split("~")
    certificate, signed = tamper(certificate, signed)
    body = verify(ds256_stack, certificate + "~" + signed, audience).json()
    assert body["status"] == "failure" and body["reason"].startswith(reason), body
    assert "email" not in body


def flipped(token):
    """`token` with one byte in the middle of its signature inverted."""
    header, body, signature = segments(token)
    raw = bytearray(base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4)))
    assert len(raw) == 64, "DS256: r and s of 32 bytes each"
    raw[len(raw) // 2] ^= 0xFF
    return ".".join((header, body, base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()))


def test_ds256_is_refused_where_not_listed(stack):
    """The plain stack lists no legacy algorithm: the same kind of assertion is refused before any fetch."""
    body = verify(stack, ds256_assertion()).json()
    assert body == {"status": "failure", "reason": "certificate signed with DS256, an algorithm this verifier does not accept"}
