// SocialSignIn+Types.swift: what social sign-in takes and answers: the identity a provider vouched for, the outcome of
// a step, and a pending identity as the pages show it (SocialSignIn.swift has the rules).
//
// Options: none.
import Foundation

/// An identity as the provider reported it; `tokens` is opaque (JSON from WebFront), sealed before it is stored.
public struct ExternalIdentity: Sendable, Equatable {
    public var provider: String
    public var subject: String
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String
    public var tokens: Data?
    public var tokenExpiresAt: Date?
    /// Further addresses the provider verified besides `email` (GitHub's address list), used to find candidate accounts.
    public var otherVerifiedEmails: [String]

    public init(provider: String, subject: String, email: String?, emailVerified: Bool, displayName: String = "",
                tokens: Data? = nil, tokenExpiresAt: Date? = nil, otherVerifiedEmails: [String] = []) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.tokens = tokens
        self.tokenExpiresAt = tokenExpiresAt
        self.otherVerifiedEmails = otherVerifiedEmails
    }
}

/// What finishing a flow led to.
public enum SocialOutcome: Sendable {
    /// Signed in (`created`: a new account was made for the identity).
    case signedIn(SessionGrant, created: Bool)
    /// The provider gave no address or an unverified one: ask for one (`SocialSignIn.submitEmail`).
    case needsEmail(pendingToken: String)
    /// The identity's address belongs to an account: the person signs in to it to link (`linkWithPassword`, or a
    /// `linkPending` flow with a provider already linked to it).
    case needsLink(pendingToken: String)
    /// Several accounts could take the identity: one pending identity per candidate, for the picker
    /// (`SocialSignIn.pickChoices`, `choosePending`), then as `needsLink`.
    case needsPick(pendingTokens: [String])
    /// Linked to the signed-in account (purpose `link`).
    case linked
    /// The session counts as recently authenticated (purpose `reauthenticate`).
    case reauthenticated
}

/// A pending identity, as the page asking for the next step shows it.
public struct PendingIdentity: Sendable, Equatable {
    public var provider: String
    public var email: String?
    public var displayName: String
    /// For `needsLink`: the providers already linked to the account holding the address, and whether it has a password.
    public var linkProviders: [String]
    public var linkHasPassword: Bool
    public var returnTo: String
    public var rememberMe: Bool
    /// For `needsLink`: the account to link to, and the address that names it (the one the provider vouched for that
    /// it holds, else its primary address: an account signed in in this browser).
    public var accountId: Int64? = nil
    public var accountAddress: String? = nil
}
