// German+Social.swift: German wording of social sign-in: provider buttons, the behaviour table's outcomes, the pages
// that ask for an address or for the existing account, connected accounts in the settings, and its mails.
// `{provider}` is the provider's display name from the configuration („Google“, so „Google-Konto“).

extension MessageCatalog {
    /// German wording of social sign-in; merged into `german` (a key there must not repeat here).
    static let germanSocial: [String: String] = [
        "social_or": "oder",
        "social_sign_in_with": "Mit {provider} anmelden",
        "social_sign_up_with": "Mit {provider} registrieren",
        "social_continue_with": "Weiter mit {provider}",

        // Outcomes (flash and page messages).
        "social_cancelled": "Sie haben die Anmeldung mit {provider} abgebrochen.",
        "social_failed": "Die Anmeldung mit {provider} hat nicht funktioniert, weil der Dienst nicht wie erwartet geantwortet hat. Es wurde nichts geändert. Bitte versuchen Sie es später noch einmal.",
        "social_state_invalid": "Dieser Anmeldeversuch ist abgelaufen oder wurde bereits verwendet. Bitte beginnen Sie noch einmal von vorn.",
        "social_pending_invalid": "Dieser Anmeldeversuch ist abgelaufen. Bitte beginnen Sie noch einmal von vorn.",
        "social_identity_taken": "Dieses {provider}-Konto ist bereits mit einem anderen Konto verknüpft.",
        "social_already_linked": "Mit Ihrem Konto ist bereits ein {provider}-Konto verknüpft.",
        "social_wrong_account": "Das {provider}-Konto ist nicht mit diesem Konto verknüpft.",
        "social_last_method": "Sie können die Verknüpfung mit {provider} nicht aufheben, weil Sie sich nur darüber anmelden können. Legen Sie zuerst ein Passwort fest.",
        "social_signed_up": "Willkommen! Ihr Konto wurde mit {provider} erstellt.",
        "social_linked": "{provider} ist jetzt mit Ihrem Konto verknüpft.",
        "social_unlinked": "{provider} ist nicht mehr mit Ihrem Konto verknüpft.",
        "social_sign_up_closed": "Die Registrierung ist geschlossen, und Ihr {provider}-Konto ist hier mit keinem Konto verknüpft.",
        "social_invitation_required": "Die Registrierung ist nur mit Einladung möglich, und Ihr {provider}-Konto ist hier mit keinem Konto verknüpft.",

        // Asking for an address (no address or an unverified one from the provider).
        "social_email_title": "Nur noch ein Schritt",
        "social_email_text": "{provider} hat uns keine bestätigte E-Mail-Adresse übermittelt. Geben Sie Ihre Adresse ein, dann senden wir Ihnen einen Link, um sie zu bestätigen.",
        "social_email_button": "Weiter",

        // Linking to the existing account that holds the address.
        "social_link_title": "{provider} mit Ihrem Konto verknüpfen",
        "social_link_text": "Hier gibt es bereits ein Konto mit {email}. Melden Sie sich dort an, um Ihr {provider}-Konto damit zu verknüpfen. Ohne Ihr Zutun verknüpfen wir niemals Konten.",
        "social_link_button": "Anmelden und verknüpfen",
        "social_link_with": "Mit {provider} anmelden und verknüpfen",
        "social_link_no_password": "Dieses Konto hat kein Passwort. Melden Sie sich über einen damit verknüpften Dienst an oder legen Sie über „Passwort vergessen?“ ein Passwort fest.",

        // The picker: several accounts could take the identity.
        "social_pick_title": "Wählen Sie Ihr Konto",
        "social_pick_text": "Ihr {provider}-Konto könnte zu mehreren Konten hier gehören. Wählen Sie das Konto, mit dem es verknüpft werden soll: Sie melden sich zuerst bei diesem Konto an, und {provider} wird nur mit ihm verknüpft.",
        "social_pick_signed_in_here": "in diesem Browser angemeldet",
        "social_pick_button": "Mit diesem Konto verknüpfen",
        "social_pick_cancel": "Keines verknüpfen",

        // Settings: connected accounts.
        "settings_connections": "Verknüpfte Konten",
        "connections_title": "Verknüpfte Konten",
        "connections_text": "Konten bei anderen Diensten, mit denen Sie sich anmelden können.",
        "connections_empty": "Es ist noch kein Konto eines anderen Dienstes verknüpft.",
        "connections_linked_at": "Verknüpft seit",
        "connections_last_used": "Zuletzt verwendet",
        "connections_never": "nie",
        "connections_unlink_button": "Trennen",
        "connections_link_button": "{provider} verknüpfen",
        "connections_available": "Weiteres Konto verknüpfen",
        "connections_no_password": "Ihr Konto hat kein Passwort: Sie melden sich nur über die hier verknüpften Konten an.",

        // Setting a first password (accounts made through a provider).
        "password_set_title": "Passwort festlegen",
        "password_set_text": "Ihr Konto hat noch kein Passwort: Sie melden sich über ein verknüpftes Konto an. Legen Sie ein Passwort fest, um sich auch mit Ihrer E-Mail-Adresse anmelden zu können.",

        // Re-authentication with a provider.
        "reauthenticate_with": "Mit {provider} bestätigen",

        // Mails.
        "mail_identity_linked_subject": "{provider} wurde mit Ihrem Konto bei {site} verknüpft",
        "mail_identity_unlinked_subject": "{provider} ist nicht mehr mit Ihrem Konto bei {site} verknüpft",
        "mail_identity_linked_intro": "Ein Konto bei einem anderen Dienst wurde mit Ihrem Konto verknüpft. Es kann ab sofort zur Anmeldung verwendet werden:",
        "mail_identity_linked_not_you": "Wenn Sie das nicht waren, heben Sie die Verknüpfung in Ihren Einstellungen auf und ändern Sie Ihr Passwort:",
        "mail_identity_unlinked_intro": "Die Verknüpfung eines Kontos bei einem anderen Dienst mit Ihrem Konto wurde aufgehoben. Es kann nicht mehr zur Anmeldung verwendet werden:",
        "mail_identity_unlinked_not_you": "Wenn Sie das nicht waren, prüfen Sie die verknüpften Konten in Ihren Einstellungen:",

        "confirmed_provider_unlinked": "Ihre E-Mail-Adresse wurde bestätigt. {provider} wurde nicht mit diesem Konto verknüpft: Der Link wurde in einem anderen Browser geöffnet als dem, der sich mit {provider} angemeldet hat. Wenn dieses {provider}-Konto Ihnen gehört, legen Sie ein Passwort fest („Passwort vergessen?“), melden Sie sich an und verknüpfen Sie es in Ihren Einstellungen.",
        "reset_linked_providers": "Die Anmeldung mit {providers} ist ebenfalls mit diesem Konto verknüpft. Wenn eines davon nicht Ihnen gehört, heben Sie die Verknüpfung in Ihren Einstellungen auf, sobald Ihr Passwort festgelegt ist.",
        "mail_password_changed_providers": "Die Anmeldung mit diesen Diensten öffnet ebenfalls Ihr Konto:",
        "mail_password_changed_providers_not_you": "Wenn eines davon nicht Ihnen gehört, heben Sie die Verknüpfung in Ihren Einstellungen auf:",
    ]
}
