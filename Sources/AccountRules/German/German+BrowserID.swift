// German+BrowserID.swift: German wording of the BrowserID dialog and the pages include.js opens.

extension MessageCatalog {
    /// German wording of the BrowserID pages; merged into `german` (a key there must not repeat here).
    static let germanBrowserID: [String: String] = [
        "browserid_dialog_title": "Mit E-Mail-Adresse anmelden",
        "browserid_site_asks": "Anmeldung bei",
        "browserid_sign_in_first": "Melden Sie sich zuerst bei Ihrem Konto an. Wählen Sie dann die Adresse, die die Website erhalten soll.",
        "browserid_choose_email": "Welche Adresse soll die Website sehen?",
        "browserid_not_my_computer": "Das ist nicht mein Computer (nur eine Stunde lang bei der Website angemeldet bleiben)",
        "browserid_continue": "Weiter",
        "browserid_cancel": "Abbrechen",
        "browserid_no_verified_email": "Ihr Konto hat noch keine bestätigte E-Mail-Adresse. Bestätigen Sie eine Adresse und versuchen Sie es dann noch einmal.",
        "browserid_waiting": "Warten auf die Website …",
        "browserid_working": "Sie werden angemeldet …",
        "browserid_failed": "Die Anmeldung hat nicht funktioniert. Bitte versuchen Sie es noch einmal.",
        "browserid_no_opener": "Dieses Fenster wurde nicht von einer Website geöffnet. Schließen Sie es und beginnen Sie auf der Website.",
        "browserid_site_not_allowed": "Diese Website darf diese Anmeldung nicht verwenden. Schließen Sie dieses Fenster.",
        // The native bridge (browserid/native): an app's web view.
        "browserid_native_returning": "Angemeldet. Zurück zur App …",
        "browserid_native_return": "Zurück zur App",
        "browserid_native_choose_address": "Wählen Sie eine Ihrer bestätigten Adressen.",
        "browserid_native_bad_origin": "Dieser Anmeldelink nennt keine Website (einen http- oder https-Ursprung wie https://example.com).",
        "browserid_native_origin_refused": "Diese Website darf hier keine Anmeldung anfordern.",
        "browserid_native_rate_limited": "Zu viele Anmeldungen bei Apps in kurzer Zeit. Warten Sie ein paar Minuten und versuchen Sie es dann erneut.",
    ]
}
