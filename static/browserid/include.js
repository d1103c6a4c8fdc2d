// include.js: navigator.id for relying parties, talking to a Frontdoor identity provider.
// Frontdoor's address: the script tag's data-frontdoor attribute (e.g. "https://id.example.com/account"), else
// this script's URL with "/static/browserid/include.js" cut off.
//   navigator.id.watch({ loggedInUser, onlogin(assertion), onlogout(), onready() })
//   navigator.id.request({ siteName, email, returnTo, redirect, oncancel })
//   navigator.id.logout()
//   navigator.id.get(callback[, options]) and getVerifiedEmail(callback): the older one-shot API.
// request() opens Frontdoor's dialog in a popup; without one (blocked, or `redirect: true`) the whole page goes to
// the dialog and comes back to returnTo with the assertion in the fragment, which watch() hands to onlogin.
// watch() asks a hidden Frontdoor iframe whether this browser signed out of the site (navigator.id.logout()):
// then, and only while loggedInUser names someone, onlogout is called, once. There are no silent sign-ins; when
// the iframe cannot keep state (third-party storage blocked) or does not answer, only onready is called.
(function () {
  "use strict";
  if (navigator.id && navigator.id.frontdoor) return;
  var script = document.currentScript;
  var base = (script && script.dataset.frontdoor) ||
    (script ? script.src.replace(/\/static\/browserid\/include\.js(?:[?#].*)?$/, "") : "");
  base = base.replace(/\/+$/, "");
  var frontdoorOrigin = new URL(base, window.location.href).origin;
  var watching = null, legacy = false, frame = null, frameReady = false, frameQueue = [], dialog = null;

  function post(message) {
    if (frameReady) frame.contentWindow.postMessage(message, frontdoorOrigin);
    else frameQueue.push(message);
  }

  function openFrame(onState) {
    frame = document.createElement("iframe");
    frame.src = base + "/browserid/communication_iframe";
    frame.title = "Frontdoor";
    frame.setAttribute("aria-hidden", "true");
    frame.tabIndex = -1;
    frame.style.display = "none";
    window.addEventListener("message", function (event) {
      if (event.origin !== frontdoorOrigin || event.source !== frame.contentWindow || !event.data) return;
      if (event.data.frontdoor === "iframe-ready" && !frameReady) {
        frameReady = true;
        frameQueue.splice(0).forEach(post);
      } else if (event.data.frontdoor === "state") {
        onState(event.data);
      }
    });
    (document.body || document.documentElement).appendChild(frame);
  }

  function emailOf(assertion) {
    try {
      var payload = assertion.split("~")[0].split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
      return JSON.parse(atob(payload)).principal.email;
    } catch (e) { return null; }
  }

  function loggedIn(assertion, email) {
    post({ frontdoor: "login", email: email || emailOf(assertion) });
    if (watching) watching.onlogin(assertion);
  }

  function watch(options) {
    if (legacy) throw new Error("you cannot combine the navigator.id.watch() API with navigator.id.getVerifiedEmail() or navigator.id.get()");
    if (!options || typeof options.onlogin !== "function") throw new Error("navigator.id.watch needs an onlogin function");
    var user = options.loggedInUser === false ? null : options.loggedInUser;
    if (user !== undefined && user !== null && typeof user !== "string") throw new Error("loggedInUser must be an email, null or undefined");
    if (typeof user === "string" && typeof options.onlogout !== "function") throw new Error("loggedInUser needs an onlogout function");
    watching = options;
    var returned = /(?:^#|&)browserid_assertion=([^&]*)/.exec(window.location.hash);
    var cancelled = /(?:^#|&)browserid_cancel=1/.test(window.location.hash);
    if (returned || cancelled) history.replaceState(history.state, "", window.location.pathname + window.location.search);
    var ready = false;
    function finish(action) {
      if (ready) return;
      ready = true;
      if (action === "logout" && typeof user === "string" && !returned) options.onlogout();
      if (typeof options.onready === "function") options.onready();
    }
    openFrame(function (state) {
      if (state.action === "logout" && watching && typeof watching.onlogout === "function" && ready) watching.onlogout();
      finish(state.action);
    });
    post({ frontdoor: "state", loggedInUser: typeof user === "string" ? user : null });
    setTimeout(finish, 3000);
    if (returned) setTimeout(function () { loggedIn(decodeURIComponent(returned[1])); }, 0);
  }

  function redirectFlow(options) {
    var target = new URL(options.returnTo || window.location.pathname + window.location.search, window.location.href);
    if (target.origin !== window.location.origin) throw new Error("returnTo must be a path on this site");
    var query = "return_to=" + encodeURIComponent(target.href);
    if (options.siteName) query += "&site_name=" + encodeURIComponent(options.siteName);
    if (options.email) query += "&email=" + encodeURIComponent(options.email);
    window.location.assign(base + "/browserid/sign_in?" + query);
  }

  function openDialog(options, done) {
    if (dialog && !dialog.closed) { dialog.focus(); return true; }
    var popup = window.open(base + "/browserid/sign_in", "frontdoor_dialog",
                            "width=520,height=640,menubar=0,location=1,resizable=1,scrollbars=1,status=0");
    if (!popup) return false;
    dialog = popup;
    var finished = false;
    function end(result) {
      if (finished) return;
      finished = true;
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

  function request(options) {
    if (!watching) throw new Error("navigator.id.watch must be called before navigator.id.request");
    options = options || {};
    if (options.redirect) return redirectFlow(options);
    var opened = openDialog(options, function (result) {
      if (result) loggedIn(result.assertion, result.email);
      else if (typeof options.oncancel === "function") options.oncancel();
    });
    if (!opened) redirectFlow(options);
  }

  function logout() {
    if (!watching) return;
    post({ frontdoor: "logout" });
    post({ frontdoor: "state", loggedInUser: null, afterLogout: true });
  }

  function get(callback, options) {
    if (watching) throw new Error("you cannot combine the navigator.id.watch() API with navigator.id.getVerifiedEmail() or navigator.id.get()");
    if (typeof callback !== "function") throw new Error("navigator.id.get needs a callback");
    legacy = true;
    var opened = openDialog(options || {}, function (result) { callback(result ? result.assertion : null); });
    if (!opened) callback(null);
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
