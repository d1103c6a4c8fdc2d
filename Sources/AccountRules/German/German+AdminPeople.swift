// German+AdminPeople.swift: German wording of the admin pages for people: the list, a person's page and its actions.

extension MessageCatalog {
    /// Merged into `german` (a key there must not repeat here).
    static let germanAdminPeople: [String: String] = [
        "admin_people_title": "Personen",
    ]
}
