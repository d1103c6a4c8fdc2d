// HomePage.swift: the signed-in home; signed-out visitors are sent to sign in and brought back.

/// `GET <base>/`: "Signed in as …" and the sign-out button.
struct HomePage: Sendable {
    func show(_ context: RequestContext) throws -> Response {
        guard try context.session() != nil else {
            return context.redirect(to: context.site.paths.signIn(returnTo: context.request.uri))
        }
        return try context.layout.page("home")
    }
}
