"""A small relying party for the browser tests: its own origin (http://localhost:PORT, another site than Frontdoor
at 127.0.0.1; or http://127.0.0.1:PORT, the same site on another port), pages that embed Frontdoor's include.js
(watch/request, and the older get/getVerifiedEmail), one that frames Frontdoor's provisioning page, and a back end
that verifies assertions with Frontdoor's POST /verify. Inline script is fine here: this is the relying party's page,
not Frontdoor's."""
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

LEGACY = """<!doctype html>
<html><head><meta charset="utf-8"><title>Relying party (get)</title>
<script src="%(include)s"></script></head>
<body>
<button id="get">Sign in</button> <button id="get-email">Sign in (getVerifiedEmail)</button>
<p id="result"></p>
<script>
  window.answers = [];
  window.take = function (assertion) {
    window.answers.push(assertion);
    if (!assertion) { document.getElementById("result").textContent = "cancelled"; return; }
    fetch("/login", {method: "POST", body: JSON.stringify({assertion: assertion})})
      .then(function (r) { return r.json(); })
      .then(function (body) { document.getElementById("result").textContent = body.status === "okay" ? body.email : "refused: " + body.reason; });
  };
  if (new URLSearchParams(location.search).get("silent")) {
    navigator.id.get(function (assertion) {
      window.silent = assertion;
      if (assertion) window.take(assertion);
    }, {silent: true});
  }
  document.getElementById("get").onclick = function () { navigator.id.get(window.take, {siteName: "Legacy RP"}); };
  document.getElementById("get-email").onclick = function () { navigator.id.getVerifiedEmail(window.take); };
</script>
</body></html>
"""

FRAMING = """<!doctype html>
<html><head><meta charset="utf-8"><title>Relying party (frame)</title></head>
<body>
<iframe id="frame" title="Frontdoor" src="%(src)s"></iframe>
<script>
  // Every message this page receives, and "loaded" once the frame's load event and a round trip after it are over.
  window.messages = [];
  window.loaded = false;
  window.addEventListener("message", function (event) {
    if (event.source === window && event.data === "after-load") { window.loaded = true; return; }
    window.messages.push({origin: event.origin, data: event.data});
  });
  document.getElementById("frame").addEventListener("load", function () { window.postMessage("after-load", location.origin); });
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
    def __init__(self, frontdoor_base, host="localhost", port=0):
        self.frontdoor_base = frontdoor_base   # may be set after start, before the first page is asked for
        self.verified = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                path = self.path.split("?")[0]
                if path == "/":
                    self.reply(200, "text/html", PAGE % {"include": outer.frontdoor_base + "/static/browserid/include.js"})
                elif path == "/legacy":
                    self.reply(200, "text/html", LEGACY % {"include": outer.frontdoor_base + "/static/browserid/include.js"})
                elif path == "/provision":
                    self.reply(200, "text/html", FRAMING % {"src": outer.frontdoor_base + "/browserid/provision"})
                elif path == "/probe":
                    self.reply(200, "text/html", "<!doctype html><title>probe</title><p>probe</p>")
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

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.origin = f"http://{host}:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
