// SocialEmailPage.swift: `GET|POST <base>/auth/email`: asks for an address when the provider gave none verified.
import AccountCore
import FastCGI

struct SocialEmailPage: Sendable {
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func submit(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
