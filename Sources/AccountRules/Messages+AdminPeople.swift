// Messages+AdminPeople.swift: English wording of the admin pages for people: the list, a person's page and its actions.

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishAdminPeople: [String: String] = [
        "admin_people_title": "People",
    ]
}
