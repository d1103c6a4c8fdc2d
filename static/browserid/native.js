// native.js: the shim of the original iOS integration, for pages shown in a native app's web view instead of
// include.js. navigator.id.getVerifiedEmail(callback) navigates to
// browserid-origin://getVerifiedEmail/callback?data=<this page's origin>, which the app intercepts; the app
// signs the person in natively and hands the assertion back with navigator.id.callback(assertion) (null: cancelled).
// Frontdoor's side of that native sign-in is <base>/browserid/native?origin=<the data value> (BrowserIDNativePage;
// FrontdoorClient's BrowserIDBridge reads this request with requestedOrigin(in:)).
(function () {
  "use strict";
  var pending = null;
  var id = navigator.id || {};
  id.getVerifiedEmail = function (callback) {
    if (typeof callback !== "function") throw new Error("getVerifiedEmail needs a callback");
    pending = callback;
    id.navigate("browserid-origin://getVerifiedEmail/callback?data=" + encodeURIComponent(window.location.origin));
  };
  id.get = id.getVerifiedEmail;
  id.callback = function (assertion) {
    var callback = pending;
    pending = null;
    if (callback) callback(typeof assertion === "string" && assertion ? assertion : null);
  };
  // How the request reaches the app: a navigation it intercepts (replaceable, e.g. by a test harness).
  id.navigate = function (url) { window.location.href = url; };
  navigator.id = id;
})();
