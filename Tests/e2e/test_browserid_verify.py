"""BrowserID through nginx with PyBrowserID 0.14 as the outside client: Frontdoor as identity provider (its
certificates verified by PyBrowserID's LocalVerifier and RemoteVerifier) and as verifier (assertions PyBrowserID
makes for a test identity provider on loopback, good and bad)."""
import json
import subprocess
import time

import pytest
import requests
from browserid import LocalVerifier, RemoteVerifier, jwt
from browserid.errors import ConnectionError as UnreachableError, TrustError
from browserid.supportdoc import SupportDocumentManager
from browserid.tests.support import get_keypair, make_assertion

from stack import BIN
from users import confirmed_user
from idp_server import RSA_KEYS

AUD = "https://rp.example.com"
TIMEOUT = 30  # seconds: only a bound for a request that never ends, generous for a loaded machine


def now_ms(offset=0):
    return int((time.time() + offset) * 1000)


def certify(browser, email, public_key, ephemeral=False):
    return browser.post("/browserid/certify", {"email": email, "pubkey": json.dumps(public_key),
                                               "ephemeral": "true" if ephemeral else "false"})


def backed_assertion(certificate, private_key, audience=AUD, exp=None):
    return certificate + "~" + jwt.generate({"aud": audience, "exp": exp or now_ms(120)}, private_key)


def payload(token):
    return jwt.parse(token).payload


class FromRunningServer(SupportDocumentManager):
    """PyBrowserID's document manager, fetching Frontdoor's real support document over http (it only knows https)."""

    def __init__(self, stack):
        super().__init__()
        self.stack = stack
        self.fetched = []

    def fetch_support_document(self, hostname):
        if hostname != f"127.0.0.1:{self.stack.port}":  # the email's own domain (example.com): no such provider here
            raise UnreachableError(hostname)
        response = requests.get(f"http://{hostname}/.well-known/browserid", timeout=TIMEOUT)
        self.fetched.append(response.status_code)
        return response.json()


def verify(stack, assertion, audience=AUD, **kw):
    return requests.post(stack.base + "/verify", data={"assertion": assertion, "audience": audience}, timeout=TIMEOUT, **kw)


def test_the_support_document_and_the_protocol_pages(bid_stack):
    document = requests.get(f"http://127.0.0.1:{bid_stack.port}/.well-known/browserid", timeout=TIMEOUT)
    assert document.status_code == 200 and document.headers["Content-Type"] == "application/json"
    body = document.json()
    assert body["public-key"]["algorithm"] == "RS" and body["public-key"]["e"] == "65537"
    assert int(body["public-key"]["n"]).bit_length() == 2048
    assert body["keys"] == [body["public-key"]]
    provision = requests.get(f"http://127.0.0.1:{bid_stack.port}{body['provisioning']}", timeout=TIMEOUT)
    assert provision.status_code == 200 and "X-Frame-Options" not in provision.headers
    assert "frame-ancestors 'self';" in provision.headers["Content-Security-Policy"]
    authentication = requests.get(f"http://127.0.0.1:{bid_stack.port}{body['authentication']}", timeout=TIMEOUT, allow_redirects=False)
    assert authentication.status_code == 302 and authentication.headers["Location"].endswith("/account/sign_in")
    dialog = requests.get(bid_stack.base + "/browserid/sign_in", timeout=TIMEOUT)
    assert dialog.status_code == 200 and dialog.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in dialog.headers["Content-Security-Policy"]


