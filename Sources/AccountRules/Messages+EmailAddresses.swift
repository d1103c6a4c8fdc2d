// Messages+EmailAddresses.swift: English wording of the email addresses page (helper A).

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishEmailAddresses: [String: String] = [:]
}
