// German+Groups.swift: German wording of the group name rule (GroupName.swift).

extension MessageCatalog {
    /// Merged into `german` (a key there must not repeat here).
    static let germanGroups: [String: String] = [
        "field_group": "Gruppenname",
        "invalid_group_name": "darf nur Buchstaben (a–z), Ziffern und - _ . : @ + / enthalten (keine Leerzeichen oder Kommas)",
    ]
}
