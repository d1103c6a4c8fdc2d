// Gate.swift: `GET <base>/auth/check`, the target of nginx's `auth_request`: is this visitor signed in, and allowed?
//
// Options (nginx passes them; see nginx/snippets/frontdoor-gate.conf):
//   X-Original-URL     the protected URL ($scheme://$http_host$request_uri); the 401's sign-in link returns there (`rd`)
//   FRONTDOOR_ALLOW    optional rule for this location: addresses, domains and groups separated by spaces or commas
//                      (`alice@example.com @example.org .example.net group:admins`; GateRule.swift); a signed-in
//                      person it does not admit gets 403
// Answers 200 with Remote-User (account id), Remote-Email, Remote-Name and Remote-Groups (comma-separated); 401 with
// `Location: <sign-in URL>?rd=…` (nginx turns it into a redirect with `error_page 401 =302`); 403 when a rule refuses.
// The hot path is one indexed SELECT by the cookie's digest; no CSRF cookie, no page rendering, and a write at most
// once a minute per session.
// Only a verified primary address counts: with `confirmation.required` off a person is signed in with an address
// nobody proved, so it meets no address or domain entry (403, even one naming it) and is not passed on (200 with
// Remote-User only); a `group:` entry counts membership, which the operator gave, whatever the address.
import AccountCore

struct Gate: Sendable {
    func check(_ context: RequestContext) throws -> Response {
        guard let session = try context.session() else { return unauthorized(context) }
        if let rule = context.request.gateRule.map(GateRule.init),
           !rule.allows(GateRule.Person(verifiedEmail: session.emailVerified ? session.email : nil, groups: session.groups)) {
            return Response(status: 403, contentType: "text/plain; charset=utf-8", text: "forbidden\n")
        }
        guard session.emailVerified else { return Response(status: 200, headers: [(name: "Remote-User", value: String(session.accountId))]) }
        return Response(status: 200, headers: [
            (name: "Remote-User", value: String(session.accountId)),
            (name: "Remote-Email", value: session.email),
            (name: "Remote-Name", value: String(session.email.prefix { $0 != "@" })),
            (name: "Remote-Groups", value: session.groups.joined(separator: ",")),
        ])
    }

    /// 401 with the sign-in URL (absolute, on `public_url`) carrying the original URL when it may be returned to.
    private func unauthorized(_ context: RequestContext) -> Response {
        let site = context.site
        let original = context.request.header("X-Original-URL")
        let target = original.map(context.returnTarget).flatMap { $0 == site.paths.home ? nil : $0 }
        let location = site.configuration.publicURL + site.paths.signIn(returnTo: target)
        return Response(status: 401, headers: [(name: "Location", value: location),
                                               (name: "Content-Type", value: "text/plain; charset=utf-8")],
                        body: Array("sign in first\n".utf8))
    }
}
