// Messages+AdminHealth.swift: English wording of the admin health page.

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishAdminHealth: [String: String] = [
        "admin_health_title": "Health",
    ]
}
