// German+Profile.swift: German wording of the profile page and declared fields.

extension MessageCatalog {
    /// Merged into `german` (a key there must not repeat here).
    static let germanProfile: [String: String] = [
        "profile_title": "Ihr Profil",
        "profile_intro": "So erscheinen Sie auf dieser Website. Für Änderungen ist kein Passwort nötig.",
        "profile_button": "Profil speichern",
        "profile_updated": "Ihr Profil wurde aktualisiert.",
        "display_name_hint": "Optional: der Name, den andere sehen (höchstens 100 Zeichen).",
        // Validation of declared fields of type number.
        "not_a_number": "ist keine Zahl",
    ]
}
