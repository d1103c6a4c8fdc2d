// German+AdminLists.swift: German wording of the admin pages for invitations, groups and the audit log.

extension MessageCatalog {
    /// Merged into `german` (a key there must not repeat here).
    static let germanAdminLists: [String: String] = [
        "admin_invitations_title": "Einladungen",
    ]
}
