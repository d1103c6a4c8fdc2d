// French+AdminHealth.swift: French wording of the admin health page.

extension MessageCatalog {
    /// Merged into `french` (a key there must not repeat here).
    static let frenchAdminHealth: [String: String] = [
        "admin_health_title": "État",
    ]
}
