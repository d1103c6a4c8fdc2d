"""A small relying party for the browser tests: its own origin (http://localhost:PORT, another site than Frontdoor
at 127.0.0.1), a page that embeds Frontdoor's include.js, and a back end that verifies assertions with Frontdoor's
POST /verify. Inline script is fine here: this is the relying party's page, not Frontdoor's."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Relying party</title>
<script src="%(include)s"></script></head>
<body>
<button id="signin">Sign in</button> <button id="signin-redirect">Sign in (redirect)</button>
<button id="signout">Sign out</button>
<p id="result"></p><p id="ready"></p>
<script>
  window.calls = {login: 0, logout: 0, ready: 0, cancel: 0};
  var user = new URLSearchParams(location.search).get("user");
  navigator.id.watch({
    loggedInUser: user,
    onlogin: function (assertion) {
      window.calls.login++;
      fetch("/login", {method: "POST", body: JSON.stringify({assertion: assertion})})
        .then(function (r) { return r.json(); })
        .then(function (body) { document.getElementById("result").textContent = body.status === "okay" ? body.email : "refused: " + body.reason; });
    },
    onlogout: function () { window.calls.logout++; },
    onready: function () { window.calls.ready++; document.getElementById("ready").textContent = "ready"; },
  });
  document.getElementById("signin").onclick = function () {
    navigator.id.request({siteName: "Test RP", oncancel: function () { window.calls.cancel++; }});
  };
  document.getElementById("signin-redirect").onclick = function () {
    navigator.id.request({siteName: "Test RP", redirect: true, returnTo: "/?back=1"});
  };
  document.getElementById("signout").onclick = function () { navigator.id.logout(); };
</script>
</body></html>
"""

NATIVE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Native shim</title><script src="%(native)s"></script></head>
<body><p id="result"></p>
<script>
  window.navigations = [];
  navigator.id.navigate = function (url) { window.navigations.push(url); };
  navigator.id.getVerifiedEmail(function (assertion) { document.getElementById("result").textContent = "got " + assertion; });
</script></body></html>
"""


class RelyingParty:
    def __init__(self, frontdoor_base):
        self.frontdoor_base = frontdoor_base
        self.verified = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                path = self.path.split("?")[0]
                if path == "/":
                    self.reply(200, "text/html", PAGE % {"include": outer.frontdoor_base + "/static/browserid/include.js"})
                elif path == "/native":
                    self.reply(200, "text/html", NATIVE % {"native": outer.frontdoor_base + "/static/browserid/native.js"})
                else:
                    self.reply(404, "text/plain", "not found")

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                assertion = json.loads(self.rfile.read(length))["assertion"]
                answer = requests.post(outer.frontdoor_base + "/verify",
                                       data={"assertion": assertion, "audience": outer.origin}, timeout=20).json()
                outer.verified.append(answer)
                self.reply(200, "application/json", json.dumps(answer))

            def reply(self, status, kind, text):
                body = text.encode()
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://localhost:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
