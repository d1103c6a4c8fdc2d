// AdminHealthPage.swift: (being written)
import AccountCore

struct AdminHealthPage: Sendable {
    init(_ core: AccountServices) {}
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
