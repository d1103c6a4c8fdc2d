// German+AccountSettings.swift: German wording of the password, sessions and deletion pages.

extension MessageCatalog {
    /// Merged into `german` (a key there must not repeat here).
    static let germanAccountSettings: [String: String] = [
        // Password change.
        "password_change_title": "Passwort ändern",
        "password_change_text": "Geben Sie Ihr aktuelles Passwort und dann zweimal das neue ein. Alle anderen Browser, in denen Sie angemeldet sind, werden abgemeldet; dieser bleibt angemeldet.",
        "password_change_button": "Passwort ändern",
        "password_unchanged": "muss sich von Ihrem aktuellen Passwort unterscheiden",
        "password_updated": "Ihr Passwort wurde geändert. Alle anderen Sitzungen wurden beendet.",

        // Sessions.
        "sessions_title": "Wo Sie angemeldet sind",
        "sessions_text": "In diesen Browsern sind Sie bei Ihrem Konto angemeldet. Wenn Sie einen davon nicht wiedererkennen, beenden Sie die Sitzung und ändern Sie Ihr Passwort.",
        "sessions_this_browser": "dieser Browser",
        "sessions_address": "IP-Adresse",
        "sessions_created": "Angemeldet seit",
        "sessions_last_seen": "Zuletzt aktiv",
        "sessions_remembered": "Bleibt auf diesem Gerät angemeldet",
        "sessions_revoke_button": "Sitzung beenden",
        "sessions_revoke_others_button": "Alle anderen Sitzungen beenden",
        "sessions_only_this": "Sie sind in keinem anderen Browser bei Ihrem Konto angemeldet.",
        "session_browser_on_system": "{browser} unter {system}",
        "session_unknown_browser_on_system": "Ein Browser unter {system}",
        "session_unknown_browser": "Unbekannter Browser",
        "session_revoked": "Die Sitzung wurde beendet.",
        "sessions_revoked_others": "Alle anderen Sitzungen wurden beendet.",

        // Account deletion.
        "delete_account_title": "Konto löschen",
        "delete_account_text": "Wenn Sie Ihr Konto löschen, wird es endgültig entfernt – mit seinen E-Mail-Adressen, seinen Sitzungen und allen noch nicht versendeten Nachrichten. Das lässt sich nicht rückgängig machen.",
        "delete_account_confirm_text": "Geben Sie zur Bestätigung Ihr Passwort ein. Wir senden eine letzte Nachricht an Ihre Hauptadresse.",
        "delete_account_button": "Konto endgültig löschen",
        "account_deleted": "Ihr Konto wurde gelöscht. Auf Wiedersehen und vielen Dank!",
    ]
}
