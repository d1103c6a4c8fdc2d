// provision.js: the provisioning page named in Frontdoor's support document. Frontdoor is its own dialog, so no
// other dialog drives this page. Framed by Frontdoor itself or by a site listed in browserid.allowed_origins (the
// page's frame-ancestors lets no other site frame it), it tells that parent whether someone is signed in here, and
// nothing more. Each message names its target origin, so a parent of any other origin would get nothing even where
// a browser ignored frame-ancestors; no message ever goes to "*".
(function () {
  "use strict";
  var root = document.getElementById("browserid-provision");
  if (!root || window.parent === window) return;
  var allowed = [window.location.origin].concat((root.dataset.parents || "").split(" ").filter(Boolean));
  // Where the browser names the parent (ancestorOrigins), only it is written to; elsewhere each allowed origin is
  // tried, and the browser delivers to the one the parent has, if any.
  var named = window.location.ancestorOrigins && window.location.ancestorOrigins[0];
  var message = { frontdoor: "provisioning", signedIn: root.dataset.signedIn === "true" };
  allowed.forEach(function (origin) {
    if (!named || named === origin) window.parent.postMessage(message, origin);
  });
})();
