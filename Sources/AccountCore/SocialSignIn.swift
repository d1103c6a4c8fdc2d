// SocialSignIn.swift: what an identity vouched for by a provider leads to (the README's behaviour table):
//   already linked                        → signed in to that account
//   new, provider-verified address free   → account created (sign-up mode open / invite / closed respected), no
//                                           password, the address verified, the identity linked, signed in
//   new, its address held by an account   → never linked silently: pending, the person signs in to that account
//                                           (password or a provider already linked to it) to link it
//   new, no address or an unverified one  → pending, the person gives an address, which is verified by mail
// and for the settings: link to the signed-in account, or re-authenticate the session.
// (Foundation stub: helper C implements it; the public shape below is the contract.)
import AccountRules
import Foundation
import GRDB
import Logging

/// An identity as the provider reported it; `tokens` is opaque (JSON from WebFront), sealed before it is stored.
public struct ExternalIdentity: Sendable, Equatable {
    public var provider: String
    public var subject: String
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String
    public var tokens: Data?
    public var tokenExpiresAt: Date?

    public init(provider: String, subject: String, email: String?, emailVerified: Bool, displayName: String = "",
                tokens: Data? = nil, tokenExpiresAt: Date? = nil) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.tokens = tokens
        self.tokenExpiresAt = tokenExpiresAt
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
}

/// Social sign-in and sign-up, as one call per step from WebFront (and later the JSON API).
public struct SocialSignIn: Sendable {
    let database: AppDatabase
    let vault: TokenVault
    let sessions: Sessions
    let confirmation: Confirmation
    let invitations: Invitations
    let validator: Validator
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
    /// How long a pending identity waits for its next step (default 10 min).
    public var pendingLifetime: TimeInterval = 600

    public init(database: AppDatabase, vault: TokenVault, sessions: Sessions, confirmation: Confirmation, invitations: Invitations,
                validator: Validator, mail: MailQueue, audit: AuditLog, clock: any Clock, random: any RandomSource, logger: Logger) {
        self.database = database
        self.vault = vault
        self.sessions = sessions
        self.confirmation = confirmation
        self.invitations = invitations
        self.validator = validator
        self.mail = mail
        self.audit = audit
        self.clock = clock
        self.random = random
        self.logger = logger
    }

    /// Finishes `flow` with the identity the provider vouched for.
    ///
    /// - Parameters:
    ///   - binding: this browser's binding cookie (the pending identity is bound to it too).
    ///   - session: the browser's live session (link and reauthenticate need it: `flow.accountId` must be its account).
    ///   - previousToken: the browser's session cookie, ended when this signs in (the session id changes at sign-in).
    /// - Throws: `.signUpClosed`, `.invitationRequired`, `.unconfirmed` (linked account not confirmed yet, confirmation
    ///   required), `.refused("social_identity_taken" | "social_already_linked" | "social_wrong_account" |
    ///   "social_pending_invalid")`.
    public func complete(_ identity: ExternalIdentity, flow: SocialFlow, binding: [UInt8], session: SessionInfo?,
                         client: ClientInfo, previousToken: String?) throws -> SocialOutcome {
        throw AccountError.refused("social_pending_invalid")
    }

    /// The pending identity `token` names in this browser; `.refused("social_pending_invalid")` when unknown, used,
    /// expired or from another browser.
    public func pending(token: String, binding: [UInt8]) throws -> PendingIdentity {
        throw AccountError.refused("social_pending_invalid")
    }

    /// The address the person gave for a pending identity without a (verified) one. A free address: the account is
    /// created with it unverified and the identity linked; a confirmation link is mailed (`.confirmationSent`), or
    /// without required confirmation the person is signed in. An address that has an account: the same
    /// `.confirmationSent`, nothing created, its owner mailed (as at sign-up). Bad address: `.invalid` on `email`.
    public func submitEmail(pendingToken: String, binding: [UInt8], email: String, client: ClientInfo,
                            previousToken: String?) throws -> SignUpOutcome {
        throw AccountError.refused("social_pending_invalid")
    }

    /// Links a pending identity to the account holding its address after that account's password: signs in.
    /// A wrong password is `.invalidCredentials` and counts towards the account's lock, as at sign-in.
    public func linkWithPassword(pendingToken: String, binding: [UInt8], password: String, client: ClientInfo,
                                 previousToken: String?) throws -> SessionGrant {
        throw AccountError.invalidCredentials
    }
}
