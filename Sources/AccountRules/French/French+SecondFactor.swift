// French+SecondFactor.swift: French wording of the second step of a sign-in (see Messages+SecondFactor.swift).

extension MessageCatalog {
    /// Merged into `french` (a key there must not repeat here).
    static let frenchSecondFactor: [String: String] = [
        "second_factor_title": "Validation en deux étapes",
        "second_factor_text": "Saisissez le code de votre application d’authentification, ou l’un de vos codes de secours.",
        "second_factor_step_up_text": "Cette page demande votre deuxième étape. Saisissez le code de votre application d’authentification, ou l’un de vos codes de secours.",
        "second_factor_field_code": "Code",
        "second_factor_code_hint": "6 chiffres de l’application, ou un code de secours",
        "second_factor_button": "Valider",
        "second_factor_wrong_code": "ce code n’est pas le bon, ou a déjà servi",
        "second_factor_expired": "Cette connexion a pris trop de temps. Veuillez vous connecter à nouveau.",
        "second_factor_required": "Saisissez le code de votre deuxième étape pour terminer la connexion.",
        "second_factor_none": "Cette page demande la validation en deux étapes, que votre compte n’a pas encore. Configurez-la d’abord.",
        "second_factor_set_up_link": "Configurer la validation en deux étapes",
        "second_factor_passkey_link": "Ajouter plutôt une clé d’accès",
        "second_factor_enrol_required": "Veuillez terminer (ou configurer) la validation en deux étapes pour continuer.",
        "second_factor_other_account": "Se connecter avec un autre compte",
        "second_factor_passed": "C’est validé.",
    ]
}
