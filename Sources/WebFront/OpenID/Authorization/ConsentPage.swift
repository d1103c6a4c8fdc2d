// ConsentPage.swift: `GET|POST <base>/oidc/consent`: the person lets an application in, or not (OpenID Connect Core
// 3.1.2.4). The authorize endpoint sends the browser here when the account has not agreed to the client seeing these
// scopes yet (or the client asked prompt=consent); first-party clients never come here.
//
// Options: the authorization request's parameters (OpenIDAuthorizationRequest), carried as hidden fields; `decision`
// (`allow` or `deny`). The page names the application and what it will see, each scope in plain words (Messages+OpenID:
// `oidc_scope_<name>`). Allow records the consent (services.openID.grantConsent) and goes on with the authorization
// (AuthorizeEndpoint), so the code is issued in the same answer; deny sends access_denied to the client.
import AccountCore

struct ConsentPage: Sendable {
    // Core operations this page uses, given in Routes.table.
    let grants: OpenIDGrants
    let endpoint: AuthorizeEndpoint
    init(_ core: AccountServices) { (grants, endpoint) = (core.openID, AuthorizeEndpoint(core)) }

    func show(_ context: RequestContext) throws -> Response {
        _ = try context.requireSession()
        switch try endpoint.parse(context, context.query) {
        case .page, .refused: return try endpoint.authorize(context, sent: context.query)   // its error page or redirect
        case .request(let request): return try render(context, request)
        }
    }

    func submit(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        let form = context.form
        guard case .request(let request) = try endpoint.parse(context, form) else { return try endpoint.authorize(context, sent: form) }
        switch form["decision"] {
        case "allow":
            try grants.grantConsent(accountID: session.accountId, clientID: request.client.id, scopes: request.scopes, client: context.client)
            return try endpoint.authorize(context, sent: form, consented: true)
        case "deny":
            return context.redirect(to: OpenIDAuthorizationRequest.location(request.redirectURI, [
                ("error", "access_denied"), ("error_description", "the person did not let the application in"), ("state", request.state),
                ("iss", context.site.openID?.issuer ?? ""),
            ]))
        default:
            throw HTTPError.badRequest
        }
    }

    private func render(_ context: RequestContext, _ request: OpenIDAuthorizationRequest) throws -> Response {
        let catalog = context.catalog
        let name = request.client.name
        let seen = request.scopes.filter { $0 != "openid" }
        let values: [String: Any] = [
            "title": catalog.text("oidc_consent_title", ["client": name]),
            "intro": catalog.text("oidc_consent_text", ["client": name]),
            "scopes": (["openid"] + seen).map { ["text": catalog.text("oidc_scope_" + $0)] },
            "fields": request.sent.sorted { $0.key < $1.key }.map { ["name": $0.key, "value": $0.value] },
            "action": context.site.paths.path("oidc/consent"),
            "redirect_host": Self.host(of: request.redirectURI),
        ]
        return try context.layout.page("oidc_consent", values)
    }

    /// Where the application lives, as the person can check it: the redirect URI's host (or its scheme for an app's).
    static func host(of uri: String) -> String {
        if let host = ReturnTarget.absoluteHost(uri) { return host }
        return String(uri.prefix { $0 != ":" })
    }
}
