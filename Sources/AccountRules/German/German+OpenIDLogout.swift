// German+OpenIDLogout.swift: German wording of the OpenID Connect logout an app starts (EndSessionEndpoint).

extension MessageCatalog {
    /// German wording of the apps' logout; merged into `german` (a key there must not repeat here).
    static let germanOpenIDLogout: [String: String] = [
        "oidc_logout_title": "Abmelden",
        "oidc_logout_question": "Möchten Sie sich von {site} abmelden?",
        "oidc_logout_app": "{app} möchte Sie abmelden.",
        "oidc_logout_button": "Abmelden",
        "oidc_logout_cancel": "Angemeldet bleiben",
        "oidc_logout_done": "Sie sind abgemeldet.",
        "oidc_logout_client_mismatch": "Dieser Abmeldelink nennt zwei verschiedene Apps. Es wurde nichts geändert.",
    ]
}
