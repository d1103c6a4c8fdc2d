// AdminPeoplePage.swift: (being written)
import AccountCore

struct AdminPeoplePage: Sendable {
    init(_ core: AccountServices) {}
    func list(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }

    /// `GET <base>/admin`: the people list, the admin's usual start.
    static func index(_ context: RequestContext) throws -> Response {
        context.redirect(to: context.site.paths.path("admin/people"))
    }
}
