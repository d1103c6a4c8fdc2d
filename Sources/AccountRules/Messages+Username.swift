// Messages+Username.swift: English wording of usernames (Username.swift): the field, its rule, and the settings page.

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishUsername: [String: String] = [
        "username_label": "Username",
        "username_characters": "may contain only letters, digits, “.”, “_” and “-”",
        "username_start": "must start with a letter",
        "username_marks": "may not end with “.”, “_” or “-”, nor have two of them in a row",
        "username_reserved": "is reserved",
        "username_fixed": "Your username is given by the site and cannot be changed.",
        "username_hint": "What the site’s apps know you as: letters, digits, “.”, “_” and “-”, starting with a letter, not ending with a mark, at most 32.",
        "username_optional_hint": "Optional: left empty, one is made from your address.",
        "username_title": "Username",
        "username_button": "Change username",
        "username_changed": "Your username was changed.",
    ]
}
