// German+Admin.swift: German wording of the admin pages' frame: navigation, access refusals, what every admin page shares (Admin/).

extension MessageCatalog {
    /// Merged into `german` (a key there must not repeat here).
    static let germanAdmin: [String: String] = [
        "admin_title": "Verwaltung",
        "admin_nav_people": "Personen",
        "admin_nav_invitations": "Einladungen",
        "admin_nav_groups": "Gruppen",
        "admin_nav_audit": "Protokoll",
        "admin_nav_health": "Zustand",
        "admin_link": "Verwaltung",
        "error_admin_forbidden": "Diese Seite ist nur für Administratoren.",
        "error_admin_second_factor_required": "Die Verwaltung verlangt die Anmeldung in zwei Schritten. Richten Sie in Ihren Einstellungen einen Einmalcode oder einen Passkey ein, melden Sie sich dann ab und wieder an.",
    ]
}