def test_frontdoor_certificates_pass_pybrowserids_local_and_remote_verifiers(bid_stack):
    browser, email = confirmed_user(bid_stack)
    public, private = get_keypair(email)  # a DS128 user key, as Persona's dialog made them
    answer = certify(browser, email, public)
    assert answer.status_code == 200, answer.text
    certificate = answer.json()["certificate"]
    claims = payload(certificate)
    issuer = f"127.0.0.1:{bid_stack.port}"
    assert claims["iss"] == issuer and claims["principal"]["email"] == email
    assert claims["exp"] - claims["iat"] == 24 * 3600 * 1000
    assert abs(answer.json()["server_time"] - now_ms()) < 60_000
    short = payload(certify(browser, email, public, ephemeral=True).json()["certificate"])
    assert short["exp"] - short["iat"] == 3600 * 1000

    assertion = backed_assertion(certificate, private)
    documents = FromRunningServer(bid_stack)
    local = LocalVerifier([AUD], trusted_secondaries=[issuer], supportdocs=documents).verify(assertion)
    assert local["status"] == "okay" and local["email"] == email and local["issuer"] == issuer
    assert documents.fetched == [200]
    with pytest.raises(TrustError):  # not trusted as a secondary: PyBrowserID refuses, as it should
        LocalVerifier([AUD], trusted_secondaries=[], supportdocs=FromRunningServer(bid_stack)).verify(assertion)
    remote = RemoteVerifier([AUD], verifier_url=bid_stack.base + "/verify").verify(assertion)
    assert remote["status"] == "okay" and remote["email"] == email and remote["audience"] == AUD


def test_certify_refuses_strangers_other_addresses_bad_keys_and_forged_forms(bid_stack):
    browser, email = confirmed_user(bid_stack)
    other, other_email = confirmed_user(bid_stack)
    public, _ = get_keypair(email)
    assert certify(browser, other_email, public).status_code == 403
    assert certify(browser, "nobody@example.com", public).status_code == 403
    bad = browser.post("/browserid/certify", {"email": email, "pubkey": '{"algorithm":"RS","n":"15","e":"3"}'})
    assert bad.status_code == 400 and bad.json() == {"error": "bad_key"}
    assert browser.post("/browserid/certify", {"email": email, "pubkey": json.dumps(public), "csrf_token": "forged"}).status_code == 403
    stranger = requests.post(bid_stack.base + "/browserid/certify", data={"email": email, "pubkey": json.dumps(public)}, timeout=TIMEOUT)
    assert stranger.status_code == 401 and stranger.json() == {"error": "not_signed_in"}


def test_keys_rotate_keeps_earlier_certificates_verifiable(bid_stack):
    browser, email = confirmed_user(bid_stack)
    public, private = get_keypair(email)
    before = certify(browser, email, public).json()["certificate"]
    old_key = requests.get(f"http://127.0.0.1:{bid_stack.port}/.well-known/browserid", timeout=TIMEOUT).json()["public-key"]
    run = lambda *args: subprocess.run([BIN, "keys", *args, "--config", str(bid_stack.config_path)], capture_output=True,
                                       text=True, timeout=60, cwd=bid_stack.folder)
    shown = run("show")
    assert shown.returncode == 0 and old_key["n"] in shown.stdout and "current" in shown.stdout
    assert "PRIVATE" not in shown.stdout
    rotated = run("rotate")
    assert rotated.returncode == 0 and "now current" in rotated.stdout, rotated.stderr
    document = requests.get(f"http://127.0.0.1:{bid_stack.port}/.well-known/browserid", timeout=TIMEOUT).json()
    assert document["public-key"] != old_key and document["keys"] == [document["public-key"], old_key]
    after = certify(browser, email, public).json()["certificate"]
    for certificate in (before, after):
        assert verify(bid_stack, backed_assertion(certificate, private)).json()["status"] == "okay"
    assert "retired" in run("show").stdout


def test_verify_speaks_personas_contract(bid_stack):
    assertion = make_assertion("alice@idp.test", AUD, issuer="idp.test")
    as_form = verify(bid_stack, assertion)
    assert as_form.status_code == 200 and as_form.headers["Content-Type"] == "application/json"
    body = as_form.json()
    assert body["status"] == "okay" and body["email"] == "alice@idp.test" and body["issuer"] == "idp.test"
    assert body["audience"] == AUD and body["expires"] > now_ms()
    as_json = requests.post(bid_stack.base + "/verify", json={"assertion": assertion, "audience": AUD + ":443"}, timeout=TIMEOUT)
    assert as_json.json()["status"] == "okay" and as_json.json()["audience"] == AUD + ":443", "the audience is echoed as given"
    missing = requests.post(bid_stack.base + "/verify", data={"assertion": assertion}, timeout=TIMEOUT)
    assert missing.status_code == 400 and missing.json()["status"] == "failure"
    wrong_type = requests.post(bid_stack.base + "/verify", data="assertion=x", headers={"Content-Type": "text/plain"}, timeout=TIMEOUT)
    assert wrong_type.status_code == 415
    get = requests.get(bid_stack.base + "/verify", timeout=TIMEOUT)
    assert get.status_code == 405 and get.headers["Allow"] == "POST"


