"""A test BrowserID identity provider on a loopback port: serves /.well-known/browserid by Host header.

idp.test publishes PyBrowserID's deterministic DS128 key for "idp.test" (so browserid.tests.support.make_assertion
with issuer="idp.test" makes assertions it vouches for); delegating.test hands authority to idp.test;
disabled.test has switched BrowserID off; moved.test answers with a redirect. rs64.test and rs128.test publish
RSA keys of 512 and 1024 bits (RSA_KEYS: their key pairs, for make_assertion's issuer_keypair).
"""
import hashlib
import json
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from browserid import jwt
from browserid.tests.support import get_keypair
from cryptography.hazmat.primitives.serialization import load_pem_private_key

HOSTS = ("idp.test", "delegating.test", "disabled.test", "moved.test", "rs64.test", "rs128.test")


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


def documents():
    public, _ = get_keypair("idp.test")
    return {
        "idp.test": {"public-key": public, "authentication": "/auth", "provisioning": "/provision"},
        "delegating.test": {"authority": "idp.test"},
        "disabled.test": {"disabled": True},
        **{host: {"public-key": pair[0], "authentication": "/auth", "provisioning": "/provision"} for host, pair in RSA_KEYS.items()},
    }


class IdentityProvider:
    def __init__(self):
        docs = documents()
        self.requests = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                host = (self.headers.get("Host") or "").split(":")[0]
                outer.requests.append((host, self.path))
                if host == "moved.test":
                    self.send_response(302)
                    self.send_header("Location", "http://idp.test/.well-known/browserid")
                    self.end_headers()
                    return
                if self.path.split("?")[0] != "/.well-known/browserid" or host not in docs:
                    self.send_error(404)
                    return
                body = json.dumps(docs[host]).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    @property
    def http_hosts(self):
        """The browserid.http_hosts value pointing every test host at this server."""
        return ", ".join(f"{host}=127.0.0.1:{self.port}" for host in HOSTS)

    @property
    def allowed_hosts(self):
        """The browserid.fetch_allowed_hosts value naming every test host (they are on loopback)."""
        return ", ".join(HOSTS)
