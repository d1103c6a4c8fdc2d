// French+OpenIDDevice.swift: French wording of the device page (`<base>/device`, RFC 8628): saisir le code qu’affiche
// un appareil, puis autoriser ou refuser l’application qui le demande.

extension MessageCatalog {
    /// French wording of the device page; merged into `french` (a key there must not repeat here).
    static let frenchOpenIDDevice: [String: String] = [
        "oidc_device_title": "Connecter un appareil",
        "oidc_device_text": "Saisissez le code qu’affiche votre appareil.",
        "oidc_device_code_label": "Code",
        "oidc_device_code_hint": "Huit lettres, par exemple BCDF-GHJK.",
        "oidc_device_continue_button": "Continuer",
        "oidc_device_unknown": "Ce code est inconnu, a déjà servi ou a expiré. Vérifiez-le, ou recommencez sur votre appareil.",
        "oidc_device_confirm_title": "Autoriser l’application {app} ?",
        "oidc_device_confirm_text": "L’application {app} demande à se connecter avec votre compte {email}. Ne l’autorisez que si vous l’avez lancée vous-même sur votre appareil et qu’il affiche ce code :",
        "oidc_device_sees": "Elle verra :",
        "oidc_device_scope_openid": "Qu’il s’agit de vous (un identifiant de votre compte)",
        "oidc_device_scope_profile": "Votre nom et votre nom d’utilisateur",
        "oidc_device_scope_email": "Votre adresse e-mail",
        "oidc_device_scope_groups": "Les groupes dont vous faites partie",
        "oidc_device_allow_button": "Autoriser",
        "oidc_device_deny_button": "Refuser",
        "oidc_device_warning": "Si quelqu’un d’autre vous a donné ce code, refusez : l’autoriser lui ouvrirait votre compte.",
        "oidc_device_approved_title": "Appareil connecté",
        "oidc_device_approved_text": "L’application {app} est connectée. Vous pouvez revenir à votre appareil.",
        "oidc_device_denied_title": "Demande refusée",
        "oidc_device_denied_text": "L’application {app} n’a pas été autorisée. Vous pouvez fermer cette page.",
        "oidc_device_refused_title": "Accès refusé",
        "oidc_device_refused_text": "Votre compte ne peut pas utiliser l’application {app}. Adressez-vous à l’opérateur du site si cela vous semble une erreur.",
    ]
}
