// Messages+OpenIDDevice.swift: English wording of the device page (`<base>/device`, RFC 8628): typing the code a
// device shows, and allowing or denying the app that asks.

extension MessageCatalog {
    /// English wording of the device page; merged into `english` (a key there must not repeat here).
    static let englishOpenIDDevice: [String: String] = [
        "oidc_device_title": "Connect a device",
        "oidc_device_text": "Enter the code your device shows.",
        "oidc_device_code_label": "Code",
        "oidc_device_code_hint": "Eight letters, for example BCDF-GHJK.",
        "oidc_device_continue_button": "Continue",
        "oidc_device_unknown": "That code is not known, was already used or has expired. Check it, or start again on your device.",
        "oidc_device_confirm_title": "Let {app} in?",
        "oidc_device_confirm_text": "{app} asks to sign in with your account {email}. Allow it only if you started this on your device and it shows this code:",
        "oidc_device_sees": "It will see:",
        "oidc_device_scope_openid": "That it is you (an identifier of your account)",
        "oidc_device_scope_profile": "Your name and username",
        "oidc_device_scope_email": "Your email address",
        "oidc_device_scope_groups": "The groups you are in",
        "oidc_device_allow_button": "Allow",
        "oidc_device_deny_button": "Deny",
        "oidc_device_warning": "If someone else gave you this code, deny: allowing would let them into your account.",
        "oidc_device_approved_title": "Device connected",
        "oidc_device_approved_text": "{app} is signed in. You can go back to your device.",
        "oidc_device_denied_title": "Request denied",
        "oidc_device_denied_text": "{app} was not let in. You can close this page.",
        "oidc_device_refused_title": "Not allowed",
        "oidc_device_refused_text": "Your account may not use {app}. Ask the site's operator if you think it should.",
    ]
}
