// French+OneTimeCodes.swift: French wording of one-time codes and recovery codes (« validation en deux étapes »,
// « application d’authentification », « codes de secours »).

extension MessageCatalog {
    /// French wording of one-time codes; merged into `french` (a key there must not repeat here).
    static let frenchOneTimeCodes: [String: String] = [
        "settings_two_step": "Validation en deux étapes",
        "two_step_title": "Validation en deux étapes",
        "two_step_intro": "Après votre mot de passe, nous demandons aussi un code d’une application d’authentification sur votre téléphone. Quelqu’un qui connaîtrait votre mot de passe ne pourrait toujours pas se connecter sans lui.",
        "two_step_state_off": "La validation en deux étapes est désactivée.",
        "two_step_state_on": "La validation en deux étapes est activée : après votre mot de passe, nous demandons un code de votre application d’authentification.",
        "two_step_codes_left": "Codes de secours restants : {count} sur 10.",
        "two_step_codes_low": "Il reste peu de codes de secours. Créez-en de nouveaux et gardez-les en lieu sûr.",
        "two_step_begin_button": "Configurer une application d’authentification",

        "two_step_scan": "1. Scannez ce code QR avec votre application d’authentification.",
        "two_step_qr_label": "Code QR pour votre application d’authentification",
        "two_step_manual": "Impossible de le scanner ? Saisissez plutôt cette clé dans l’application (basée sur l’heure) :",
        "two_step_uri": "Ou ouvrez ce lien sur l’appareil qui a l’application :",
        "two_step_enter_code": "2. Saisissez le code à six chiffres que l’application affiche maintenant.",
        "two_step_code_label": "Code",
        "two_step_code_hint": "Six chiffres ; un nouveau code toutes les 30 secondes.",
        "two_step_confirm_button": "Activer",
        "wrong_code": "ce code n’est pas celui qu’affiche votre application : vérifiez-la et saisissez le code actuel",

        "two_step_codes_title": "Vos codes de secours",
        "two_step_codes_text": "Chacun de ces codes vous connecte une fois quand vous n’avez pas votre application d’authentification. Imprimez-les ou enregistrez-les dès maintenant dans votre gestionnaire de mots de passe : ils ne sont affichés que cette fois.",
        "two_step_codes_done": "Je les ai gardés",
        "two_step_renew_text": "De nouveaux codes de secours remplacent tous les anciens, utilisés ou non.",
        "two_step_renew_button": "Créer de nouveaux codes de secours",

        "two_step_off_text": "Désactiver la validation en deux étapes supprime la clé de l’application et vos codes de secours. Votre mot de passe seul vous connectera.",
        "two_step_off_button": "Désactiver la validation en deux étapes",

        "two_step_turned_on": "La validation en deux étapes est activée.",
        "two_step_turned_off": "La validation en deux étapes est désactivée.",
        "two_step_already_on": "La validation en deux étapes est déjà activée.",
        "two_step_off": "La validation en deux étapes est désactivée.",
        "two_step_not_begun": "Cette configuration a expiré. Veuillez recommencer.",

        "mail_second_factor_enabled_subject": "La validation en deux étapes a été activée pour votre compte {site}",
        "mail_second_factor_enabled_intro": "La validation en deux étapes a été activée pour votre compte : la connexion demande désormais, après le mot de passe, un code d’une application d’authentification.",
        "mail_second_factor_enabled_not_you": "Si vous n’êtes pas à l’origine de cette action, réinitialisez votre mot de passe et vérifiez vos paramètres :",
        "mail_second_factor_removed_subject": "La validation en deux étapes a été désactivée pour votre compte {site}",
        "mail_second_factor_removed_intro": "La validation en deux étapes a été désactivée pour votre compte : votre mot de passe seul vous connecte désormais.",
        "mail_second_factor_removed_not_you": "Si vous n’êtes pas à l’origine de cette action, changez votre mot de passe et réactivez-la dans vos paramètres :",
    ]
}
