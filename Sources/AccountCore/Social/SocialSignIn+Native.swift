// SocialSignIn+Native.swift: sign-in with a provider token a native app got from the provider's SDK (the JSON API's
// POST v1/users/auth/{facebook,google,x}); WebFront has the token checked with the provider first (OAuthClient).
// Rows of the behaviour table, without a browser to carry a pending step:
//   already linked                        → an API token for that account (unless its address waits for confirmation);
//                                           an account with a second factor gets its challenge instead (no binding)
//   new, provider-verified address free   → account created as in the browser flow (sign-up mode respected), API token
//   new, its address held by an account   → refused `api_social_address_held` (never linked silently: the person signs
//                                           in to that account and links the provider in the settings)
//   new, no address or an unverified one  → refused `api_social_no_email`
// The API token is never a recent sign-in (`authenticatedAt` 0) unless the caller says the proof was bound to our client
// (`recentSignIn`: X's code form, redeemed with our client secret): a provider token an app hands over is a bearer
// credential that may have come from elsewhere, so the password change, address change and deletion ask the password.
import AccountRules
import Foundation
import Logging

extension SocialSignIn {
    /// Signs in (or up) with `identity` and issues an API token; `created` when a new account was made.
    ///
    /// The sign-up mode is checked before the address (a closed site answers `.signUpClosed` whatever the provider
    /// gave); no invitation can come with a provider token, so invite mode refuses new identities. One write
    /// transaction: a refusal leaves no row (only `.unconfirmed`'s audit row is kept), and a unique key that refused a
    /// row (a concurrent request linked the identity) runs the step once more, as the browser flow does.
    ///
    /// ```swift
    /// let found = try provider.identity(fromNativeToken: token)   // OAuthClient, in WebFront
    /// let (grant, created) = try services.social.signInWithProviderToken(ExternalIdentity(provider: "google",
    ///     subject: found.subject, email: found.email, emailVerified: found.emailVerified), client: client)
    /// ```
    /// - Parameter recentSignIn: true only when the proof was bound to our client (X's redeemed code); see the header.
    /// - Throws: `.refused("api_social_address_held" | "api_social_no_email")`, `.signUpClosed`, `.invitationRequired`,
    ///   `.unconfirmed`; `.refused("social_state_invalid")` for an identity without a subject.
    public func signInWithProviderToken(_ identity: ExternalIdentity, client: ClientInfo,
                                        recentSignIn: Bool = false) throws -> (grant: SessionGrant, created: Bool) {
        guard !identity.subject.isEmpty else { throw AccountError.refused("social_state_invalid") }
        let record = try store.record(identity)
        let outcome = try retryingOnce {
            try settle(database.write { tx -> Settled in
                if let accountId = try tx.socialIdentityOwner(provider: record.provider, subject: record.subject) {
                    return try signInLinked(accountId, record: record, rememberMe: true, client: client, here: nil, kind: .api,
                                            recentSignIn: recentSignIn, binding: nil, in: tx)
                }
                let address = Self.verifiedAddress(identity)
                if let address { try releaseUnconfirmedClaim(on: address, provider: record.provider, client: client, in: tx) }
                if let address, try EmailAddress.holding(address, in: tx) != nil {
                    logger.info("provider token refused: the address has an account", metadata: ["provider": "\(record.provider)"])
                    throw AccountError.refused("api_social_address_held")
                }
                try checkSignUpAllowed(invite: "", in: tx)
                guard let address else {
                    logger.info("provider token refused: no verified address", metadata: ["provider": "\(record.provider)"])
                    throw AccountError.refused("api_social_no_email")
                }
                let accountId = try createAccount(record, address: address, verified: true, client: client,
                                                  detail: Self.detail(record.provider, .api), in: tx)
                let grant = try startSession(accountId: accountId, email: address, rememberMe: true, client: client, here: nil,
                                             kind: .api, recentSignIn: recentSignIn, in: tx)
                return .done(.signedIn(grant, created: true))
            })
        }
        guard case .signedIn(let grant, let created) = outcome else { throw AccountError.refused("social_state_invalid") }
        logSignIn(outcome, provider: record.provider)
        return (grant, created)
    }
}
