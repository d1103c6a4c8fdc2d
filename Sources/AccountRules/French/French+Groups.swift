// French+Groups.swift: French wording of the group name rule (GroupName.swift).

extension MessageCatalog {
    /// Merged into `french` (a key there must not repeat here).
    static let frenchGroups: [String: String] = [
        "field_group": "Nom du groupe",
        "invalid_group_name": "ce nom ne peut contenir que des lettres (a–z), des chiffres et - _ . : @ + / (ni espace ni virgule)",
    ]
}
