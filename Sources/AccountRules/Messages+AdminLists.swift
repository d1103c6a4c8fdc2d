// Messages+AdminLists.swift: English wording of the admin pages for invitations, groups and the audit log.

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishAdminLists: [String: String] = [
        "admin_invitations_title": "Invitations",
    ]
}
