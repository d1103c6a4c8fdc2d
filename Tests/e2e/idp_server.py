"""A test BrowserID identity provider on a loopback port: serves /.well-known/browserid by Host header.

idp.test publishes PyBrowserID's deterministic DS128 key for "idp.test" (so browserid.tests.support.make_assertion
with issuer="idp.test" makes assertions it vouches for); delegating.test hands authority to idp.test;
disabled.test has switched BrowserID off; moved.test answers with a redirect.
"""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from browserid.tests.support import get_keypair

HOSTS = ("idp.test", "delegating.test", "disabled.test", "moved.test")


def documents():
    public, _ = get_keypair("idp.test")
    return {
        "idp.test": {"public-key": public, "authentication": "/auth", "provisioning": "/provision"},
        "delegating.test": {"authority": "idp.test"},
        "disabled.test": {"disabled": True},
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
