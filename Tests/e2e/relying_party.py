"""A small relying party for the browser tests: its own origin (http://localhost:PORT, another site than Frontdoor
at 127.0.0.1; or http://127.0.0.1:PORT, the same site on another port), pages that embed Frontdoor's include.js
(watch/request, and the older get/getVerifiedEmail), one that plays another site taking over the relying party's window
(it asks the open dialog too and keeps what it hears), one that frames Frontdoor's provisioning page, and a back end
that verifies assertions with Frontdoor's POST /verify. Inline script is fine here: this is the relying party's page,
not Frontdoor's."""
import json

import requests
from flask import Response, request

from fakeserver import FakeServer

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


OPENER = """<!doctype html>
<html><head><meta charset="utf-8"><title>Another site</title></head>
<body><p>another site</p>
<script>
  // The page a relying party's window was sent to while Frontdoor's dialog is open: it finds the dialog by its window
  // name, asks it for an assertion as the relying party did, and keeps every message it receives.
  window.messages = [];
  window.addEventListener("message", function (event) {
    if (event.source === window && event.data === "round trip") { window.roundTrip = true; return; }
    window.messages.push({origin: event.origin, data: event.data});
  });
  window.askDialog = function () {
    var dialog = window.open("", "frontdoor_dialog");
    dialog.postMessage({frontdoor: "request", options: {siteName: "Another site"}}, "*");
  };
</script></body></html>
"""


class RelyingParty(FakeServer):
    """`frontdoor_base` may be set after start(), before the first page is asked for."""

    def __init__(self, frontdoor_base, host="localhost"):
        super().__init__("relying_party")
        self.frontdoor_base = frontdoor_base
        self.verified = []
        self.origin = f"http://{host}:{self.port}"
        pages = {"/": (PAGE, "include", "/static/browserid/include.js"),
                 "/legacy": (LEGACY, "include", "/static/browserid/include.js"),
                 "/provision": (FRAMING, "src", "/browserid/provision"),
                 "/native": (NATIVE, "native", "/static/browserid/native.js"),
                 "/opener": (OPENER, "include", "/static/browserid/include.js")}

        @self.app.get("/", defaults={"path": ""})
        @self.app.get("/<path:path>")
        def page(path):
            if request.path == "/probe":
                return html("<!doctype html><title>probe</title><p>probe</p>")
            if request.path not in pages:
                return Response("not found", 404, content_type="text/plain")
            template, name, frontdoor_path = pages[request.path]
            return html(template % {name: self.frontdoor_base + frontdoor_path})

        @self.app.post("/", defaults={"path": ""})
        @self.app.post("/<path:path>")
        def verify(path):
            assertion = json.loads(request.get_data())["assertion"]
            answer = requests.post(self.frontdoor_base + "/verify",
                                   data={"assertion": assertion, "audience": self.origin}, timeout=20).json()
            self.verified.append(answer)
            return Response(json.dumps(answer), 200, content_type="application/json")


def html(text):
    return Response(text, 200, content_type="text/html")
