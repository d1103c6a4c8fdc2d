// AdminAuditPage.swift: (being written)
import AccountCore

struct AdminAuditPage: Sendable {
    init(_ core: AccountServices) {}
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func csv(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
