// Messages+Groups.swift: English wording of the group name rule (GroupName.swift).

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishGroups: [String: String] = [
        "field_group": "Group name",
        "invalid_group_name": "may contain only letters (a–z), digits and - _ . : @ + / (no spaces or commas)",
    ]
}