@pytest.mark.parametrize("make, audience, reason", [
    (lambda: make_assertion("bob@delegating.test", AUD, issuer="idp.test"), AUD, None),
    (lambda: make_assertion("carol@other.test", AUD, issuer="idp.test"), AUD, "issuer 'idp.test' may not speak for emails from 'other.test'"),
    (lambda: make_assertion("alice@idp.test", AUD, issuer="idp.test", exp=now_ms(-10)), AUD, "assertion has expired"),
    (lambda: make_assertion("alice@idp.test", AUD, issuer="idp.test", assertion_sig=b"forged"), AUD, "invalid signature"),
    (lambda: make_assertion("alice@idp.test", AUD, issuer="idp.test", certificate_sig=b"forged"), AUD, "bad signature in chain"),
    (lambda: make_assertion("alice@idp.test", AUD, issuer="idp.test"), "https://evil.example.com", "audience mismatch: domain mismatch"),
    (lambda: make_assertion("alice@idp.test", AUD, issuer="idp.test"), "http://rp.example.com", "audience mismatch: scheme mismatch"),
    (lambda: make_assertion("alice@idp.test", AUD, issuer="idp.test"), "rp.example.com:8443", "audience mismatch: port mismatch"),
    (lambda: make_assertion("alice@idp.test", AUD, issuer="idp.test"), "rp.example.com", None),
    (lambda: make_assertion("dan@disabled.test", AUD, issuer="disabled.test"), AUD, "can't get public key for disabled.test"),
    (lambda: make_assertion("eve@moved.test", AUD, issuer="moved.test"), AUD, "can't get public key for moved.test"),
    (lambda: make_assertion("fay@login.persona.org", AUD), AUD,
     "can't get public key for login.persona.org: the support document could not be fetched"),
    # Issue 22: RS64 is never accepted, RS128 only because the stack lists it in browserid.legacy_algorithms.
    (lambda: make_assertion("gus@rs64.test", AUD, issuer="rs64.test", issuer_keypair=RSA_KEYS["rs64.test"]), AUD,
     "certificate signed with RS64, an algorithm this verifier does not accept"),
    (lambda: make_assertion("hal@rs128.test", AUD, issuer="rs128.test", issuer_keypair=RSA_KEYS["rs128.test"]), AUD, None),
])
def test_pybrowserid_assertions_for_a_test_identity_provider(bid_stack, test_idp, make, audience, reason):
    body = verify(bid_stack, make(), audience).json()
    if reason is None:
        assert body["status"] == "okay", body
    else:
        assert body["status"] == "failure" and body["reason"].startswith(reason), body


def test_a_redirect_is_not_followed_and_explained_in_the_log_only(bid_stack, test_idp):
    body = verify(bid_stack, make_assertion("eve@moved.test", AUD, issuer="moved.test")).json()
    assert body["reason"] == "can't get public key for moved.test: the support document could not be fetched"
    assert ("moved.test", "/.well-known/browserid") in test_idp.requests
    assert "support document for moved.test not fetched: HTTP status 302" in bid_stack.app_log_text()


def test_legacy_algorithms_are_refused_where_not_listed(stack):
    """The plain stack lists no legacy algorithm: PyBrowserID's DS128 certificates are refused before any fetch."""
    for email, issuer, keypair in [("alice@idp.test", "idp.test", None), ("hal@rs128.test", "rs128.test", RSA_KEYS["rs128.test"])]:
        body = verify(stack, make_assertion(email, AUD, issuer=issuer, issuer_keypair=keypair)).json()
        signed = "DS128" if keypair is None else "RS128"
        assert body == {"status": "failure", "reason": f"certificate signed with {signed}, an algorithm this verifier does not accept"}
