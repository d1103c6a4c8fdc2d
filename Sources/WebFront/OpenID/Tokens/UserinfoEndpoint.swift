// UserinfoEndpoint.swift: `GET|POST <base>/oidc/userinfo` (OpenID Connect Core 5.3): the claims an access token's
// scopes open, about the account as it is now (IDTokenClaims.userinfo).
//
// The token comes as `Authorization: Bearer <token>` (RFC 6750 2.1), or, on a POST, as the form field `access_token`
// (2.2); not in the query string, and never two ways at once (400 invalid_request). A missing, unknown, expired or
// revoked token, a token of an account that is gone or that the client's allow rule no longer admits: 401 with
// `WWW-Authenticate: Bearer error="invalid_token"` (no error named when no token was sent). A token without the
// `openid` scope: 403 insufficient_scope. Answers 200 JSON, Cache-Control: no-store.
import AccountCore
import Foundation

/// The userinfo endpoint.
struct UserinfoEndpoint: Sendable {
    // Core operations this endpoint uses, given in Routes.openIDTokens.
    let core: AccountServices
    init(_ core: AccountServices) { self.core = core }

    func show(_ context: RequestContext) throws -> Response {
        guard context.site.openID != nil else { throw HTTPError.notFound }
        do {
            let token = try Self.bearerToken(context)
            guard let access = try core.openID.accessToken(token),
                  let client = try core.openIDClients.client(access.grant.clientID),
                  let facts = try AccountFacts.read(access.grant.accountID, core: core),
                  GateRule(client.allow).allows(facts.person) else {
                throw OpenIDEndpointError.invalidToken()
            }
            guard access.scopes.contains("openid") else {
                throw OpenIDEndpointError(status: 403, code: "insufficient_scope", description: "the token was not issued with openid",
                                          headers: ["WWW-Authenticate": "Bearer error=\"insufficient_scope\", scope=\"openid\""])
            }
            let subject = try core.openID.subject(accountID: access.grant.accountID, client: client)
            var response = Response.json(IDTokenClaims.userinfo(scopes: access.scopes, subject: subject, facts: facts))
            OpenIDEndpointError.noStore(&response)
            return response
        } catch let error as OpenIDEndpointError {
            return error.response
        }
    }

    /// The access token of the request: the Bearer header, or a POST form's `access_token`; exactly one.
    static func bearerToken(_ context: RequestContext) throws -> String {
        var header: String?
        if let authorization = context.request.header("Authorization") {
            let parts = authorization.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { header = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        let field = context.request.method == "POST" ? context.form["access_token"] : nil
        switch (header, field) {
        case (let token?, nil) where !token.isEmpty: return token
        case (nil, let token?) where !token.isEmpty: return token
        case (_?, _?): throw OpenIDEndpointError.invalidRequest("send the access token one way, not two")
        default: throw OpenIDEndpointError.invalidToken(present: header != nil || field != nil)
        }
    }
}
