// IntrospectionEndpoint.swift: `POST <base>/oidc/introspect` (RFC 7662): a resource server (a registered client)
// asks whether a token is live and what it carries.
//
// Form: `token`, `token_type_hint` (access_token | refresh_token; only a hint: both kinds are looked up). The caller
// authenticates as a confidential client (ClientAuthentication; a public client's bare id proves nothing, as the
// discovery document's introspection_endpoint_auth_methods_supported says). Answers 200 {"active": false} for a token that is unknown, expired,
// revoked or another client's (7662 2.2 allows hiding the rest), else {"active": true, "scope", "client_id",
// "username", "token_type" ("Bearer" for an access token, "refresh_token" otherwise), "exp", "iat", "sub", "aud",
// "iss", "sid"}. 401 invalid_client for a failed client authentication; 400 invalid_request without `token`.
import AccountCore
import Foundation

/// The introspection endpoint.
struct IntrospectionEndpoint: Sendable {
    // Core operations this endpoint uses, given in Routes.openIDTokens.
    let core: AccountServices
    init(_ core: AccountServices) { self.core = core }

    func submit(_ context: RequestContext) throws -> Response {
        try ClientAuthentication.endpoint(context, clients: core.openIDClients) { services, client, method in
            guard method != .none else { throw OpenIDEndpointError.invalidClient(basic: false, realm: services.issuer) }
            let token = try OpenIDForm.field("token", in: context.form)
            var body: [String: Any] = ["active": false]
            if let found = try core.openID.introspect(token, client: client),
               let facts = try AccountFacts.read(found.grant.accountID, core: core) {
                body = ["active": true, "scope": found.scopes.joined(separator: " "), "client_id": found.grant.clientID,
                        "username": facts.username, "token_type": found.kind == .accessToken ? "Bearer" : "refresh_token",
                        "exp": Int(found.expiresAt.timeIntervalSince1970), "iat": Int(found.issuedAt.timeIntervalSince1970),
                        "sub": try core.openID.subject(accountID: found.grant.accountID, client: client),
                        "aud": found.grant.clientID, "iss": services.issuer, "sid": found.grant.sid]
            }
            var response = Response.json(body)
            OpenIDEndpointError.noStore(&response)
            return response
        }
    }
}
