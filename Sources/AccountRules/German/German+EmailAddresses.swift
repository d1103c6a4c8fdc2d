// German+EmailAddresses.swift: German wording of the email addresses page.

extension MessageCatalog {
    /// Merged into `german` (a key there must not repeat here).
    static let germanEmailAddresses: [String: String] = [
        // The page.
        "emails_intro": "Sie können sich mit jeder bestätigten Adresse anmelden. Nachrichten zu Ihrem Konto gehen an die Hauptadresse.",
        "emails_list_caption": "Ihre E-Mail-Adressen",
        "emails_column_address": "Adresse",
        "emails_column_state": "Status",
        "emails_column_actions": "Aktionen",
        "address_state_primary": "Hauptadresse",
        "address_state_verified": "Bestätigt",
        "address_state_unverified": "Wartet auf Bestätigung",
        "address_state_primary_unverified": "Hauptadresse, wartet auf Bestätigung",
        "address_resend_button": "Link erneut senden",
        "address_make_primary_button": "Zur Hauptadresse machen",
        "address_remove_button": "Entfernen",
        "address_add_title": "Adresse hinzufügen",
        "address_add_text": "Wir senden einen Link an die neue Adresse. Sobald Sie diesem Link gefolgt sind, können Sie die Adresse verwenden.",
        "address_add_button": "Hinzufügen",

        // Field errors on the add form ("E-Mail-Adresse …").
        "address_already_yours": "gehört bereits zu Ihren Adressen",
        "address_unavailable": "kann Ihrem Konto nicht hinzugefügt werden",
        "address_limit": "kann nicht hinzugefügt werden: Ein Konto kann höchstens {count} Adressen haben",

        // Flash messages.
        "address_added": "Adresse hinzugefügt. Folgen Sie dem Link, den wir an diese Adresse gesendet haben, um sie zu bestätigen.",
        "address_confirmed": "Die Adresse ist bestätigt. Sie können sich jetzt damit anmelden.",
        "address_removed": "Adresse entfernt.",
        "address_resent": "Falls die Adresse noch auf ihre Bestätigung wartet, ist ein neuer Link unterwegs.",
        "address_primary_changed": "Ihre Hauptadresse wurde geändert. Wir haben die bisherige Adresse darüber informiert.",
        "address_last_verified": "Sie können Ihre einzige bestätigte Adresse nicht entfernen. Fügen Sie zuerst eine weitere hinzu und bestätigen Sie sie.",
        "address_primary_remove": "Sie können Ihre Hauptadresse nicht entfernen. Machen Sie zuerst eine andere bestätigte Adresse zur Hauptadresse.",
        "address_unverified_primary": "Nur eine bestätigte Adresse kann Hauptadresse werden. Folgen Sie zuerst dem Link, den wir an diese Adresse gesendet haben.",
        "address_not_found": "Diese Adresse gehört nicht zu Ihrem Konto.",
    ]
}
