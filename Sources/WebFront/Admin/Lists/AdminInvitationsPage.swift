// AdminInvitationsPage.swift: (being written)
import AccountCore

struct AdminInvitationsPage: Sendable {
    init(_ core: AccountServices) {}
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func create(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func revoke(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
