// native_dialog.js: the native bridge's page (templates/browserid/native_dialog.mustache) in an app's web view.
// Once the server has rendered the callback (data-callback: browserid-origin://didSucceedWithAssertion?data=…),
// go there at once: the app intercepts the navigation and takes the assertion. Cancel and the "return to the app"
// link go the same way. A harness without an app (the e2e test) may define window.frontdoorNativeNavigate before
// the page loads: it then receives the callback URL instead of the navigation.
(function () {
  "use strict";
  var root = document.getElementById("browserid-native");
  if (!root) return;
  var prefix = "browserid-origin://";

  function go(url) {
    if (!url || url.indexOf(prefix) !== 0) return;
    if (typeof window.frontdoorNativeNavigate === "function") window.frontdoorNativeNavigate(url);
    else window.location.replace(url);
  }

  document.querySelectorAll("a[data-native-callback]").forEach(function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      go(link.getAttribute("href"));
    });
  });
  go(root.dataset.callback);
})();
