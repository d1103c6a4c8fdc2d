// French+OpenID.swift: French wording of the OpenID Connect provider's browser side (see Messages+OpenID.swift).
// `{client}` is the application's name; it is named « l’application {client} » or left without an article.

extension MessageCatalog {
    /// French wording of the OpenID Connect provider's pages; merged into `french` (a key there must not repeat here).
    static let frenchOpenID: [String: String] = [
        "oidc_error_no_client": "Cette demande de connexion ne dit pas pour quelle application elle est faite. Revenez à l’application et réessayez.",
        "oidc_error_unknown_client": "Cette demande de connexion vient d’une application que ce site ne connaît pas. Revenez à l’application et réessayez.",
        "oidc_error_no_redirect_uri": "Cette demande de connexion ne dit pas où revenir. Revenez à l’application et réessayez.",
        "oidc_error_redirect_uri": "Cette demande de connexion veut revenir à une adresse que l’application n’a pas enregistrée : nous nous arrêtons ici. Revenez à l’application et réessayez.",
        "oidc_error_request_uri": "Cette demande de connexion a expiré ou a déjà servi. Revenez à l’application et réessayez.",

        "oidc_consent_title": "Autoriser l’application {client} ?",
        "oidc_consent_text": "L’application {client} demande à vous connecter avec votre compte d’ici.",
        "oidc_consent_sees": "Si vous l’autorisez, elle verra :",
        "oidc_consent_where": "Vous reviendrez ensuite sur",
        "oidc_consent_allow": "Autoriser",
        "oidc_consent_deny": "Ne pas autoriser",
        "oidc_scope_openid": "qui vous êtes ici (un identifiant permanent)",
        "oidc_scope_profile": "votre nom et votre nom d’utilisateur",
        "oidc_scope_email": "votre adresse e-mail, et si vous l’avez confirmée",
        "oidc_scope_groups": "les groupes dont vous faites partie",

        "oidc_select_title": "Choisissez un compte",
        "oidc_select_text": "Avec quel compte l’application {client} doit-elle vous connecter ?",
        "oidc_select_continue": "Continuer avec {email}",
        "oidc_select_another": "Utiliser un autre compte",

        "settings_apps": "Applications connectées",
        "apps_title": "Applications connectées",
        "apps_text": "Les applications que vous laissez vous connecter avec ce compte.",
        "apps_sees": "Elle voit :",
        "apps_granted_at": "Autorisée le",
        "apps_last_used": "Dernière utilisation",
        "apps_never_used": "jamais",
        "apps_revoke_button": "Déconnecter",
        "apps_revoke_label": "Déconnecter l’application {client}",
        "apps_revoked": "L’application a été déconnectée : elle vous demandera à nouveau avant de vous connecter.",
        "apps_empty": "Vous n’avez encore laissé aucune application vous connecter.",
    ]
}
