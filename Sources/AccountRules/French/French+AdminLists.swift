// French+AdminLists.swift: French wording of the admin pages for invitations, groups and the audit log.

extension MessageCatalog {
    /// Merged into `french` (a key there must not repeat here).
    static let frenchAdminLists: [String: String] = [
        "admin_invitations_title": "Invitations",
    ]
}
