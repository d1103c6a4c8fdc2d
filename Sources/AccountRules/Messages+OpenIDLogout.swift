// Messages+OpenIDLogout.swift: English wording of the OpenID Connect logout an app starts (EndSessionEndpoint): the
// confirmation page, the signed-out page, and its one error.

extension MessageCatalog {
    /// English wording of the apps' logout; merged into `english` (a key there must not repeat here).
    static let englishOpenIDLogout: [String: String] = [
        "oidc_logout_title": "Sign out",
        "oidc_logout_question": "Do you want to sign out of {site}?",
        "oidc_logout_app": "{app} asks to sign you out.",
        "oidc_logout_button": "Sign out",
        "oidc_logout_cancel": "Stay signed in",
        "oidc_logout_done": "You are signed out.",
        "oidc_logout_client_mismatch": "This sign-out link names two different apps. Nothing was changed.",
    ]
}
