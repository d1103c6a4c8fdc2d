// ReauthenticationPage.swift: TODO(lead): see the contract.
import AccountCore
import FastCGI

struct ReauthenticationPage: Sendable {
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func submit(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
