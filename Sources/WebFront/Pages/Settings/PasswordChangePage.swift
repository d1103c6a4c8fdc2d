// PasswordChangePage.swift: TODO(helper B): see the contract.
import AccountCore
import FastCGI

struct PasswordChangePage: Sendable {
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func submit(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
