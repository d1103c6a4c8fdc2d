// German+SecondFactor.swift: German wording of the second step of a sign-in (see Messages+SecondFactor.swift).

extension MessageCatalog {
    /// Merged into `german` (a key there must not repeat here).
    static let germanSecondFactor: [String: String] = [
        "second_factor_title": "Anmeldung in zwei Schritten",
        "second_factor_text": "Geben Sie den Code aus Ihrer Authenticator-App oder einen Ihrer Wiederherstellungscodes ein.",
        "second_factor_step_up_text": "Diese Seite verlangt Ihren zweiten Schritt. Geben Sie den Code aus Ihrer Authenticator-App oder einen Ihrer Wiederherstellungscodes ein.",
        "second_factor_field_code": "Code",
        "second_factor_code_hint": "6 Ziffern aus der App oder ein Wiederherstellungscode",
        "second_factor_button": "Bestätigen",
        "second_factor_wrong_code": "stimmt nicht oder wurde schon verwendet",
        "second_factor_expired": "Die Anmeldung hat zu lange gedauert. Bitte melden Sie sich erneut an.",
        "second_factor_required": "Geben Sie den Code Ihres zweiten Schritts ein, um die Anmeldung abzuschließen.",
        "second_factor_none": "Diese Seite verlangt die Anmeldung in zwei Schritten, die Ihr Konto noch nicht hat. Richten Sie sie zuerst ein.",
        "second_factor_set_up_link": "Anmeldung in zwei Schritten einrichten",
        "second_factor_passkey_link": "Stattdessen einen Passkey hinzufügen",
        "second_factor_enrol_required": "Bitte schließen Sie die Anmeldung in zwei Schritten ab (oder richten Sie sie ein), um fortzufahren.",
        "second_factor_other_account": "Mit einem anderen Konto anmelden",
        "second_factor_passed": "Bestätigt.",
    ]
}
