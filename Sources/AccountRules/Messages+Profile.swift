// Messages+Profile.swift: English wording of the profile page and declared fields (helper C).

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishProfile: [String: String] = [
        "profile_title": "Your profile",
        "profile_intro": "How you appear on this site. Changes need no password.",
        "profile_button": "Save profile",
        "profile_updated": "Your profile was updated.",
        "display_name_hint": "Optional: the name shown to others, at most 100 characters.",
        // Validation of declared fields of type number.
        "not_a_number": "is not a number",
    ]
}
