// ProfilePage.swift: TODO(helper C): see the contract.
import AccountCore
import FastCGI

struct ProfilePage: Sendable {
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func submit(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
