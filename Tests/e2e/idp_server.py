"""A test BrowserID identity provider (a fakeserver.FakeServer) on a free loopback port: serves /.well-known/browserid
by Host header.

idp.test publishes PyBrowserID's deterministic DS128 key for "idp.test" (so browserid.tests.support.make_assertion
with issuer="idp.test" makes assertions it vouches for); delegating.test hands authority to idp.test;
disabled.test has switched BrowserID off; moved.test answers with a redirect. rs64.test and rs128.test publish
RSA keys of 512 and 1024 bits (RSA_KEYS: their key pairs, for make_assertion's issuer_keypair); ds256.test publishes a
DSA key of 2048/256 bits (ds256_issuer_key(); ds256_keypair() makes the users' DS256 keys on the same parameters).
"""
import functools
import hashlib
import subprocess

from browserid import jwt
from browserid.tests.support import get_keypair
from cryptography.hazmat.primitives.asymmetric import dsa
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from flask import abort, jsonify, redirect, request

from fakeserver import FakeServer

HOSTS = ("idp.test", "delegating.test", "disabled.test", "moved.test", "rs64.test", "rs128.test", "ds256.test")


def rsa_keypair(alg, bits):
    """(public key JSON, PyBrowserID private key signing as `alg`) of a new RSA key of `bits`; openssl makes it
    (cryptography refuses 512 bits). PyBrowserID's own RS64/RS128 classes expect 1024/1280-bit keys; BrowserID's
    (and Frontdoor's) RS64 is 512 bits and RS128 1024, so the key class is made for the size."""
    pem = subprocess.run(["openssl", "genrsa", str(bits)], capture_output=True, check=True, timeout=60).stdout
    numbers = load_pem_private_key(pem, None).private_numbers()
    n, e = str(numbers.public_numbers.n), str(numbers.public_numbers.e)
    key_class = type(alg + "Key", (jwt.RSKey,), {"DIGESTSIZE": bits // 4, "HASHNAME": "sha256", "HASHMOD": hashlib.sha256})
    return {"algorithm": "RS", "n": n, "e": e}, key_class({"algorithm": "RS", "n": n, "e": e, "d": str(numbers.d)})


RSA_KEYS = {"rs64.test": rsa_keypair("RS64", 512), "rs128.test": rsa_keypair("RS128", 1024)}


@functools.cache
def ds256_parameters():
    """DSA parameters with p of 2048 bits and q of 256 (BrowserID's DS256), made once per test process when first
    needed (about half a second of CPU), not at import."""
    return dsa.generate_parameters(2048).parameter_numbers()


def ds256_keypair():
    """(public key JSON, PyBrowserID DS256Key) of a new DSA key on ds256_parameters(), in BrowserID's form: p, q, g and
    y in hex (PyBrowserID's get_keypair makes only DS128 keys)."""
    group = ds256_parameters()
    numbers = group.parameters().generate_private_key().private_numbers()
    assert group.q.bit_length() == 256 and group.p.bit_length() == 2048
    public = {"algorithm": "DS", "p": format(group.p, "x"), "q": format(group.q, "x"), "g": format(group.g, "x"),
              "y": format(numbers.public_numbers.y, "x")}
    return public, jwt.DS256Key({**public, "x": format(numbers.x, "x")})


@functools.cache
def ds256_issuer_key():
    """ds256.test's key pair (the same for the whole test process)."""
    return ds256_keypair()


def documents():
    public, _ = get_keypair("idp.test")
    return {
        "idp.test": {"public-key": public, "authentication": "/auth", "provisioning": "/provision"},
        "delegating.test": {"authority": "idp.test"},
        "disabled.test": {"disabled": True},
        **{host: {"public-key": pair[0], "authentication": "/auth", "provisioning": "/provision"}
           for host, pair in [*RSA_KEYS.items(), ("ds256.test", ds256_issuer_key())]},
    }


class IdentityProvider(FakeServer):
    """Answers /.well-known/browserid for the host named in the Host header; notes every (host, raw path) asked for."""

    def __init__(self):
        super().__init__("idp_server")
        docs = documents()
        self.requests = []

        @self.app.get("/", defaults={"path": ""})
        @self.app.get("/<path:path>")
        def document(path):
            host = request.host.split(":")[0]
            self.requests.append((host, request.environ["REQUEST_URI"]))
            if host == "moved.test":
                return redirect("http://idp.test/.well-known/browserid", 302)
            if request.path != "/.well-known/browserid" or host not in docs:
                abort(404)
            return jsonify(docs[host])

    @property
    def http_hosts(self):
        """The browserid.http_hosts value pointing every test host at this server."""
        return ", ".join(f"{host}=127.0.0.1:{self.port}" for host in HOSTS)

    @property
    def allowed_hosts(self):
        """The browserid.fetch_allowed_hosts value naming every test host (they are on loopback)."""
        return ", ".join(HOSTS)
