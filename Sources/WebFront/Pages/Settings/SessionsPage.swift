// SessionsPage.swift: TODO(helper B): see the contract.
import AccountCore
import FastCGI

struct SessionsPage: Sendable {
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func revoke(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func revokeOthers(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
