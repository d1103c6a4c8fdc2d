// German+OpenIDDevice.swift: German wording of the device page (`<base>/device`, RFC 8628): den Code eingeben, den ein
// Gerät zeigt, und die App, die fragt, zulassen oder ablehnen.

extension MessageCatalog {
    /// German wording of the device page; merged into `german` (a key there must not repeat here).
    static let germanOpenIDDevice: [String: String] = [
        "oidc_device_title": "Gerät verbinden",
        "oidc_device_text": "Geben Sie den Code ein, den Ihr Gerät anzeigt.",
        "oidc_device_code_label": "Code",
        "oidc_device_code_hint": "Acht Buchstaben, zum Beispiel BCDF-GHJK.",
        "oidc_device_continue_button": "Weiter",
        "oidc_device_unknown": "Dieser Code ist unbekannt, wurde schon verwendet oder ist abgelaufen. Prüfen Sie ihn, oder beginnen Sie auf Ihrem Gerät neu.",
        "oidc_device_confirm_title": "{app} zulassen?",
        "oidc_device_confirm_text": "{app} möchte sich mit Ihrem Konto {email} anmelden. Lassen Sie es nur zu, wenn Sie das selbst auf Ihrem Gerät begonnen haben und es diesen Code zeigt:",
        "oidc_device_sees": "Die App sieht:",
        "oidc_device_scope_openid": "Dass Sie es sind (eine Kennung Ihres Kontos)",
        "oidc_device_scope_profile": "Ihren Namen und Benutzernamen",
        "oidc_device_scope_email": "Ihre E-Mail-Adresse",
        "oidc_device_scope_groups": "Die Gruppen, in denen Sie sind",
        "oidc_device_allow_button": "Zulassen",
        "oidc_device_deny_button": "Ablehnen",
        "oidc_device_warning": "Wenn Ihnen jemand anderes diesen Code gegeben hat, lehnen Sie ab: Zulassen würde ihm Ihr Konto öffnen.",
        "oidc_device_approved_title": "Gerät verbunden",
        "oidc_device_approved_text": "{app} ist angemeldet. Sie können zu Ihrem Gerät zurückkehren.",
        "oidc_device_denied_title": "Anfrage abgelehnt",
        "oidc_device_denied_text": "{app} wurde nicht zugelassen. Sie können diese Seite schließen.",
        "oidc_device_refused_title": "Nicht erlaubt",
        "oidc_device_refused_text": "Ihr Konto darf {app} nicht verwenden. Wenden Sie sich an den Betreiber der Website, wenn Sie das für einen Fehler halten.",
    ]
}
