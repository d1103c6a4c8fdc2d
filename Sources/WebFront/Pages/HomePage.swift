// HomePage.swift: the signed-in home; signed-out visitors are sent to sign in and brought back.
//
// Options: `admin.group`: its members see a link to the admin pages (the pages check for themselves: AdminAccess).

/// `GET <base>/`: "Signed in as …", the settings, the admin pages for admins, and the sign-out button.
struct HomePage: Sendable {
    func show(_ context: RequestContext) throws -> Response {
        guard let session = try context.session() else {
            return context.redirect(to: context.site.paths.signIn(returnTo: context.request.uri))
        }
        let group = context.site.configuration.admin.group
        let isAdmin = session.groups.contains { $0.caseInsensitiveCompare(group) == .orderedSame }
        return try context.layout.page("home", ["admin_path": isAdmin ? context.site.paths.path("admin") : false as Any])
    }
}
