// Messages+Admin.swift: English wording of the admin pages' frame: navigation, access refusals, what every admin page shares (Admin/).

extension MessageCatalog {
    /// Merged into `english` (a key there must not repeat here).
    static let englishAdmin: [String: String] = [
        "admin_title": "Administration",
        "admin_nav_people": "People",
        "admin_nav_invitations": "Invitations",
        "admin_nav_groups": "Groups",
        "admin_nav_audit": "Audit log",
        "admin_nav_health": "Health",
        "admin_link": "Administration",
        "error_admin_forbidden": "This page is for administrators only.",
        "error_admin_second_factor_required": "Administration needs two-step sign-in. Set up a one-time code or a passkey in your settings, then sign out and sign in again.",
    ]
}
