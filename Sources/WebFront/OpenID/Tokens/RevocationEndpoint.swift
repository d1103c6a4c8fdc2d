// RevocationEndpoint.swift: `POST <base>/oidc/revoke` (RFC 7009): a client gives up a token it holds.
//
// Form: `token`, `token_type_hint` (only a hint). The client authenticates (ClientAuthentication). An access token
// ends alone; a refresh token ends its whole grant, access tokens included. An unknown token, or another client's,
// changes nothing and is answered the same 200 (7009 2.2), so the endpoint tells nobody which tokens exist.
// 401 invalid_client for a failed client authentication; 400 invalid_request without `token`.
import AccountCore
import Foundation

/// The revocation endpoint.
struct RevocationEndpoint: Sendable {
    // Core operations this endpoint uses, given in Routes.openIDTokens.
    let core: AccountServices
    init(_ core: AccountServices) { self.core = core }

    func submit(_ context: RequestContext) throws -> Response {
        try ClientAuthentication.endpoint(context, clients: core.openIDClients) { services, client, method in
            try core.openID.revoke(try OpenIDForm.field("token", in: context.form), client: client)
            var response = Response(status: 200)
            OpenIDEndpointError.noStore(&response)
            return response
        }
    }
}
