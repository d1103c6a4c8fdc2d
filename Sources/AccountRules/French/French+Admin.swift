// French+Admin.swift: French wording of the admin pages' frame: navigation, access refusals, what every admin page shares (Admin/).

extension MessageCatalog {
    /// Merged into `french` (a key there must not repeat here).
    static let frenchAdmin: [String: String] = [
        "admin_title": "Espace d’administration",
        "admin_nav_people": "Personnes",
        "admin_nav_invitations": "Invitations",
        "admin_nav_groups": "Groupes",
        "admin_nav_audit": "Journal d’audit",
        "admin_nav_health": "État",
        "admin_link": "Espace d’administration",
        "error_admin_forbidden": "Cette page est réservée aux administrateurs.",
        "error_admin_second_factor_required": "L’administration demande la connexion en deux étapes. Configurez un code à usage unique ou une clé d’accès dans vos paramètres, puis déconnectez-vous et reconnectez-vous.",
    ]
}
