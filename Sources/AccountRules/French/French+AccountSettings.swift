// French+AccountSettings.swift: French wording of the password, sessions and deletion pages.

extension MessageCatalog {
    /// French wording of the password, sessions and deletion pages; merged into `french` (a key there must not repeat here).
    static let frenchAccountSettings: [String: String] = [
        // Password change (the button also serves the page that sets a first password, hence « Enregistrer »).
        "password_change_title": "Modifier votre mot de passe",
        "password_change_text": "Saisissez votre mot de passe actuel, puis deux fois le nouveau. Tous les autres navigateurs connectés à votre compte seront déconnectés ; celui-ci restera connecté.",
        "password_change_button": "Enregistrer le mot de passe",
        "password_unchanged": "le nouveau mot de passe doit être différent de l’actuel",
        "password_updated": "Votre mot de passe a été modifié. Toutes les autres sessions ont été déconnectées.",

        // Sessions.
        "sessions_title": "Vos sessions ouvertes",
        "sessions_text": "Ces navigateurs sont connectés à votre compte. Si vous ne reconnaissez pas l’un d’eux, déconnectez-le et modifiez votre mot de passe.",
        "sessions_this_browser": "ce navigateur",
        "sessions_address": "Adresse IP",
        "sessions_created": "Connexion",
        "sessions_last_seen": "Dernière activité",
        "sessions_remembered": "Session mémorisée sur cet appareil",
        "sessions_revoke_button": "Déconnecter cette session",
        "sessions_revoke_others_button": "Déconnecter toutes les autres sessions",
        "sessions_only_this": "Aucun autre navigateur n’est connecté à votre compte.",
        "session_browser_on_system": "{browser} sur {system}",
        "session_unknown_browser_on_system": "Un navigateur sur {system}",
        "session_unknown_browser": "Navigateur inconnu",
        "session_revoked": "Cette session a été déconnectée.",
        "sessions_revoked_others": "Toutes les autres sessions ont été déconnectées.",

        // Account deletion.
        "delete_account_title": "Supprimer votre compte",
        "delete_account_text": "La suppression de votre compte est définitive : elle efface aussi ses adresses e-mail, ses sessions et les e-mails pas encore envoyés. Elle ne peut pas être annulée.",
        "delete_account_confirm_text": "Saisissez votre mot de passe pour confirmer. Nous enverrons un dernier message à votre adresse principale.",
        "delete_account_button": "Supprimer mon compte",
        "account_deleted": "Votre compte a été supprimé. Au revoir, et merci.",
    ]
}
