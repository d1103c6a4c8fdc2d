// AdminGroupsPage.swift: (being written)
import AccountCore

struct AdminGroupsPage: Sendable {
    init(_ core: AccountServices) {}
    func list(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func create(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func remove(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func members(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
