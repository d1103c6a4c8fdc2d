// APITokens+OpenID.swift: the API token a native app gets for an OpenID Connect access token (WebFront's
// OpenIDSignInAPI, `v1/users/sign_in/oidc`): the person signed in on Frontdoor's own pages in the system browser, the
// app holds an access token of a client allowed to exchange it (`api_sign_in`), and gets an API session for that
// account. Options: none. The session is of kind `api`, never a recent sign-in (a bearer token proves nothing about
// who holds the device now), with the factors the grant recorded; audited as a sign-in with detail `oidc:<client>`.
import Foundation

extension APITokens {
    /// Issues an API token for `accountId` after an OpenID Connect sign-in through `clientID` with `factors` factors.
    ///
    /// - Throws: `AccountError.notFound` when the account is gone.
    public func issue(openIDAccount accountId: Int64, factors: Int, clientID: String, client: ClientInfo) throws -> SessionGrant {
        try database.write { tx in
            _ = try Self.summary(of: accountId, in: tx)
            let primary = try EmailAddress.primaryAddress(of: accountId, in: tx) ?? ""
            let grant = try sessions.create(in: tx, accountId: accountId, email: primary, rememberMe: true, client: client, kind: .api,
                                            recentSignIn: false, factors: max(1, factors))
            try audit.record(.signIn, accountId: accountId, email: primary, client: client, detail: "oidc:\(clientID)", in: tx)
            return grant
        }
    }
}
