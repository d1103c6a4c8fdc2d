// Messages+AccountSettings.swift: English wording of the password, sessions and deletion pages (helper B).

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishAccountSettings: [String: String] = [:]
}
