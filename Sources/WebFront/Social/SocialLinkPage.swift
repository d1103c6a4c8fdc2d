// SocialLinkPage.swift: `GET|POST <base>/auth/link`: the provider's address belongs to an account: sign in to it to link.
import AccountCore
import FastCGI

struct SocialLinkPage: Sendable {
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
    func submit(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
