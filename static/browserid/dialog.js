// dialog.js: Frontdoor's BrowserID dialog, in a popup (the relying party is the opener; its origin comes from
// postMessage, never from the URL) or as a full page (redirect flow: the origin of return_to, checked by the server).
// Choosing an address: WebCrypto makes an RSA-2048 key pair (the private key is not extractable and never leaves
// this page), Frontdoor certifies the public key, this page signs an assertion for the site valid 2 minutes by the
// server's clock, and hands `certificate~assertion` to the site. With browserid.allowed_origins set, a popup opened
// by another site says so and gives it nothing (the server refuses such a site's redirect flow).
// One site per dialog: the first `request` from the opener names the site (later ones are ignored, so a re-navigated
// opener cannot re-target the dialog), and Continue takes that origin once, for both the assertion's `aud` and the
// postMessage target: what the person approved is what is signed and where it goes.
(function () {
  "use strict";
  var root = document.getElementById("browserid-dialog");
  if (!root) return;
  var data = root.dataset;
  var redirect = data.mode === "redirect";
  var rpOrigin = redirect ? data.rpOrigin : null;
  var opener = window.opener;
  var clockOffset = Number(data.serverTime) - Date.now();
  var statusLine = document.getElementById("browserid-status");
  var choose = document.getElementById("browserid-choose");
  var continueButton = document.getElementById("browserid-continue");

  function say(text, isError) {
    statusLine.textContent = text || "";
    statusLine.className = isError ? "flash flash-alert" : "";
  }

  function bytesToBase64url(bytes) {
    var text = "";
    for (var i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
    return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function textToBase64url(text) { return bytesToBase64url(new TextEncoder().encode(text)); }
  function base64urlToDecimal(value) {
    var binary = atob(value.replace(/-/g, "+").replace(/_/g, "/"));
    var hex = "";
    for (var i = 0; i < binary.length; i++) hex += ("0" + binary.charCodeAt(i).toString(16)).slice(-2);
    return BigInt("0x" + (hex || "0")).toString(10);
  }

  function showSite(origin, name) {
    document.getElementById("rp-origin").textContent = origin || "";
    document.getElementById("rp-name").textContent = name || "";
  }

  // `target`: the site's origin as it was when the person chose (postMessage drops the message if the opener is no
  // longer showing that site).
  function deliver(message, target) {
    if (redirect) {
      var marker = message.assertion ? "browserid_assertion=" + encodeURIComponent(message.assertion) : "browserid_cancel=1";
      window.location.replace(data.returnTo + "#" + marker);
    } else if (opener && target) {
      opener.postMessage(message, target);
      window.close();
    } else {
      window.close();
    }
  }

  async function signIn(email, ephemeral, audience) {
    var keys = await crypto.subtle.generateKey(
      { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
      false, ["sign", "verify"]);
    var jwk = await crypto.subtle.exportKey("jwk", keys.publicKey);
    var publicKey = { algorithm: "RS", n: base64urlToDecimal(jwk.n), e: base64urlToDecimal(jwk.e) };
    var body = new URLSearchParams({ email: email, pubkey: JSON.stringify(publicKey),
                                     ephemeral: ephemeral ? "true" : "false", csrf_token: data.csrf });
    var response = await fetch(data.certifyUrl, { method: "POST", body: body, credentials: "same-origin" });
    if (!response.ok) throw new Error("certify answered " + response.status);
    var answer = await response.json();
    clockOffset = Number(answer.server_time) - Date.now();
    var signed = textToBase64url(JSON.stringify({ alg: "RS256" })) + "." +
      textToBase64url(JSON.stringify({ aud: audience, exp: Date.now() + clockOffset + 120000 }));
    var signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", keys.privateKey, new TextEncoder().encode(signed));
    return answer.certificate + "~" + signed + "." + bytesToBase64url(new Uint8Array(signature));
  }

  document.querySelectorAll("#browserid-cancel").forEach(function (button) {
    button.addEventListener("click", function () { deliver({ frontdoor: "cancel" }, rpOrigin); });
  });

  if (choose) {
    choose.addEventListener("submit", function (event) {
      event.preventDefault();
      var picked = choose.querySelector("input[name=email]:checked");
      var audience = rpOrigin;
      if (!picked || !audience) return;
      continueButton.disabled = true;
      say(data.textWorking);
      signIn(picked.value, document.getElementById("ephemeral").checked, audience).then(function (assertion) {
        deliver({ frontdoor: "login", assertion: assertion, email: picked.value }, audience);
      }, function () {
        say(data.textFailed, true);
        continueButton.disabled = false;
      });
    });
  }

  if (redirect) {
    if (continueButton) continueButton.disabled = false;
    return;
  }
  if (!opener) { say(data.textNoOpener, true); return; }
  say(data.textWaiting);
  var requested = false;
  window.addEventListener("message", function (event) {
    if (requested || event.source !== opener || !event.data || event.data.frontdoor !== "request") return;
    requested = true;
    var allowed = (data.allowedOrigins || "").split(" ").filter(Boolean);
    if (allowed.length && allowed.indexOf(event.origin) < 0) { say(data.textNotAllowed, true); return; }
    rpOrigin = event.origin;
    var options = event.data.options || {};
    showSite(rpOrigin, typeof options.siteName === "string" ? options.siteName.slice(0, 100) : "");
    if (typeof options.email === "string" && choose) {
      var hinted = choose.querySelector("input[name=email][value='" + CSS.escape(options.email) + "']");
      if (hinted) hinted.checked = true;
    }
    var email = document.getElementById("email");
    if (email && !email.value && typeof options.email === "string") email.value = options.email;
    if (continueButton) continueButton.disabled = false;
    say("");
  });
  // Nothing secret in "ready": the site answers with its options, and its origin comes with that answer.
  opener.postMessage({ frontdoor: "ready" }, "*");
})();
