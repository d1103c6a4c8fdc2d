// SocialStartAction.swift: `POST <base>/auth/<provider>`: begins the authorization-code flow and sends the browser on.
import AccountCore
import FastCGI

struct SocialStartAction: Sendable {
    func submit(_ context: RequestContext, provider: String) throws -> Response { throw HTTPError.notFound }
}
