// German+Passkeys.swift: German wording of passkeys: the settings page, the sign-in and re-authentication buttons,
// the outcomes, and the mails on adding and removing one.

extension MessageCatalog {
    /// German wording of passkeys; merged into `german` (a key there must not repeat here).
    static let germanPasskeys: [String: String] = [
        "settings_passkeys": "Passkeys",
        "passkeys_title": "Passkeys",
        "passkeys_text": "Mit einem Passkey melden Sie sich über die Bildschirmsperre Ihres Geräts (Fingerabdruck, Gesicht oder PIN) statt mit einem Passwort an. Er wird auf Ihrem Gerät oder in Ihrem Passwortmanager gespeichert und funktioniert nur auf dieser Website.",
        "passkeys_empty": "Sie haben noch keine Passkeys.",
        "passkeys_add_heading": "Passkey hinzufügen",
        "passkeys_name_label": "Name (freiwillig)",
        "passkeys_name_hint": "Damit Sie Ihre Passkeys unterscheiden können, zum Beispiel „Arbeitslaptop“.",
        "passkeys_add_button": "Passkey hinzufügen",
        "passkeys_unavailable": "Passkeys können auf dieser Website noch nicht verwendet werden.",
        "passkeys_unsupported": "Dieser Browser kann keine Passkeys verwenden. Versuchen Sie es mit einem aktuellen Browser oder einem anderen Gerät.",
        "passkeys_created_at": "Hinzugefügt",
        "passkeys_last_used": "Zuletzt verwendet",
        "passkeys_never": "Nie",
        "passkeys_counter_went_back": "Achtung: Am {date} hat dieser Passkey mit einem niedrigeren Signaturzähler als zuvor geantwortet. Wenn Sie ihn nicht auf ein anderes Gerät kopiert haben, entfernen Sie ihn und fügen Sie einen neuen hinzu.",
        "passkeys_rename_label": "Neuer Name für {name}",
        "passkeys_rename_button": "Umbenennen",
        "passkeys_remove_button": "Entfernen",
        "passkeys_remove_label": "{name} entfernen",
        "passkey_default_name": "Passkey",
        "sign_in_passkey_button": "Mit einem Passkey anmelden",
        "second_factor_passkey_button": "Stattdessen einen Passkey verwenden",
        "reauthenticate_passkey_button": "Mit einem Passkey bestätigen",

        "passkey_added": "Der Passkey wurde hinzugefügt. Sie können sich jetzt damit anmelden.",
        "passkey_renamed": "Der Passkey wurde umbenannt.",
        "passkey_removed": "Der Passkey wurde entfernt.",
        "passkey_last_method": "Dieser Passkey ist Ihre einzige Möglichkeit, sich anzumelden. Legen Sie zuerst ein Passwort fest oder fügen Sie einen weiteren Passkey hinzu.",
        "passkey_invalid": "Dieser Passkey konnte nicht verwendet werden. Versuchen Sie es erneut oder melden Sie sich anders an.",
        "passkey_challenge_invalid": "Dieser Versuch ist abgelaufen oder wurde bereits verwendet. Bitte versuchen Sie es erneut.",
        "passkey_exists": "Dieser Passkey ist bereits registriert.",
        "passkey_too_many": "Ihr Konto hat bereits die höchste Zahl an Passkeys. Entfernen Sie zuerst einen.",
        "passkey_name_missing": "Bitte geben Sie dem Passkey einen Namen.",
        "passkey_cancelled": "Es wurde kein Passkey verwendet. Sie können es erneut versuchen.",
        "passkey_failed": "Mit dem Passkey ist etwas schiefgegangen. Bitte versuchen Sie es erneut.",

        "mail_passkey_added_subject": "Ein Passkey wurde Ihrem Konto bei {site} hinzugefügt",
        "mail_passkey_added_intro": "Ihrem Konto wurde ein Passkey hinzugefügt. Er kann jetzt zur Anmeldung verwendet werden:",
        "mail_passkey_added_not_you": "Wenn Sie das nicht waren, entfernen Sie ihn und ändern Sie Ihr Passwort:",
        "mail_passkey_removed_subject": "Ein Passkey wurde aus Ihrem Konto bei {site} entfernt",
        "mail_passkey_removed_intro": "Aus Ihrem Konto wurde ein Passkey entfernt. Er kann nicht mehr zur Anmeldung verwendet werden:",
        "mail_passkey_removed_not_you": "Wenn Sie das nicht waren, prüfen Sie die Passkeys in Ihren Einstellungen:",
    ]
}
