// SocialCallbackPage.swift: `GET <base>/auth/<provider>/callback`: the provider sends the browser back here.
import AccountCore
import FastCGI

struct SocialCallbackPage: Sendable {
    func show(_ context: RequestContext, provider: String) throws -> Response { throw HTTPError.notFound }
}
