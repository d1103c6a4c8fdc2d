// Gate.swift: `GET <base>/auth/check`, the target of nginx's `auth_request`: is this visitor signed in, and allowed?
//
// Options (nginx passes the first two; see nginx/snippets/frontdoor-gate.conf):
//   X-Original-URL     the protected URL ($scheme://$http_host$request_uri); the 401's sign-in link returns there (`rd`)
//   FRONTDOOR_ALLOW    optional rule for this location: addresses, domains and groups separated by spaces or commas
//                      (`alice@example.com @example.org .example.net group:admins`; GateRule.swift); a signed-in
//                      person it does not admit gets 403
//   FRONTDOOR_REQUIRE  optional demands of the session, separated by spaces or commas: `2fa` (two factors: a password
//                      and a second factor, or a passkey). A session with one factor gets 401 with the second step's
//                      URL (`sign_in/second_factor?rd=…`), which nginx turns into the same redirect as a sign-in; an
//                      unknown word refuses everyone (403), so a typo never opens a location. Both this and
//                      FRONTDOOR_ALLOW must hold; the allow rule is asked first (no step-up for someone it refuses).
//   second_factor      `required` demands two factors at every location, as `FRONTDOOR_REQUIRE=2fa` does
//   gate.headers.*     the answer's header names; gate.account_id: where the account id goes (AppConfiguration+Identity)
// Answers 200 with the person (docs/headers.md is the contract): Remote-User (the username, or the account id with
// `gate.account_id: remote_user`), Remote-Name (the display name, else the username), Remote-Email (the primary
// address, only when verified), Remote-Groups (comma-separated, absent when none) and, with `gate.account_id: header`,
// Remote-Account-Id. 401 with `Location: <sign-in URL>?rd=…` (nginx turns it into a redirect with
// `error_page 401 =302`); 403 when a rule refuses. The hot path is one indexed SELECT by the cookie's digest; no CSRF
// cookie, no page rendering, and a write at most once a minute per session.
// Only a verified primary address counts: with `confirmation.required` off a person is signed in with an address
// nobody proved, so it meets no address or domain entry (403, even one naming it) and is not passed on (no
// Remote-Email); a `group:` entry counts membership, which the operator gave, whatever the address.
import AccountCore

struct Gate: Sendable {
    func check(_ context: RequestContext) throws -> Response {
        guard let session = try context.session() else { return unauthorized(context) }
        if let rule = context.request.gateRule.map(GateRule.init),
           !rule.allows(GateRule.Person(verifiedEmail: session.emailVerified ? session.email : nil, groups: session.groups)) {
            return Response(status: 403, contentType: "text/plain; charset=utf-8", text: "forbidden\n")
        }
        var factors = context.site.configuration.secondFactor == .required ? 2 : 1
        if let requirement = context.request.gateRequirement {
            guard let demanded = Self.requiredFactors(requirement) else {
                return Response(status: 403, contentType: "text/plain; charset=utf-8", text: "forbidden\n")
            }
            factors = max(factors, demanded)
        }
        if session.factors < factors { return secondStep(context) }
        return Response(status: 200, headers: Self.identityHeaders(session, gate: context.site.configuration.gate))
    }

    /// Who the session's person is, as the headers the gate answers with (in the contract's order).
    static func identityHeaders(_ session: SessionInfo, gate: AppConfiguration.Gate) -> [(name: String, value: String)] {
        let names = gate.headers
        let accountId = String(session.accountId)
        var headers = [(name: names.user, value: gate.accountId == .remoteUser ? accountId : session.username)]
        headers.append((name: names.name, value: session.displayName.isEmpty ? session.username : session.displayName))
        if session.emailVerified { headers.append((name: names.email, value: session.email)) }
        if !session.groups.isEmpty { headers.append((name: names.groups, value: session.groups.joined(separator: ","))) }
        if gate.accountId == .header { headers.append((name: names.accountId, value: accountId)) }
        // A display name is one line by its rule; a control character from anywhere else must still not end the header.
        // (Checked by byte first: in UTF-8 those characters are single bytes, and nearly every value has none.)
        return headers.map { header in
            guard header.value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7f }) else { return header }
            return (header.name, String(header.value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7f }))
        }
    }

    /// How many factors `FRONTDOOR_REQUIRE` demands (1 when it names nothing); nil when it holds an unknown word.
    static func requiredFactors(_ requirement: String) -> Int? {
        var factors = 1
        for word in requirement.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
            guard word.lowercased() == "2fa" else { return nil }
            factors = 2
        }
        return factors
    }

    /// 401 with the second step's URL (it steps the session up, then returns to the original URL).
    private func secondStep(_ context: RequestContext) -> Response {
        let site = context.site
        var location = site.configuration.publicURL + site.paths.path("sign_in/second_factor")
        if let original = context.request.header("X-Original-URL"), case let target = context.returnTarget(original), target != site.paths.home {
            let encoded = FormData.encode(target)
            if encoded.utf8.count <= SitePaths.maximumReturnLength { location += "?rd=" + encoded }
        }
        return Response(status: 401, headers: [(name: "Location", value: location),
                                               (name: "Content-Type", value: "text/plain; charset=utf-8")],
                        body: Array("second factor first\n".utf8))
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
