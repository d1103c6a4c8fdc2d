// SocialSignIn+Native.swift: sign-in with a provider token a native app got from the provider's SDK (the JSON API's
// POST v1/users/auth/{facebook,google}); WebFront has the token checked with the provider first (OAuthClient).
// Rows of the behaviour table, without a browser to carry a pending step:
//   already linked                        → an API token for that account (unless its address waits for confirmation)
//   new, provider-verified address free   → account created as in the browser flow (sign-up mode respected), API token
//   new, its address held by an account   → refused `api_social_address_held` (never linked silently: the person signs
//                                           in to that account and links the provider in the settings)
//   new, no address or an unverified one  → refused `api_social_no_email`
import AccountRules
import Foundation
import GRDB
import Logging

extension SocialSignIn {
    /// Signs in (or up) with `identity` and issues an API token; `created` when a new account was made.
    ///
    /// - Throws: `.refused("api_social_address_held" | "api_social_no_email")`, `.signUpClosed`, `.invitationRequired`,
    ///   `.unconfirmed`.
    public func signInWithProviderToken(_ identity: ExternalIdentity, client: ClientInfo) throws -> (grant: SessionGrant, created: Bool) {
        throw AccountError.refused("api_social_no_email")   // TODO(helper C)
    }
}
