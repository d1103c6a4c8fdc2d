// German+API.swift: German wording of the JSON API for native apps and of email residences.

extension MessageCatalog {
    /// German wording of the JSON API and residences; merged into `german` (a key there must not repeat here).
    static let germanAPI: [String: String] = [
        // JSON API errors (devise-ios shows them as they are).
        "api_unauthenticated": "Bitte melden Sie sich an oder registrieren Sie sich, um fortzufahren.",
        "api_validation_failed": "Bitte prüfen Sie Ihre Angaben: {messages}",
        "api_bad_request": "Die Anfrage konnte nicht verstanden werden: Senden Sie ein JSON-Objekt.",
        "api_unsupported_media_type": "Senden Sie den Inhalt der Anfrage als application/json.",
        "api_reauthentication_required": "Dafür ist eine aktuelle Anmeldung nötig: Melden Sie sich erneut an und versuchen Sie es dann noch einmal.",
        "api_provider_not_configured": "Die Anmeldung mit {provider} ist auf diesem Server nicht eingerichtet.",
        "api_provider_token_invalid": "Das Token von {provider} konnte nicht überprüft werden.",
        "api_provider_token_form_off": "Die Anmeldung mit {provider} aus einer App braucht einen Autorisierungscode (code, code_verifier und redirect_uri): Dieser Server nimmt keine Zugriffstoken von {provider} an.",
        "api_provider_unreachable": "{provider} ist nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.",
        "api_social_address_held": "Für diese Adresse gibt es bereits ein Konto. Melden Sie sich dort an und verknüpfen Sie dann {provider} in den Kontoeinstellungen.",
        "api_social_no_email": "{provider} hat keine bestätigte E-Mail-Adresse übermittelt. Melden Sie sich einmal auf der Website mit {provider} an und geben Sie dort Ihre Adresse an, oder registrieren Sie sich mit Ihrer E-Mail-Adresse.",
        "api_not_found": "Unter dieser Adresse gibt es nichts.",
        "api_method_not_allowed": "Diese Adresse unterstützt diese Methode nicht.",
        "api_internal": "Bei uns ist etwas schiefgelaufen. Bitte versuchen Sie es gleich noch einmal.",
        "api_sign_up_closed": "Hier können keine neuen Konten erstellt werden.",
        "api_invitation_required": "Für die Registrierung ist eine Einladung nötig.",
        // The second step of a sign-in (an account with a second factor).
        "api_second_factor_required": "Geben Sie den Code aus Ihrer Authenticator-App (oder einen Wiederherstellungscode) ein, um die Anmeldung abzuschließen.",
        "api_second_factor_invalid": "Ungültiger Code.",
        "api_second_factor_expired": "Diese Anmeldung ist abgelaufen oder bereits abgeschlossen. Bitte melden Sie sich erneut an.",
        "api_second_factor_enrolment_required": "Die Anmeldung in zwei Schritten ist hier Pflicht: Richten Sie sie in Ihren Kontoeinstellungen im Web ein und melden Sie sich dann erneut an.",
        "api_second_factor_browser_only": "Der zweite Faktor dieses Kontos ist ein Passkey, den Apps nicht verwenden können. Melden Sie sich im Browser an oder richten Sie in Ihren Kontoeinstellungen eine Authenticator-App ein.",
        "api_field_code": "Code",

        // Email residences.
        "residence_throttled": "An diese Adresse wurde gerade erst ein Link gesendet. Bitte warten Sie eine Minute, bevor Sie es erneut anfordern.",
        "residence_refused": "Mit dieser Adresse ist hier keine Anmeldung möglich.",
        "residence_not_found": "Diese Anfrage gibt es nicht, oder sie ist abgelaufen.",
        "residence_title": "Anmeldung eines Geräts zulassen",
        "residence_text": "Ein Gerät möchte sich bei {site} als {email} anmelden:",
        "residence_device": "{device}, von {address}",
        "residence_allow_button": "Gerät zulassen",
        "residence_ignore": "Wenn Sie das nicht angefordert haben, schließen Sie einfach diese Seite: Ohne Ihre Zustimmung passiert nichts.",
        "residence_approved_title": "Gerät zugelassen",
        "residence_approved_text": "Kehren Sie zur App zurück: Sie kann sich jetzt als {email} anmelden.",
        "residence_invalid_title": "Dieser Link funktioniert nicht",
        "residence_invalid_text": "Der Link ist ungültig, wurde bereits verwendet oder ist abgelaufen. Fordern Sie in der App einen neuen an.",
        "residence_refused_title": "Dieses Gerät kann sich nicht anmelden",
        "mail_residence_subject": "Anmeldung bei {site} auf einem Gerät",
        "mail_residence_intro": "Ein Gerät möchte sich mit dieser Adresse anmelden:",
        "mail_residence_button": "Prüfen und zulassen",
        "mail_residence_ignore": "Wenn Sie das nicht waren, ignorieren Sie diese Nachricht: Ohne Ihre Zustimmung passiert nichts. Der Link ist eine Stunde lang gültig.",

        // Sessions page: API tokens.
        "session_api_token": "App-Token ({device})",
    ]
}
