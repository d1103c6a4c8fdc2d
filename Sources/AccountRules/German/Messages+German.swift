// Messages+German.swift: the German catalog (formal „Sie“), merged from the German files beside it like the English one.

extension MessageCatalog {
    /// German wording of every message.
    public static let german = MessageCatalog(strings: germanBrowserID.merging(germanInvitations) { first, _ in first }.merging(germanSettings) { first, _ in first }
        .merging(germanEmailAddresses) { first, _ in first }.merging(germanAccountSettings) { first, _ in first }
        .merging(germanProfile) { first, _ in first }.merging(germanSocial) { first, _ in first }
        .merging(germanSecondFactor) { first, _ in first }
        .merging(germanOneTimeCodes) { first, _ in first }
        .merging(germanAPI) { first, _ in first }.merging(germanPage) { first, _ in first }.merging(germanGroups) { first, _ in first }.merging(germanUsername) { first, _ in first }
        .merging(germanPasskeys) { first, _ in first }.merging(germanOpenID) { first, _ in first }
        .merging(germanOpenIDDevice) { first, _ in first }
        .merging(germanOpenIDLogout) { first, _ in first }
        .merging(germanAdmin) { first, _ in first }.merging(germanAdminPeople) { first, _ in first }.merging(germanAdminLists) { first, _ in first }.merging(germanAdminHealth) { first, _ in first }.merging([
        // Validation: the field's name in German quotation marks, then the message, a predicate that reads correctly after
        // any field name (an operator's label too): „Passwort“ ist zu kurz (mindestens 8 Zeichen).
        "error_full_message": "„{attribute}“ {message}",
        "blank": "muss ausgefüllt werden",
        "too_short": "ist zu kurz (mindestens {count} Zeichen)",
        "common_password": "gehört zu den häufigsten Passwörtern: Wählen Sie eines, das schwerer zu erraten ist",
        "too_long": "ist zu lang (höchstens {count} Zeichen)",
        "invalid_email": "ist keine gültige E-Mail-Adresse",
        "invalid": "ist ungültig",
        "confirmation": "stimmt nicht mit „{attribute}“ überein",
        "taken": "ist bereits vergeben",
        "inclusion": "ist keine der angebotenen Möglichkeiten",
        "form_has_errors": "Bitte korrigieren Sie die unten markierten Angaben.",

        // Field names.
        "field_email": "E-Mail-Adresse",
        "field_password": "Passwort",
        "field_password_confirmation": "Passwortbestätigung",
        "field_remember_me": "Auf diesem Gerät angemeldet bleiben",

        // Sign in.
        "sign_in_title": "Anmelden",
        "sign_in_button": "Anmelden",
        "sign_in_failed": "E-Mail-Adresse oder Passwort ist falsch.",
        "sign_in_link": "Sie haben schon ein Konto? Anmelden",
        "signed_in": "Sie sind jetzt angemeldet.",
        "sign_in_required": "Bitte melden Sie sich an, um fortzufahren.",

        // Sign up.
        "sign_up_title": "Konto erstellen",
        "sign_up_button": "Konto erstellen",
        "sign_up_link": "Noch kein Konto? Jetzt erstellen",
        "signed_up": "Willkommen! Ihr Konto wurde erstellt.",
        "password_hint": "Mindestens {count} Zeichen.",

        // Home and sign out.
        "home_title": "Ihr Konto",
        "signed_in_as": "Angemeldet als {email}",
        "sign_out_button": "Abmelden",
        "signed_out": "Sie sind jetzt abgemeldet.",

        // Confirmation.
        "check_email_title": "Bitte prüfen Sie Ihre E-Mails",
        "check_email_text": "Wir haben eine Nachricht an die angegebene Adresse gesendet. Folgen Sie dem Link darin, um Ihre Adresse zu bestätigen, und melden Sie sich dann an.",
        "confirmed": "Ihre E-Mail-Adresse wurde bestätigt. Sie können sich jetzt anmelden.",
        "unconfirmed": "Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse, bevor Sie sich anmelden.",
        "confirmation_invalid_title": "Dieser Link funktioniert nicht",
        "confirmation_invalid_text": "Der Bestätigungslink ist ungültig, wurde bereits verwendet oder ist abgelaufen. Fordern Sie unten einen neuen an.",
        "resend_confirmation_title": "Bestätigungslink erneut senden",
        "resend_confirmation_button": "Neuen Link senden",
        "resend_confirmation_link": "Keine Bestätigungs-E-Mail erhalten?",
        "resend_confirmation_sent": "Falls diese Adresse noch auf ihre Bestätigung wartet, ist ein neuer Link unterwegs.",

        // Password reminder and reset.
        "reminder_title": "Passwort vergessen?",
        "reminder_text": "Geben Sie Ihre E-Mail-Adresse ein. Wir senden Ihnen dann einen Link, mit dem Sie ein neues Passwort wählen können.",
        "reminder_button": "Link senden",
        "reminder_link": "Passwort vergessen?",
        "reminder_sent": "Falls zu dieser Adresse ein Konto gehört, ist ein Link zum Zurücksetzen des Passworts unterwegs. Er ist eine Stunde lang gültig.",
        "reset_title": "Neues Passwort wählen",
        "reset_button": "Passwort ändern",
        "reset_invalid_title": "Dieser Link funktioniert nicht",
        "reset_invalid_text": "Der Link zum Zurücksetzen des Passworts ist ungültig, wurde bereits verwendet oder ist abgelaufen. Fordern Sie unten einen neuen an.",
        "password_changed": "Ihr Passwort wurde geändert. Sie sind jetzt angemeldet.",
        "field_new_password": "Neues Passwort",

        // Mail.
        "mail_greeting": "Hallo,",
        "mail_confirmation_subject": "Bestätigen Sie Ihre E-Mail-Adresse für {site}",
        "mail_confirmation_intro": "Bitte bestätigen Sie Ihre E-Mail-Adresse über diesen Link:",
        "mail_confirmation_button": "Adresse bestätigen",
        "mail_confirmation_ignore": "Wenn Sie kein Konto erstellt haben, können Sie diese Nachricht einfach ignorieren.",
        "mail_sign_up_attempt_subject": "Jemand wollte sich mit Ihrer Adresse bei {site} registrieren",
        "mail_sign_up_attempt_intro": "Jemand – vielleicht Sie selbst – hat versucht, mit dieser E-Mail-Adresse ein Konto zu erstellen. Für diese Adresse gibt es aber bereits ein Konto.",
        "mail_sign_up_attempt_sign_in": "Hier können Sie sich anmelden:",
        "mail_sign_up_attempt_reset": "Wenn Sie Ihr Passwort vergessen haben, können Sie es hier zurücksetzen:",
        "mail_sign_up_attempt_ignore": "Wenn Sie das nicht waren, können Sie diese Nachricht ignorieren. Es wurde nichts geändert.",
        "mail_password_reset_subject": "Ihr Passwort für {site} zurücksetzen",
        "mail_password_reset_intro": "Jemand hat angefordert, das Passwort Ihres Kontos zurückzusetzen. Über diesen Link können Sie ein neues Passwort wählen (er ist eine Stunde lang gültig):",
        "mail_password_reset_button": "Neues Passwort wählen",
        "mail_password_reset_ignore": "Wenn Sie das nicht angefordert haben, können Sie diese Nachricht ignorieren. Ihr Passwort bleibt unverändert.",
        "mail_account_locked_subject": "Ihr Konto bei {site} wurde gesperrt",
        "mail_account_locked_intro": "Es gab mehrere fehlgeschlagene Anmeldeversuche bei Ihrem Konto, deshalb ist es vorübergehend gesperrt. Die Sperre wird automatisch aufgehoben; Sie müssen nichts weiter tun.",
        "mail_account_locked_reset": "Wenn diese Versuche nicht von Ihnen stammen, wählen Sie jetzt ein neues Passwort (dieser Link hebt auch die Sperre auf):",
        "mail_account_locked_button": "Neues Passwort wählen",
        "mail_invitation_subject": "Sie wurden zu {site} eingeladen",
        "mail_invitation_intro": "Sie wurden eingeladen, mit dieser E-Mail-Adresse ein Konto zu erstellen. Über diesen Link können Sie sich registrieren:",
        "mail_invitation_button": "Konto erstellen",
        "mail_invitation_ignore": "Wenn Sie keine Einladung erwartet haben, können Sie diese Nachricht ignorieren.",
        "mail_password_changed_subject": "Ihr Passwort für {site} wurde geändert",
        "mail_password_changed_intro": "Das Passwort Ihres Kontos wurde soeben geändert. Alle anderen Sitzungen wurden dabei beendet.",
        "mail_password_changed_not_you": "Wenn Sie das nicht waren, setzen Sie Ihr Passwort bitte sofort zurück:",

        // Errors shown as pages.
        "error_title": "Etwas ist schiefgelaufen",
        "error_not_found": "Unter dieser Adresse gibt es keine Seite.",
        "error_method_not_allowed": "Diese Seite kann so nicht verwendet werden.",
        "error_forbidden_csrf": "Dieses Formular ist abgelaufen oder wurde nicht von dieser Website gesendet. Gehen Sie zurück, laden Sie die Seite neu und versuchen Sie es noch einmal.",
        "error_payload_too_large": "Die gesendeten Daten sind zu groß.",
        "error_bad_request": "Die Anfrage konnte nicht verstanden werden.",
        "sign_up_rate_limited_title": "Bitte versuchen Sie es später noch einmal",
        "sign_up_rate_limited_text": "Aus Ihrem Netzwerk wurden in letzter Zeit zu viele Konten erstellt. Bitte versuchen Sie es später noch einmal.",
        "error_internal": "Bei uns ist etwas schiefgelaufen. Bitte versuchen Sie es gleich noch einmal.",
        "error_unavailable": "Wir können gerade keine Änderungen speichern, daher wurde nichts geändert. Bitte versuchen Sie es in ein paar Minuten noch einmal.",
        "error_back_home": "Zur Startseite",
    ]) { first, _ in first })
}
