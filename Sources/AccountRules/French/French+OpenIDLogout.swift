// French+OpenIDLogout.swift: French wording of the OpenID Connect logout an app starts (EndSessionEndpoint).

extension MessageCatalog {
    /// French wording of the apps' logout; merged into `french` (a key there must not repeat here).
    static let frenchOpenIDLogout: [String: String] = [
        "oidc_logout_title": "Déconnexion",
        "oidc_logout_question": "Voulez-vous vous déconnecter de {site} ?",
        "oidc_logout_app": "{app} demande à vous déconnecter.",
        "oidc_logout_button": "Se déconnecter",
        "oidc_logout_cancel": "Rester connecté",
        "oidc_logout_done": "Vous êtes déconnecté.",
        "oidc_logout_client_mismatch": "Ce lien de déconnexion nomme deux applications différentes. Rien n’a été changé.",
    ]
}
