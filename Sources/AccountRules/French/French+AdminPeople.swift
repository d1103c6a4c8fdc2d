// French+AdminPeople.swift: French wording of the admin pages for people: the list, a person's page and its actions.

extension MessageCatalog {
    /// Merged into `french` (a key there must not repeat here).
    static let frenchAdminPeople: [String: String] = [
        "admin_people_title": "Personnes",
    ]
}
