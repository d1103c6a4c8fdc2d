// passkeys.js: the browser side of passkeys, for every form marked data-passkey:
//   register        settings/passkeys: navigator.credentials.create, then POST the answer (with the name typed)
//   sign_in         the sign-in page: navigator.credentials.get with no account named (discoverable credentials); and,
//                   where the browser offers passkeys in the address field's autofill (conditional mediation), the
//                   same request waiting quietly for the person to pick one there
//   reauthenticate  "Confirm it's you": navigator.credentials.get for the signed-in account
// Each form's data-options names the endpoint that gives the options (a fresh challenge); its action takes the answer.
// Both are posted urlencoded with the form's csrf_token. The server answers JSON: {publicKey} for options,
// {redirect} when done, {error, message[, redirect]} when refused. Forms stay hidden (and the "cannot use passkeys"
// note shown) where the browser has no WebAuthn. No inline script, no library: base64url is converted by hand.
(function () {
  "use strict";

  if (!window.PublicKeyCredential || !navigator.credentials) return;

  document.querySelectorAll("[data-passkey-unsupported]").forEach(function (note) { note.hidden = true; });

  // base64url (no padding) ↔ ArrayBuffer.
  function toBuffer(text) {
    var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    while (base64.length % 4) base64 += "=";
    var binary = atob(base64);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }

  function toText(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // The server's options with their byte strings as ArrayBuffers.
  function decodeOptions(options) {
    options.challenge = toBuffer(options.challenge);
    if (options.user) options.user.id = toBuffer(options.user.id);
    ["excludeCredentials", "allowCredentials"].forEach(function (name) {
      (options[name] || []).forEach(function (credential) { credential.id = toBuffer(credential.id); });
    });
    return options;
  }

  // The credential as JSON the server reads (WebAuthn's PublicKeyCredential.toJSON shape).
  function encodeCredential(credential) {
    var response = credential.response;
    var json = { id: credential.id, rawId: toText(credential.rawId), type: credential.type, response: {
      clientDataJSON: toText(response.clientDataJSON)
    } };
    if (response.attestationObject) {
      json.response.attestationObject = toText(response.attestationObject);
    } else {
      json.response.authenticatorData = toText(response.authenticatorData);
      json.response.signature = toText(response.signature);
      if (response.userHandle) json.response.userHandle = toText(response.userHandle);
    }
    return JSON.stringify(json);
  }

  // POSTs `fields` (plus the form's hidden inputs) urlencoded; resolves to the JSON answer with its status.
  function post(form, url, fields) {
    var body = new URLSearchParams();
    form.querySelectorAll("input[type=hidden]").forEach(function (input) { body.append(input.name, input.value); });
    Object.keys(fields).forEach(function (name) { body.append(name, fields[name]); });
    return fetch(url, { method: "POST", body: body, credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (json) {
          json.ok = response.ok;
          return json;
        });
      });
  }

  function show(form, text) {
    var message = form.querySelector("[data-passkey-message]");
    if (!message) return;
    message.textContent = text;
    message.hidden = !text;
  }

  // The server's answer: go where it says, else show its message.
  function follow(form, json) {
    if (json.redirect) { window.location.assign(json.redirect); return; }
    show(form, json.message || form.dataset.msgFailed);
  }

  function failed(form, error) {
    if (error && error.name === "AbortError") return;   // our own conditional request, given up for the button
    // InvalidStateError: the authenticator holds a passkey of this account already (the exclude list).
    var name = error && error.name;
    show(form, name === "NotAllowedError" ? form.dataset.msgCancelled : name === "InvalidStateError" && form.dataset.msgExists
      ? form.dataset.msgExists : form.dataset.msgFailed);
  }

  // One ceremony: options, the browser's part, the answer. `mediation` is "conditional" for the autofill request.
  function run(form, mediation, signal) {
    var kind = form.dataset.passkey;
    var extra = {};
    if (kind === "register") extra.name = (form.querySelector("input[name=name]") || {}).value || "";
    if (kind === "sign_in") {
      var remember = document.getElementById("remember_me");
      if (remember && remember.checked) extra.remember_me = "1";
    }
    return post(form, form.dataset.options, {}).then(function (json) {
      if (!json.ok || !json.publicKey) { follow(form, json); return null; }
      var publicKey = decodeOptions(json.publicKey);
      var request = kind === "register" ? navigator.credentials.create({ publicKey: publicKey })
        : navigator.credentials.get(mediation ? { publicKey: publicKey, mediation: mediation, signal: signal } : { publicKey: publicKey });
      return request.then(function (credential) {
        if (!credential) return null;
        extra.credential = encodeCredential(credential);
        return post(form, form.getAttribute("action"), extra).then(function (answer) { follow(form, answer); });
      });
    });
  }

  var conditional = null;

  document.querySelectorAll("form[data-passkey]").forEach(function (form) {
    form.hidden = false;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      show(form, "");
      // The button wins over a waiting autofill request (a browser runs one request at a time).
      if (conditional) { conditional.abort(); conditional = null; }
      var button = form.querySelector("button[type=submit]");
      if (button) button.disabled = true;
      run(form).catch(function (error) { failed(form, error); }).then(function () { if (button) button.disabled = false; });
    });
  });

  // Autofill: offer passkeys in the address field where the browser can (autocomplete="username webauthn").
  var signIn = document.querySelector("form[data-passkey=sign_in]");
  if (signIn && typeof PublicKeyCredential.isConditionalMediationAvailable === "function" && window.AbortController) {
    PublicKeyCredential.isConditionalMediationAvailable().then(function (available) {
      if (!available || conditional) return;
      conditional = new AbortController();
      // Quietly: nobody asked for it, so a failure here is no message (the button still offers the passkey).
      run(signIn, "conditional", conditional.signal).catch(function () {});
    }).catch(function () {});
  }
})();
