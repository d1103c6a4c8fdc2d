// OpenIDSignInAPI.swift: `POST <base>/v1/users/sign_in/oidc`: a native app that signed the person in through the
// OpenID Connect provider (FrontdoorClient.signInThroughProvider: the system browser, PKCE, a public client) exchanges
// the access token for an API token: {"access_token": "…"} → 201 {"user": …} with `authenticationToken`, the answer
// of `v1/users/sign_in` (UsersAPI.signIn).
//
// Options: the client's `api_sign_in` (config file or `frontdoor client add --api-sign-in`): only its tokens are taken,
// so a token some web app received cannot be turned into an API token by whoever holds it. The token must be live
// (services.openID.accessToken: not expired, its grant not revoked, its Frontdoor session not ended). The API session
// is of kind `api`, never a recent sign-in, with the factors the grant recorded (APITokens+OpenID.swift), and faces the
// `second_factor: required` policy like every issued token (APIContext.handOver). Every refusal is the API's 401
// {"error": "<api_unauthenticated>"}; the log says which it was.
import AccountCore
import Foundation

/// The access-token-for-API-token exchange.
struct OpenIDSignInAPI: Sendable {
    // Core operations this page uses, given in Routes.openIDApps.
    let grants: OpenIDGrants
    let clients: OpenIDClients
    let apiTokens: APITokens
    init(_ core: AccountServices) { (grants, clients, apiTokens) = (core.openID, core.openIDClients, core.apiTokens) }

    func submit(_ context: RequestContext) throws -> Response {
        let token = try context.api.body()["access_token"] as? String ?? ""
        let refused = APIError.unauthorized(context.catalog.text("api_unauthenticated"))
        guard !token.isEmpty, token.utf8.count <= 512, let access = try grants.accessToken(token) else {
            context.site.logger.info("oidc api sign-in refused", metadata: ["reason": "no live access token"])
            throw refused
        }
        guard let client = try clients.client(access.grant.clientID), client.apiSignIn else {
            context.site.logger.info("oidc api sign-in refused", metadata: ["reason": "client without api_sign_in",
                                                                             "client": "\(access.grant.clientID)"])
            throw refused
        }
        let grant = try context.api.call {
            try apiTokens.issue(openIDAccount: access.grant.accountID, factors: access.grant.factors, clientID: client.id, client: context.client)
        }
        try context.api.handOver(grant)
        return try context.api.userResponse(accountId: grant.session.accountId, token: grant.token.encoded, status: 201)
    }
}
