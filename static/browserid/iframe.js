// iframe.js: the communication iframe include.js embeds. It keeps, per relying-party origin, in its own storage
// (which browsers may partition per site, or block): who signed in there through Frontdoor, and whether this
// browser signed out of it with navigator.id.logout(). It answers "logout" once per sign-out, and only when the
// page says someone is signed in; everything else is "none". Messages go only to the parent that asked.
(function () {
  "use strict";
  function key(origin) { return "frontdoor.rp." + origin; }
  function read(origin) {
    try { return { ok: true, record: JSON.parse(window.localStorage.getItem(key(origin)) || "null") }; } catch (e) { return { ok: false }; }
  }
  function write(origin, record) {
    try { window.localStorage.setItem(key(origin), JSON.stringify(record)); return true; } catch (e) { return false; }
  }
  window.addEventListener("message", function (event) {
    if (event.source !== window.parent || !event.data || typeof event.data.frontdoor !== "string") return;
    var origin = event.origin, message = event.data, stored = read(origin), record = stored.record || {};
    if (message.frontdoor === "login" && typeof message.email === "string") {
      write(origin, { state: "in", email: message.email });
    } else if (message.frontdoor === "logout") {
      write(origin, { state: "out", email: record.email || null, reported: false });
    } else if (message.frontdoor === "state") {
      var action = "none";
      var signedOut = stored.ok && record.state === "out" && !record.reported;
      if (signedOut && (typeof message.loggedInUser === "string" || message.afterLogout)) {
        action = "logout";
        record.reported = true;
        write(origin, record);
      }
      event.source.postMessage({ frontdoor: "state", action: action, storage: stored.ok }, origin);
    }
  });
  window.parent.postMessage({ frontdoor: "iframe-ready" }, "*");
})();
