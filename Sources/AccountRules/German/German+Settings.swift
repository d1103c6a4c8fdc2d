// German+Settings.swift: German wording shared by the settings pages, re-authentication and the account switcher.

extension MessageCatalog {
    /// German wording of the settings frame; merged into `german` (a key there must not repeat here).
    static let germanSettings: [String: String] = [
        "settings_title": "Einstellungen",
        "settings_link": "Einstellungen",
        "settings_profile": "Profil",
        "settings_emails": "E-Mail-Adressen",
        "settings_password": "Passwort",
        "settings_sessions": "Sitzungen",
        "settings_delete": "Konto löschen",
        "wrong_password": "ist nicht korrekt",
        "field_display_name": "Anzeigename",
        "field_current_password": "Aktuelles Passwort",

        // Re-authentication.
        "reauthenticate_title": "Identität bestätigen",
        "reauthenticate_text": "Geben Sie Ihr Passwort ein, um fortzufahren. Wir fragen erneut danach, wenn Sie es zuletzt vor mehr als ein paar Minuten eingegeben haben.",
        "reauthenticate_button": "Weiter",
        "reauthentication_required": "Bitte geben Sie Ihr Passwort erneut ein, um fortzufahren.",
        "reauthenticated": "Vielen Dank. Sie können fortfahren.",

        // Several accounts in one browser.
        "accounts_title": "Ihre Konten",
        "switch_to": "Zu {email} wechseln",
        "switch_button": "Wechseln",
        "active_account": "aktiv",
        "sign_in_another": "Weiteres Konto anmelden",
        "sign_out_all_button": "Alle Konten abmelden",
        "sign_in_another_title": "Weiteres Konto anmelden",
        "switched_account": "Konto gewechselt.",
        "signed_out_all": "Sie wurden von allen Konten abgemeldet.",
        "signed_out_one": "Sie wurden von diesem Konto abgemeldet.",
        "too_many_accounts": "In diesem Browser sind bereits so viele Konten angemeldet wie möglich. Melden Sie zuerst eines davon ab.",

        // Mail about settings changes.
        "mail_address_verification_subject": "Bestätigen Sie die neue Adresse für Ihr Konto bei {site}",
        "mail_address_verification_intro": "Diese Adresse wurde einem Konto hinzugefügt. Um zu bestätigen, dass sie Ihnen gehört, und sie ab sofort zu nutzen, folgen Sie bitte diesem Link:",
        "mail_address_verification_button": "Adresse bestätigen",
        "mail_address_verification_ignore": "Wenn Sie diese Adresse nicht hinzugefügt haben, können Sie diese Nachricht ignorieren. Die Adresse wird dann nicht verwendet.",
        "mail_address_added_subject": "Ihrem {site}-Konto wurde eine Adresse hinzugefügt",
        "mail_address_added_intro": "Diese Adresse wurde als Adresse Ihres Kontos bestätigt und kann sich nun anmelden und Links zum Zurücksetzen des Passworts erhalten:",
        "mail_address_removed_subject": "Aus Ihrem {site}-Konto wurde eine Adresse entfernt",
        "mail_address_removed_intro": "Diese Adresse wurde aus Ihrem Konto entfernt und kann sich nicht mehr damit anmelden:",
        "mail_address_changes_settings": "Ihre E-Mail-Adressen:",
        "mail_primary_address_changed_subject": "Die Hauptadresse Ihres Kontos bei {site} wurde geändert",
        "mail_primary_address_changed_intro": "Nachrichten zu Ihrem Konto werden ab sofort an eine andere Adresse dieses Kontos gesendet:",
        "mail_primary_address_changed_not_you": "Wenn Sie diese Änderung nicht vorgenommen haben, setzen Sie Ihr Passwort bitte sofort zurück:",
        "mail_account_deleted_subject": "Ihr Konto bei {site} wurde gelöscht",
        "mail_account_deleted_intro": "Ihr Konto und alle zugehörigen Daten wurden wie gewünscht gelöscht. Auf Wiedersehen und vielen Dank!",
        "mail_account_deleted_not_you": "Wenn Sie die Löschung nicht veranlasst haben, wenden Sie sich bitte umgehend an die Betreiber dieser Website.",
        "sign_out_title": "Abmelden",
        "sign_out_question": "Von {site} abmelden?",
        "sign_out_cancel": "Angemeldet bleiben",
    ]
}
