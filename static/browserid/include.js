// include.js: navigator.id for relying parties, talking to a Frontdoor identity provider.
// Frontdoor's address: the script tag's data-frontdoor attribute (e.g. "https://id.example.com/account"), else
// this script's URL with "/static/browserid/include.js" cut off.
//   navigator.id.watch({ loggedInUser, onlogin(assertion), onlogout(), onready() })
//   navigator.id.request({ siteName, email, returnTo, redirect, oncancel })
//   navigator.id.logout()
//   navigator.id.get(callback[, { siteName, email, returnTo, redirect, silent }]) and getVerifiedEmail(callback):
//     the older one-shot API; callback(assertion), or callback(null) when the person cancels.
// Popup or redirect: request() and get() open Frontdoor's dialog in a popup. Where the popup is blocked (window.open
// outside a click, popup blockers, web views), or with `redirect: true`, the whole page goes to the dialog and comes
// back to returnTo (default: this page) with the answer in the address's fragment. include.js takes it out of the
// address as soon as it loads and keeps it for this page: watch() hands an assertion to onlogin; with the older API
// the next get() or getVerifiedEmail() call gets the answer at once, without opening anything. So a page using get()
// calls navigator.id.get(callback, { silent: true }) when it loads: silent never shows anything, and calls back with
// the assertion that came back from the dialog, or null (Persona's silent called back null).
// Sign-out: navigator.id.logout() writes in the site's own storage (first-party: it works with third-party cookies and
// storage blocked) that this browser signed out of the site, and calls onlogout. Until onlogout has run once for that
// sign-out, a later watch() whose loggedInUser names someone calls it (the page that signed out may have been left
// first); other open tabs of the site whose loggedInUser names someone are told at once. A stale page gets no second
// onlogout, and nobody is ever signed in silently. There is no hidden Frontdoor frame: Frontdoor learns nothing about
// the site's pages, and the site nothing about Frontdoor's session.
// One dialog at a time: a request() or get() made while the popup is open brings that popup to the front and is
// answered at once as a cancel (request: its oncancel; get: callback(null)); the call that opened the dialog keeps
// it and gets its answer. So every call is answered exactly once, and a double click cannot swap one caller's
// answer for another's.
(function () {
  "use strict";
  if (navigator.id && navigator.id.frontdoor) return;
  var script = document.currentScript;
  var base = (script && script.dataset.frontdoor) ||
    (script ? script.src.replace(/\/static\/browserid\/include\.js(?:[?#].*)?$/, "") : "");
  base = base.replace(/\/+$/, "");
  var frontdoorOrigin = new URL(base, window.location.href).origin;
  var storageKey = "frontdoor.browserid " + base;
  var watching = null, user = null, legacy = false, dialog = null, toldLogout = false;
  var returned = takeReturned();

  function later(action) { setTimeout(action, 0); }

  // The dialog's answer after a redirect round trip (#browserid_assertion=… or #browserid_cancel=1), out of the address.
  function takeReturned() {
    var hash = window.location.hash;
    var assertion = /(?:^#|&)browserid_assertion=([^&]*)/.exec(hash);
    var cancelled = /(?:^#|&)browserid_cancel=1(?:&|$)/.test(hash);
    if (!assertion && !cancelled) return null;
    history.replaceState(history.state, "", window.location.pathname + window.location.search);
    try { return { assertion: assertion ? decodeURIComponent(assertion[1]) || null : null }; } catch (e) { return { assertion: null }; }
  }

  // This browser's sign-in state at the site: { state: "in" | "out", email, reported }, in the site's own storage.
  function readRecord() {
    try { return JSON.parse(window.localStorage.getItem(storageKey) || "null") || {}; } catch (e) { return {}; }
  }
  function writeRecord(record) {
    try { window.localStorage.setItem(storageKey, JSON.stringify(record)); } catch (e) { /* no storage: this page still knows */ }
  }

  function emailOf(assertion) {
    try {
      var payload = assertion.split("~")[0].split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
      return JSON.parse(atob(payload)).principal.email;
    } catch (e) { return null; }
  }

  function loggedIn(assertion, email) {
    toldLogout = false;
    writeRecord({ state: "in", email: email || emailOf(assertion) });
    if (watching) watching.onlogin(assertion);
  }

  // onlogout for a sign-out recorded in storage, once per page, and marked reported for later pages.
  function tellLogout() {
    if (toldLogout || !watching || typeof watching.onlogout !== "function") return;
    toldLogout = true;
    var record = readRecord();
    if (record.state === "out") { record.reported = true; writeRecord(record); }
    watching.onlogout();
  }

  function watch(options) {
    if (legacy) throw new Error("you cannot combine the navigator.id.watch() API with navigator.id.getVerifiedEmail() or navigator.id.get()");
    if (!options || typeof options.onlogin !== "function") throw new Error("navigator.id.watch needs an onlogin function");
    var named = options.loggedInUser === false ? null : options.loggedInUser;
    if (named !== undefined && named !== null && typeof named !== "string") throw new Error("loggedInUser must be an email, null or undefined");
    if (typeof named === "string" && typeof options.onlogout !== "function") throw new Error("loggedInUser needs an onlogout function");
    watching = options;
    user = named;
    var record = readRecord();
    var back = returned;
    returned = null;
    later(function () {
      if (back && back.assertion) loggedIn(back.assertion);
      else if (!back && typeof user === "string" && record.state === "out" && !record.reported) tellLogout();
      if (typeof options.onready === "function") options.onready();
    });
  }

  // Another tab of the site signed out: a page that still names someone is told.
  window.addEventListener("storage", function (event) {
    if (event.key !== storageKey || typeof user !== "string") return;
    var record;
    try { record = JSON.parse(event.newValue || "null"); } catch (e) { return; }
    if (record && record.state === "out") tellLogout();
  });

  function redirectFlow(options) {
    var target = new URL(options.returnTo || window.location.pathname + window.location.search, window.location.href);
    if (target.origin !== window.location.origin) throw new Error("returnTo must be a path on this site");
    var query = "return_to=" + encodeURIComponent(target.href);
    if (options.siteName) query += "&site_name=" + encodeURIComponent(options.siteName);
    if (options.email) query += "&email=" + encodeURIComponent(options.email);
    window.location.assign(base + "/browserid/sign_in?" + query);
  }

  function openDialog(options, done) {
    if (dialog && !dialog.closed) {
      dialog.focus();
      later(function () { done(null); });
      return true;
    }
    var popup = window.open(base + "/browserid/sign_in", "frontdoor_dialog",
                            "width=520,height=640,menubar=0,location=1,resizable=1,scrollbars=1,status=0");
    if (!popup || popup.closed) return false;
    dialog = popup;
    var finished = false;
    function end(result) {
      if (finished) return;
      finished = true;
      if (dialog === popup) dialog = null;
      window.removeEventListener("message", listen);
      clearInterval(poll);
      done(result);
    }
    function listen(event) {
      if (event.source !== popup || event.origin !== frontdoorOrigin || !event.data) return;
      var message = event.data;
      if (message.frontdoor === "ready") {
        popup.postMessage({ frontdoor: "request", options: { siteName: options.siteName || "", email: options.email || "" } }, frontdoorOrigin);
      } else if (message.frontdoor === "login" && typeof message.assertion === "string") {
        end(message);
      } else if (message.frontdoor === "cancel") {
        end(null);
      }
    }
    window.addEventListener("message", listen);
    var poll = setInterval(function () { if (popup.closed) end(null); }, 300);
    return true;
  }

  // The dialog in a popup; the redirect flow when asked for or when the popup is blocked.
  function begin(options, done) {
    if (!options.redirect && openDialog(options, done)) return;
    redirectFlow(options);
  }

  function request(options) {
    if (!watching) throw new Error("navigator.id.watch must be called before navigator.id.request");
    options = options || {};
    begin(options, function (result) {
      if (result) loggedIn(result.assertion, result.email);
      else if (typeof options.oncancel === "function") options.oncancel();
    });
  }

  function logout() {
    if (!watching) return;
    var record = readRecord();
    writeRecord({ state: "out", email: record.email || null, reported: false });
    toldLogout = false;
    later(tellLogout);
  }

  function get(callback, options) {
    if (watching) throw new Error("you cannot combine the navigator.id.watch() API with navigator.id.getVerifiedEmail() or navigator.id.get()");
    if (typeof callback !== "function") throw new Error("navigator.id.get needs a callback");
    legacy = true;
    options = options || {};
    if (returned || options.silent) {
      var back = returned;
      returned = null;
      later(function () { callback(back ? back.assertion : null); });
      return;
    }
    begin(options, function (result) { callback(result ? result.assertion : null); });
  }

  navigator.id = {
    frontdoor: base,
    watch: watch,
    request: request,
    logout: logout,
    get: get,
    getVerifiedEmail: function (callback) { get(callback); },
  };
})();
