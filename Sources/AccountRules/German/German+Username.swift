// German+Username.swift: German wording of usernames.

extension MessageCatalog {
    /// Merged into `german` (a key there must not repeat here).
    static let germanUsername: [String: String] = [
        "username_label": "Benutzername",
        "username_characters": "darf nur Buchstaben, Ziffern, „.“, „_“ und „-“ enthalten",
        "username_start": "muss mit einem Buchstaben beginnen",
        "username_marks": "darf weder auf „.“, „_“ oder „-“ enden noch zwei davon hintereinander enthalten",
        "username_reserved": "ist reserviert",
        "username_fixed": "Ihr Benutzername wird von der Website vergeben und kann nicht geändert werden.",
        "username_hint": "Unter diesem Namen kennen Sie die Anwendungen der Website: Buchstaben, Ziffern, „.“, „_“ und „-“, beginnend mit einem Buchstaben, ohne Zeichen am Ende, höchstens 32 Zeichen.",
        "username_optional_hint": "Optional: leer gelassen, wird er aus Ihrer Adresse gebildet.",
        "username_title": "Benutzername",
        "username_button": "Benutzernamen ändern",
        "username_changed": "Ihr Benutzername wurde geändert.",
    ]
}
