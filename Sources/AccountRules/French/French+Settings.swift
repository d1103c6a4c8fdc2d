// French+Settings.swift: French wording shared by the settings pages, re-authentication and the account switcher.

extension MessageCatalog {
    /// French wording of the settings frame; merged into `french` (a key there must not repeat here).
    static let frenchSettings: [String: String] = [
        "settings_title": "Paramètres",
        "settings_link": "Paramètres",
        "settings_profile": "Profil",
        "settings_emails": "Adresses e-mail",
        "settings_password": "Mot de passe",
        "settings_sessions": "Sessions",
        "settings_delete": "Supprimer le compte",
        "wrong_password": "ce mot de passe n’est pas correct",
        "field_display_name": "Nom affiché",
        "field_current_password": "Mot de passe actuel",

        // Re-authentication.
        "reauthenticate_title": "Confirmez votre identité",
        "reauthenticate_text": "Saisissez votre mot de passe pour continuer. Nous le redemandons lorsque votre dernière saisie date de plus de quelques minutes.",
        "reauthenticate_button": "Continuer",
        "reauthentication_required": "Veuillez saisir à nouveau votre mot de passe pour continuer.",
        "reauthenticated": "Merci. Vous pouvez continuer.",

        // Several accounts in one browser.
        "accounts_title": "Vos comptes",
        "switch_to": "Passer au compte {email}",
        "switch_button": "Changer",
        // A badge beside the address of the account in use.
        "active_account": "actif",
        "sign_in_another": "Se connecter à un autre compte",
        "sign_out_all_button": "Se déconnecter de tous les comptes",
        "sign_in_another_title": "Se connecter à un autre compte",
        "switched_account": "Changement de compte effectué.",
        "signed_out_all": "Déconnexion de tous les comptes effectuée.",
        "signed_out_one": "Déconnexion de ce compte effectuée.",
        "too_many_accounts": "Ce navigateur est déjà connecté au nombre maximal de comptes. Déconnectez-vous d’abord de l’un d’eux.",

        // Mail about settings changes.
        "mail_address_verification_subject": "Confirmez l’adresse ajoutée à votre compte {site}",
        "mail_address_verification_intro": "Cette adresse a été ajoutée à un compte. Pour confirmer qu’elle vous appartient et commencer à l’utiliser, suivez ce lien :",
        "mail_address_verification_button": "Confirmer cette adresse",
        "mail_address_verification_ignore": "Si vous n’avez pas ajouté cette adresse, vous pouvez ignorer ce message : elle ne sera pas utilisée.",
        "mail_address_added_subject": "Une adresse a été ajoutée à votre compte {site}",
        "mail_address_added_intro": "Cette adresse a été confirmée comme adresse de votre compte ; elle peut désormais se connecter et recevoir les liens de réinitialisation du mot de passe :",
        "mail_address_removed_subject": "Une adresse a été retirée de votre compte {site}",
        "mail_address_removed_intro": "Cette adresse a été retirée de votre compte et ne peut plus s'y connecter :",
        "mail_address_changes_settings": "Vos adresses e-mail :",
        "mail_primary_address_changed_subject": "L’adresse principale de votre compte {site} a été modifiée",
        "mail_primary_address_changed_intro": "Les e-mails concernant votre compte sont désormais envoyés à une autre de ses adresses :",
        "mail_primary_address_changed_not_you": "Si vous n’êtes pas à l’origine de cette modification, réinitialisez votre mot de passe sans attendre :",
        "mail_account_deleted_subject": "Votre compte {site} a été supprimé",
        "mail_account_deleted_intro": "Comme vous l’avez demandé, votre compte et tout ce qu’il contenait ont été supprimés. Au revoir, et merci.",
        "mail_account_deleted_not_you": "Si vous n’avez rien demandé de tel, prévenez sans attendre les responsables de ce site.",
        "sign_out_title": "Se déconnecter",
        "sign_out_question": "Vous déconnecter de {site} ?",
        "sign_out_cancel": "Rester connecté",
    ]
}
