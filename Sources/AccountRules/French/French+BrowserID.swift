// French+BrowserID.swift: French wording of the BrowserID dialog and the pages include.js opens.

extension MessageCatalog {
    /// French wording of the BrowserID pages; merged into `french` (a key there must not repeat here).
    static let frenchBrowserID: [String: String] = [
        "browserid_dialog_title": "Se connecter avec votre adresse e-mail",
        // Followed by the site's name and origin.
        "browserid_site_asks": "Connexion à",
        "browserid_sign_in_first": "Connectez-vous d’abord à votre compte, puis choisissez l’adresse à communiquer au site.",
        "browserid_choose_email": "Quelle adresse communiquer au site ?",
        "browserid_not_my_computer": "Ce n’est pas mon ordinateur (la session sur le site ne durera qu’une heure)",
        "browserid_continue": "Continuer",
        "browserid_cancel": "Annuler",
        "browserid_no_verified_email": "Votre compte n’a pas encore d’adresse e-mail confirmée. Confirmez-en une, puis réessayez.",
        "browserid_waiting": "En attente du site…",
        "browserid_working": "Connexion en cours…",
        "browserid_failed": "La connexion n’a pas abouti. Veuillez réessayer.",
        "browserid_no_opener": "Cette fenêtre n’a pas été ouverte par un site. Fermez-la et recommencez depuis le site.",
        "browserid_site_not_allowed": "Ce site n’est pas autorisé à utiliser cette connexion. Fermez cette fenêtre.",
        // The native bridge (browserid/native): an app's web view.
        "browserid_native_returning": "Connecté. Retour à l’application…",
        "browserid_native_return": "Revenir à l’application",
        "browserid_native_choose_address": "Choisissez l’une de vos adresses confirmées.",
        "browserid_native_bad_origin": "Ce lien de connexion ne désigne pas un site web (une origine http ou https comme https://example.com).",
        "browserid_native_origin_refused": "Ce site ne peut pas demander de connexion ici.",
        "browserid_native_rate_limited": "Trop de connexions à des applications en peu de temps. Attendez quelques minutes, puis réessayez.",
    ]
}
