// French+Passkeys.swift: French wording of passkeys (« clés d’accès »): the settings page, the sign-in and
// re-authentication buttons, the outcomes, and the mails on adding and removing one.

extension MessageCatalog {
    /// French wording of passkeys; merged into `french` (a key there must not repeat here).
    static let frenchPasskeys: [String: String] = [
        "settings_passkeys": "Clés d’accès",
        "passkeys_title": "Clés d’accès",
        "passkeys_text": "Une clé d’accès vous connecte avec le verrouillage d’écran de votre appareil (empreinte, visage ou code) au lieu d’un mot de passe. Elle est conservée sur votre appareil ou dans votre gestionnaire de mots de passe, et ne fonctionne que sur ce site.",
        "passkeys_empty": "Vous n’avez pas encore de clé d’accès.",
        "passkeys_add_heading": "Ajouter une clé d’accès",
        "passkeys_name_label": "Nom (facultatif)",
        "passkeys_name_hint": "Pour distinguer vos clés d’accès, par exemple « Ordinateur du bureau ».",
        "passkeys_add_button": "Ajouter une clé d’accès",
        "passkeys_unavailable": "Les clés d’accès ne peuvent pas encore être utilisées sur ce site.",
        "passkeys_unsupported": "Ce navigateur ne peut pas utiliser de clés d’accès. Essayez un navigateur récent, ou un autre appareil.",
        "passkeys_created_at": "Ajoutée le",
        "passkeys_last_used": "Dernière utilisation",
        "passkeys_never": "Jamais",
        "passkeys_counter_went_back": "Attention : le {date}, cette clé d’accès a répondu avec un compteur de signatures plus bas qu’avant. Si vous ne l’avez pas copiée sur un autre appareil, supprimez-la et ajoutez-en une nouvelle.",
        "passkeys_rename_label": "Nouveau nom pour {name}",
        "passkeys_rename_button": "Renommer",
        "passkeys_remove_button": "Supprimer",
        "passkeys_remove_label": "Supprimer {name}",
        "passkey_default_name": "Clé d’accès",
        "sign_in_passkey_button": "Se connecter avec une clé d’accès",
        "second_factor_passkey_button": "Utiliser plutôt une clé d’accès",
        "reauthenticate_passkey_button": "Confirmer avec une clé d’accès",

        "passkey_added": "La clé d’accès a été ajoutée. Vous pouvez maintenant vous connecter avec elle.",
        "passkey_renamed": "La clé d’accès a été renommée.",
        "passkey_removed": "La clé d’accès a été supprimée.",
        "passkey_last_method": "Cette clé d’accès est votre seul moyen de connexion. Définissez d’abord un mot de passe ou ajoutez une autre clé d’accès.",
        "passkey_invalid": "Cette clé d’accès n’a pas pu servir. Réessayez, ou utilisez un autre moyen de connexion.",
        "passkey_challenge_invalid": "Cette tentative a expiré ou a déjà servi. Veuillez réessayer.",
        "passkey_exists": "Cette clé d’accès est déjà enregistrée.",
        "passkey_too_many": "Votre compte a déjà le nombre maximal de clés d’accès. Supprimez-en une d’abord.",
        "passkey_name_missing": "Veuillez donner un nom à la clé d’accès.",
        "passkey_cancelled": "Aucune clé d’accès n’a été utilisée. Vous pouvez réessayer.",
        "passkey_failed": "Un problème est survenu avec la clé d’accès. Veuillez réessayer.",

        "mail_passkey_added_subject": "Une clé d’accès a été ajoutée à votre compte {site}",
        "mail_passkey_added_intro": "Une clé d’accès a été ajoutée à votre compte. Elle peut désormais servir à vous connecter :",
        "mail_passkey_added_not_you": "Si vous n’êtes pas à l’origine de cette action, supprimez-la et changez votre mot de passe :",
        "mail_passkey_removed_subject": "Une clé d’accès a été supprimée de votre compte {site}",
        "mail_passkey_removed_intro": "Une clé d’accès a été supprimée de votre compte. Elle ne peut plus servir à vous connecter :",
        "mail_passkey_removed_not_you": "Si vous n’êtes pas à l’origine de cette action, vérifiez les clés d’accès dans vos paramètres :",
    ]
}
