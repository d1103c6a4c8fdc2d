// German+AdminHealth.swift: German wording of the admin health page.

extension MessageCatalog {
    /// Merged into `german` (a key there must not repeat here).
    static let germanAdminHealth: [String: String] = [
        "admin_health_title": "Zustand",
    ]
}
