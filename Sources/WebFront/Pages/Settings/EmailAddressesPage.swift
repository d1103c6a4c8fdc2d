// EmailAddressesPage.swift: TODO(helper A): see the contract.
import AccountCore
import FastCGI

struct EmailAddressesPage: Sendable {
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func add(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func resend(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func remove(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func makePrimary(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
