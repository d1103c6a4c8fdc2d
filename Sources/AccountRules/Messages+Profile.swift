// Messages+Profile.swift: English wording of the profile page and declared fields (helper C).

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishProfile: [String: String] = [:]
}
