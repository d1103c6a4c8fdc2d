// AuthorizeEndpoint.swift: `GET|POST <base>/oidc/authorize`, the OpenID Connect authorization endpoint (Core 3.1.2),
// a cross-site route (RouteKind.crossSite): the POST reads its parameters from the form and does what the GET does.
// A parameter given twice is refused (RFC 6749 3.1): a page when it is client_id, redirect_uri or request_uri.
//
// Options: section `oidc` (OpenIDServices: the issuer, sent back as `iss`, RFC 9207), the client's own (`allow`,
// `second_factor`, `first_party`), `second_factor` (required: two factors for every client). The parameters are
// OpenIDAuthorizationRequest's. The order of the checks, each either sending the person through a page of Frontdoor's
// that comes back here (the way back is this endpoint's path with the parameters and a marker, checked by
// ReturnTarget on every page it passes) or, with `prompt=none`, answering the error the spec names:
//   1. nobody signed in: sign in (`login_hint` fills the address)                  prompt=none: login_required
//   1b. prompt=none with an id_token_hint whose subject is not the session's account     none: login_required
//   2. prompt=select_account: the account switcher (oidc/select_account)
//   3. the client's `allow` rule (GateRule) refuses the account: access_denied, always
//   4. prompt=login, or `max_age` passed since the session last proved who is there (`auth_time`): the re-authentication
//      page (its password, provider or passkey), which must end after the marker `fd_login_after`   none: login_required
//   5. fewer factors than the client, `acr_values` or the site ask: the second step, or setting one up (as the gate's
//      FRONTDOOR_REQUIRE=2fa)                                                     none: interaction_required
//   6. no consent for these scopes yet (or prompt=consent), unless the client is first-party: oidc/consent
//                                                                                   none: consent_required
//   7. the code (services.openID.issueCode, with the session, auth_time and factors) to the redirect URI with
//      `code`, `state` and `iss`; a pushed request is used up first.
import AccountCore
import Foundation

struct AuthorizeEndpoint: Sendable {
    // Core operations this page uses, given in Routes.table.
    let grants: OpenIDGrants
    let clients: OpenIDClients
    let reauthentication: Reauthentication
    init(_ core: AccountServices) { (grants, clients, reauthentication) = (core.openID, core.openIDClients, core.reauthentication) }

    /// How long a `fd_login_after` marker is honoured: a sign-in or re-authentication takes less.
    static let markerLifetime: TimeInterval = 900

    func handle(_ context: RequestContext) throws -> Response {
        let post = context.request.method == "POST"
        let sent = post ? context.form : context.query
        // RFC 6749 3.1: no parameter more than once. Before the redirect URI is known good, a page; after, an error for it.
        if let repeated = Self.repeatedName(post ? String(decoding: context.request.body, as: UTF8.self) : context.request.query) {
            guard !["client_id", "redirect_uri", "request_uri"].contains(repeated), case .request(let request) = try parse(context, sent) else {
                throw HTTPError.badRequest
            }
            return try refuse(context, request, "invalid_request", "\(repeated) is given more than once")
        }
        return try authorize(context, sent: sent)
    }

    /// The first parameter name `text` (a query or urlencoded body) holds twice, if any.
    static func repeatedName(_ text: String) -> String? {
        var seen = Set<String>()
        for pair in text.split(separator: "&") {
            let name = FormData.decode(Array(pair.prefix { $0 != "=" }.utf8))
            if !name.isEmpty, !seen.insert(name).inserted { return name }
        }
        return nil
    }

    /// Parses `sent` and goes on (`consented`: the consent page's yes was just given).
    func authorize(_ context: RequestContext, sent: [String: String], consented: Bool = false) throws -> Response {
        switch try parse(context, sent) {
        case .page(let key): throw HTTPError(status: 400, messageKey: key)
        case .refused(_, let redirectURI, let state, let error, let description):
            return context.redirect(to: OpenIDAuthorizationRequest.location(redirectURI, [("error", error), ("error_description", description),
                                                                                          ("state", state), ("iss", try issuer(context))]))
        case .request(let request): return try decide(context, request, consented: consented)
        }
    }

    /// The request in `sent`, the client looked up (config, then database) and a pushed request read.
    func parse(_ context: RequestContext, _ sent: [String: String]) throws -> OpenIDAuthorizationRequest.Parsed {
        guard context.site.openID != nil else { throw HTTPError.notFound }
        return try OpenIDAuthorizationRequest.parse(sent, client: { try clients.client($0) },
                                                    pushed: { try grants.pushedRequest($0, clientID: $1) })
    }

    private func issuer(_ context: RequestContext) throws -> String {
        guard let openID = context.site.openID else { throw HTTPError.notFound }
        return openID.issuer
    }

