// AdminLayout.swift: the frame of every admin page: the admin navigation (partials/admin_nav) marking the section,
// the wide layout, and the admin paths templates link to.
import AccountCore

extension PageLayout {
    /// An admin page: `page` with the admin navigation marking `section` (people, invitations, groups, audit, health).
    func adminPage(_ template: String, section: String, _ values: [String: Any] = [:], status: Int = 200) throws -> Response {
        var values = values
        values["admin_nav"] = [section: true]
        values["wide"] = true
        values["admin_paths"] = Self.adminPaths(context.site.paths)
        return try page(template, values, status: status)
    }

    /// The admin routes' paths by template name (`admin_paths.people`, `admin_paths.person_lock` …).
    static func adminPaths(_ paths: SitePaths) -> [String: String] {
        var all: [String: String] = [:]
        for route in Routes.adminRouteNames { all[route.replacingOccurrences(of: "/", with: "_")] = paths.path("admin/" + route) }
        all["index"] = paths.path("admin")
        return all
    }
}

extension Routes {
    /// The admin routes below `admin/`, for their paths in templates (`person/sessions/revoke` is `person_sessions_revoke`).
    static let adminRouteNames = ["people", "person", "person/sessions/revoke", "person/sessions/revoke_all", "person/unlink",
                                  "person/second_factor/reset", "person/groups", "person/lock", "person/unlock",
                                  "person/password_reset", "person/confirmation", "person/confirm", "person/delete",
                                  "invitations", "invitations/revoke", "groups", "groups/remove", "group", "audit", "audit/csv",
                                  "health"]
}
