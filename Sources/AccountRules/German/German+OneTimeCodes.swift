// German+OneTimeCodes.swift: German wording of one-time codes and recovery codes („Anmeldung in zwei Schritten“,
// „Authenticator-App“, „Wiederherstellungscodes“), formal „Sie“.

extension MessageCatalog {
    /// German wording of one-time codes; merged into `german` (a key there must not repeat here).
    static let germanOneTimeCodes: [String: String] = [
        "settings_two_step": "Anmeldung in zwei Schritten",
        "two_step_title": "Anmeldung in zwei Schritten",
        "two_step_intro": "Nach Ihrem Passwort fragen wir zusätzlich nach einem Code aus einer Authenticator-App auf Ihrem Telefon. Wer Ihr Passwort kennt, kann sich ohne ihn trotzdem nicht anmelden.",
        "two_step_state_off": "Die Anmeldung in zwei Schritten ist ausgeschaltet.",
        "two_step_state_on": "Die Anmeldung in zwei Schritten ist eingeschaltet: Nach Ihrem Passwort fragen wir nach einem Code aus Ihrer Authenticator-App.",
        "two_step_codes_left": "Verbleibende Wiederherstellungscodes: {count} von 10.",
        "two_step_codes_low": "Es sind nur noch wenige Wiederherstellungscodes übrig. Erstellen Sie neue und bewahren Sie sie sicher auf.",
        "two_step_begin_button": "Authenticator-App einrichten",

        "two_step_scan": "1. Scannen Sie diesen QR-Code mit Ihrer Authenticator-App.",
        "two_step_qr_label": "QR-Code für Ihre Authenticator-App",
        "two_step_manual": "Scannen geht nicht? Geben Sie stattdessen diesen Schlüssel in der App ein (zeitbasiert):",
        "two_step_uri": "Oder öffnen Sie diesen Link auf dem Gerät mit der App:",
        "two_step_enter_code": "2. Geben Sie den sechsstelligen Code ein, den die App gerade anzeigt.",
        "two_step_code_label": "Code",
        "two_step_code_hint": "Sechs Ziffern; alle 30 Sekunden kommt ein neuer Code.",
        "two_step_confirm_button": "Einschalten",
        "wrong_code": "ist nicht der Code, den Ihre App gerade anzeigt: Prüfen Sie die App und geben Sie den aktuellen Code ein",

        "two_step_codes_title": "Ihre Wiederherstellungscodes",
        "two_step_codes_text": "Jeder dieser Codes meldet Sie einmal an, wenn Sie Ihre Authenticator-App nicht zur Hand haben. Drucken Sie sie aus oder speichern Sie sie jetzt in Ihrem Passwort-Manager: Sie werden nur dieses eine Mal angezeigt.",
        "two_step_codes_done": "Ich habe sie aufbewahrt",
        "two_step_renew_text": "Neue Wiederherstellungscodes ersetzen alle alten, benutzt oder nicht.",
        "two_step_renew_button": "Neue Wiederherstellungscodes erstellen",

        "two_step_off_text": "Wenn Sie die Anmeldung in zwei Schritten ausschalten, werden der Schlüssel der App und Ihre Wiederherstellungscodes entfernt. Dann meldet Sie Ihr Passwort allein an.",
        "two_step_off_button": "Anmeldung in zwei Schritten ausschalten",

        "two_step_turned_on": "Die Anmeldung in zwei Schritten ist eingeschaltet.",
        "two_step_turned_off": "Die Anmeldung in zwei Schritten ist ausgeschaltet.",
        "two_step_already_on": "Die Anmeldung in zwei Schritten ist bereits eingeschaltet.",
        "two_step_off": "Die Anmeldung in zwei Schritten ist ausgeschaltet.",
        "two_step_not_begun": "Diese Einrichtung ist abgelaufen. Bitte beginnen Sie erneut.",

        "mail_second_factor_enabled_subject": "Die Anmeldung in zwei Schritten wurde für Ihr Konto bei {site} eingeschaltet",
        "mail_second_factor_enabled_intro": "Die Anmeldung in zwei Schritten wurde für Ihr Konto eingeschaltet: Zur Anmeldung ist jetzt nach dem Passwort ein Code aus einer Authenticator-App nötig.",
        "mail_second_factor_enabled_not_you": "Wenn Sie das nicht waren, setzen Sie Ihr Passwort zurück und prüfen Sie Ihre Einstellungen:",
        "mail_second_factor_removed_subject": "Die Anmeldung in zwei Schritten wurde für Ihr Konto bei {site} ausgeschaltet",
        "mail_second_factor_removed_intro": "Die Anmeldung in zwei Schritten wurde für Ihr Konto ausgeschaltet: Ihr Passwort allein meldet Sie jetzt an.",
        "mail_second_factor_removed_not_you": "Wenn Sie das nicht waren, ändern Sie Ihr Passwort und schalten Sie sie in Ihren Einstellungen wieder ein:",
    ]
}
