// provision.js: the provisioning page named in Frontdoor's support document. Frontdoor is its own dialog, so no
// other dialog drives this page; framed, it tells its parent whether someone is signed in here, and nothing more.
(function () {
  "use strict";
  var root = document.getElementById("browserid-provision");
  if (!root || window.parent === window) return;
  window.parent.postMessage({ frontdoor: "provisioning", signedIn: root.dataset.signedIn === "true" }, "*");
})();