    /// The steps of the file's header, in order.
    private func decide(_ context: RequestContext, _ request: OpenIDAuthorizationRequest, consented: Bool) throws -> Response {
        let paths = context.site.paths, none = request.prompts.contains("none")
        let now = context.core.clock.now()
        let stamp = String(Int(now.timeIntervalSince1970))
        guard let session = try context.session() else {
            if none { return try refuse(context, request, "login_required", "nobody is signed in") }
            // Signing in now is choosing the account, and is a fresh sign-in.
            var changes: [String: String?] = ["fd_login_after": stamp]
            if request.prompts.contains("select_account") { changes["fd_account_chosen"] = "1" }
            var location = paths.signIn(returnTo: request.path("oidc/authorize", paths: paths, changes: changes))
            if let hint = request.loginHint { location += (location.contains("?") ? "&" : "?") + "email=" + FormData.encode(hint) }
            return context.redirect(to: location)
        }
        if none, let hint = request.idTokenHint, try !isSubject(context, request, hint: hint, session: session) {
            return try refuse(context, request, "login_required", "the person signed in is not the id_token_hint's")
        }
        if request.prompts.contains("select_account"), !request.accountChosen {
            return context.redirect(to: request.path("oidc/select_account", paths: paths))
        }
        let person = GateRule.Person(verifiedEmail: session.emailVerified ? session.email : nil, groups: session.groups)
        guard GateRule(request.client.allow).allows(person) else {
            context.site.logger.info("oidc client refused the account", metadata: ["client": "\(request.client.id)", "account": "\(session.accountId)"])
            return try refuse(context, request, "access_denied", "this account may not use this application")
        }
        let authTime = try reauthentication.authenticatedAt(session.digest) ?? session.createdAt
        if try !isFresh(request, authTime: authTime, now: now) {
            if none { return try refuse(context, request, "login_required", "the sign-in is older than the request allows") }
            let back = request.path("oidc/authorize", paths: paths, changes: ["fd_login_after": stamp])
            return context.redirect(to: paths.path("settings/reauthenticate") + "?rd=" + FormData.encode(back))
        }
        let secondFactor = context.site.configuration.secondFactor == .required || request.client.requiresSecondFactor || request.wantsSecondFactor
        if secondFactor, session.factors < 2 {
            if none { return try refuse(context, request, "interaction_required", "a second factor is needed") }
            return context.redirect(to: paths.path("sign_in/second_factor") + "?rd=" + FormData.encode(request.path("oidc/authorize", paths: paths)))
        }
        if !request.client.firstParty, !consented,
           try request.prompts.contains("consent") || !grants.hasConsent(accountID: session.accountId, clientID: request.client.id, scopes: request.scopes) {
            if none { return try refuse(context, request, "consent_required", "the person has not let this application in yet") }
            return context.redirect(to: request.path("oidc/consent", paths: paths))
        }
        if let uri = request.requestURI, try !grants.markPushedRequestUsed(uri) { throw HTTPError(status: 400, messageKey: "oidc_error_request_uri") }
        let who = OpenIDAuthentication(accountID: session.accountId, sessionDigest: session.digest, authTime: authTime, factors: session.factors)
        let code = try grants.issueCode(OpenIDCodeRequest(clientID: request.client.id, redirectURI: request.redirectURI, scopes: request.scopes,
                                                          nonce: request.nonce, codeChallenge: request.codeChallenge, authentication: who))
        return context.redirect(to: OpenIDAuthorizationRequest.location(request.redirectURI, [("code", code), ("state", request.state),
                                                                                              ("iss", try issuer(context))]))
    }

    /// Whether the session's last proof satisfies prompt=login and max_age: a proof after a recent `fd_login_after`
    /// marker always does (so max_age=0 and prompt=login end once the person re-authenticated); else max_age decides.
    private func isFresh(_ request: OpenIDAuthorizationRequest, authTime: Date, now: Date) throws -> Bool {
        if let marker = request.loginAfter, marker <= now, now.timeIntervalSince(marker) <= Self.markerLifetime,
           authTime.timeIntervalSince1970 >= marker.timeIntervalSince1970.rounded(.down) {
            return true
        }
        if request.prompts.contains("login") { return false }
        guard let maxAge = request.maxAge else { return true }
        return now.timeIntervalSince(authTime) <= Double(maxAge)
    }

    /// Whether `hint` is an ID token this provider signed for the request's client about the session's account (its
    /// signature checked, its expiry not: Core 3.1.2.1 lets an expired one through).
    private func isSubject(_ context: RequestContext, _ request: OpenIDAuthorizationRequest, hint: String, session: SessionInfo) throws -> Bool {
        guard let openID = context.site.openID, let claims = try? openID.keys.verify(hint), claims["iss"] as? String == openID.issuer else { return false }
        let audience = (claims["aud"] as? [String]) ?? (claims["aud"] as? String).map { [$0] } ?? []
        guard audience.contains(request.client.id) else { return false }
        return claims["sub"] as? String == (try grants.subject(accountID: session.accountId, client: request.client))
    }

    /// An error for the client, at its redirect URI.
    private func refuse(_ context: RequestContext, _ request: OpenIDAuthorizationRequest, _ error: String, _ description: String) throws -> Response {
        context.redirect(to: OpenIDAuthorizationRequest.location(request.redirectURI, [("error", error), ("error_description", description),
                                                                                      ("state", request.state), ("iss", try issuer(context))]))
    }
}
