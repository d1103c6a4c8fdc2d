// German+OpenID.swift: German wording of the OpenID Connect provider's browser side (see Messages+OpenID.swift), formal „Sie“.
// `{client}` is the application's name, used without an article („die Anwendung {client}“).

extension MessageCatalog {
    /// German wording of the OpenID Connect provider's pages; merged into `german` (a key there must not repeat here).
    static let germanOpenID: [String: String] = [
        "oidc_error_no_client": "Diese Anmeldeanfrage sagt nicht, für welche Anwendung sie ist. Gehen Sie zurück zur Anwendung und versuchen Sie es erneut.",
        "oidc_error_unknown_client": "Diese Anmeldeanfrage kommt von einer Anwendung, die diese Seite nicht kennt. Gehen Sie zurück zur Anwendung und versuchen Sie es erneut.",
        "oidc_error_no_redirect_uri": "Diese Anmeldeanfrage sagt nicht, wohin es zurückgehen soll. Gehen Sie zurück zur Anwendung und versuchen Sie es erneut.",
        "oidc_error_redirect_uri": "Diese Anmeldeanfrage will zu einer Adresse zurück, die die Anwendung nicht registriert hat; wir haben hier angehalten. Gehen Sie zurück zur Anwendung und versuchen Sie es erneut.",
        "oidc_error_request_uri": "Diese Anmeldeanfrage ist abgelaufen oder wurde schon verwendet. Gehen Sie zurück zur Anwendung und versuchen Sie es erneut.",

        "oidc_consent_title": "Die Anwendung {client} zulassen?",
        "oidc_consent_text": "Die Anwendung {client} möchte Sie mit Ihrem Konto hier anmelden.",
        "oidc_consent_sees": "Wenn Sie es erlauben, sieht sie:",
        "oidc_consent_where": "Danach kehren Sie zurück zu",
        "oidc_consent_allow": "Erlauben",
        "oidc_consent_deny": "Nicht erlauben",
        "oidc_scope_openid": "wer Sie hier sind (eine Kennung, die sich nie ändert)",
        "oidc_scope_profile": "Ihren Namen und Benutzernamen",
        "oidc_scope_email": "Ihre E-Mail-Adresse und ob Sie sie bestätigt haben",
        "oidc_scope_groups": "die Gruppen, zu denen Sie gehören",

        "oidc_select_title": "Konto wählen",
        "oidc_select_text": "Mit welchem Konto soll die Anwendung {client} Sie anmelden?",
        "oidc_select_continue": "Weiter als {email}",
        "oidc_select_another": "Anderes Konto verwenden",

        "settings_apps": "Verbundene Anwendungen",
        "apps_title": "Verbundene Anwendungen",
        "apps_text": "Anwendungen, die Sie mit diesem Konto anmelden dürfen.",
        "apps_sees": "Sie sieht:",
        "apps_granted_at": "Erlaubt am",
        "apps_last_used": "Zuletzt verwendet",
        "apps_never_used": "nie",
        "apps_revoke_button": "Trennen",
        "apps_revoke_label": "Die Anwendung {client} trennen",
        "apps_revoked": "Die Anwendung wurde getrennt: Sie fragt erneut, bevor sie Sie anmeldet.",
        "apps_empty": "Sie haben noch keiner Anwendung erlaubt, Sie anzumelden.",
    ]
}
