// SocialSignIn.swift: what an identity vouched for by a provider leads to (the behaviour table of docs/operations.md). The model
// decides which rows exist: an identity is linked to one account, an account has at most one identity per provider
// (socialIdentity's unique keys), and an address belongs to one account (emailAddress's unique key). So:
//   already linked                        → signed in to that account (its lock does not apply: no password was
//                                           guessed), unless its primary address waits for required confirmation
//   new, no account holds any address the → account created for the provider's address (sign-up mode open / invite /
//   provider verified                       closed respected), no password, the address verified, linked, signed in
//   new, one account is a candidate       → never linked silently: pending, the person proves that account (password,
//                                           or a provider already linked to it: linkPending) to link it
//   new, several accounts are candidates  → the picker (SocialSignIn+Picker.swift): one pending per candidate; the
//                                           person chooses one, proves it as above; the identity is linked to it only
//   new, no address or an unverified one  → pending, the person gives an address, verified by mail (sign-up mode
//                                           checked first: closed, or invite without an invitation, refuse first)
// Candidates: each account holding one of the addresses the provider verified (GitHub's /user/emails list can hold
// several, `otherVerifiedEmails`), then, when there is at least one, each account signed in in this browser
// (`browserAccounts`) that has no identity of this provider yet. Several identities of one provider never meet on
// one account (the unique key); on several accounts each identity names its own, so no flow has to guess.
// The settings flows (link, re-authenticate) are in SocialSignIn+Settings.swift, the pending steps in +Pending, the
// types it takes and answers in +Types.
//
// Options: `pendingLifetime` (10 min), `invitations.policy.mode` (signup), `confirmation.required`; session lifetimes
// come from Sessions. Every step is one write transaction; a unique key that refuses a row (another request linked the
// identity or took the address meanwhile) rolls it back and the step runs once more, seeing the winner's rows, so a
// race ends in the proper outcome and never in half-written rows. Sign-ins are audited as `sign_in` with detail
// "via <provider>", accounts made here as `sign_up` "via <provider>", links and unlinks as `identity_linked`/`_unlinked`.
import AccountRules
import Foundation
import Logging

/// Social sign-in and sign-up, as one call per step from WebFront (and later the JSON API).
public struct SocialSignIn: Sendable {
    let database: AppDatabase
    let vault: TokenVault
    let sessions: Sessions
    let confirmation: Confirmation
    let invitations: Invitations
    let validator: Validator
    let hasher: PasswordHasher
    let lockout: Lockout
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
    /// The second step an account with a second factor takes after the provider (SocialSignIn+SecondFactor.swift).
    let secondFactor: SecondFactorSignIn
    /// How long a pending identity waits for its next step (default 10 min).
    public var pendingLifetime: TimeInterval = 600

    public init(database: AppDatabase, vault: TokenVault, sessions: Sessions, confirmation: Confirmation, invitations: Invitations,
                validator: Validator, hasher: PasswordHasher, lockout: Lockout, mail: MailQueue, audit: AuditLog, clock: any Clock,
                random: any RandomSource, logger: Logger, secondFactor: SecondFactorSignIn) {
        self.database = database
        self.vault = vault
        self.sessions = sessions
        self.confirmation = confirmation
        self.invitations = invitations
        self.validator = validator
        self.hasher = hasher
        self.lockout = lockout
        self.mail = mail
        self.audit = audit
        self.clock = clock
        self.random = random
        self.logger = logger
        self.secondFactor = secondFactor
    }

    var store: SocialStore { SocialStore(vault: vault, clock: clock) }

    /// Finishes `flow` with the identity the provider vouched for.
    ///
    /// ```swift
    /// let flow = try services.socialFlows.finish(state: state, provider: "corp", binding: binding)
    /// let identity = try await provider.identity(code: code, verifier: flow.codeVerifier, nonce: flow.nonce)   // OAuthClient
    /// switch try services.social.complete(identity, flow: flow, binding: binding, session: session, client: client,
    ///                                     here: tokens) { … }
    /// ```
    /// - Parameters:
    ///   - binding: this browser's binding cookie (the pending identity is bound to it too).
    ///   - session: the browser's live session (link and reauthenticate need it: `flow.accountId` must be its account).
    ///   - here: the browser's tokens: a sign-in ends its previous session (the session id changes at sign-in) under the
    ///     several-accounts rules (BrowserSessions), and the grant says what the browser must hold.
    ///   - browserAccounts: the accounts signed in in this browser (candidates too when the identity's address has an account).
    /// - Throws: `.signUpClosed`, `.invitationRequired`, `.unconfirmed` (linked account not confirmed yet, confirmation
    ///   required), `.refused("social_identity_taken" | "social_already_linked" | "social_wrong_account" |
    ///   "social_pending_invalid" | "social_state_invalid")` (the last when the identity is from another provider
    ///   than the flow).
    public func complete(_ identity: ExternalIdentity, flow: SocialFlow, binding: [UInt8], session: SessionInfo?,
                         client: ClientInfo, here: BrowserTokens?, browserAccounts: [Int64] = []) throws -> SocialOutcome {
        guard identity.provider == flow.provider, !identity.subject.isEmpty else { throw AccountError.refused("social_state_invalid") }
        let record = try store.record(identity)
        switch flow.purpose {
        case .signIn:
            let outcome = try retryingOnce { try signIn(record, identity: identity, flow: flow, binding: binding, client: client,
                                                        here: here, browserAccounts: browserAccounts) }
            logSignIn(outcome, provider: record.provider)
            return outcome
        case .link:
            return try link(record, flow: flow, session: session, binding: binding, client: client)
        case .reauthenticate:
            return try reauthenticate(record, flow: flow, session: session, client: client)
        case .linkPending:
            return try linkPending(record, flow: flow, binding: binding, client: client, here: here)
        }
    }

    // MARK: Sign-in and sign-up

    private func signIn(_ record: IdentityRecord, identity: ExternalIdentity, flow: SocialFlow, binding: [UInt8], client: ClientInfo,
                        here: BrowserTokens?, browserAccounts: [Int64]) throws -> SocialOutcome {
        try settle(database.write { tx -> Settled in
            if let accountId = try tx.socialIdentityOwner(provider: record.provider, subject: record.subject) {
                return try signInLinked(accountId, record: record, rememberMe: flow.rememberMe, client: client,
                                        here: here, binding: binding, in: tx)
            }
            guard let address = Self.verifiedAddress(identity) else {
                // Ask for an address only when it could lead to an account.
                try checkSignUpAllowed(invite: flow.invite, in: tx)
                let token = try store.createPending(record, emailVerified: false, linkAccountId: nil, flow: flow, binding: binding,
                                                    lifetime: pendingLifetime, random: random, in: tx)
                return .done(.needsEmail(pendingToken: token))
            }
            try releaseUnconfirmedClaim(on: address, provider: record.provider, client: client, in: tx)
            let candidates = try linkCandidates(identity, address: address, browserAccounts: browserAccounts, in: tx)
            if !candidates.isEmpty {
                return .done(try askToLink(record, candidates: candidates, flow: flow, binding: binding, in: tx))
            }
            return try signUp(record, address: address, flow: flow, client: client, here: here, in: tx)
        })
    }

    /// Signs in to the account the identity is linked to (refused while its primary address waits for confirmation).
    /// `kind: .api` issues an API token (audited "api via <provider>"). An account with a second factor gets no session
    /// yet but the challenge of its second step (`.secondFactorRequired`), bound to `binding` (nil: an app's).
    func signInLinked(_ accountId: Int64, record: IdentityRecord, rememberMe: Bool, client: ClientInfo, here: BrowserTokens?,
                      kind: SessionKind = .browser, recentSignIn: Bool = true, binding: [UInt8]?, in tx: Transaction) throws -> Settled {
        let primary = try EmailAddress.primaryAddress(of: accountId, in: tx) ?? ""
        if confirmation.required, try tx.primaryAddressIsUnverified(accountId: accountId) {
            try audit.record(.signInFailed, accountId: accountId, email: primary, client: client,
                             detail: "via \(record.provider): address not confirmed", in: tx)
            return .failed(.unconfirmed)
        }
        try tx.refreshSocialIdentity(record, now: clock.now())
        if let asked = try askSecondFactor(accountId, rememberMe: rememberMe, kind: kind, binding: binding, in: tx) {
            return asked
        }
        let grant = try startSession(accountId: accountId, email: primary, rememberMe: rememberMe, client: client,
                                     here: here, kind: kind, recentSignIn: recentSignIn, in: tx)
        try audit.record(.signIn, accountId: accountId, email: primary, client: client, detail: Self.detail(record.provider, kind), in: tx)
        return .done(.signedIn(grant, created: false))
    }

    /// A new account for a provider-verified address no account holds, as the sign-up mode allows.
    private func signUp(_ record: IdentityRecord, address: String, flow: SocialFlow, client: ClientInfo, here: BrowserTokens?,
                        in tx: Transaction) throws -> Settled {
        let mode = invitations.policy.mode
        guard mode != .closed else { throw AccountError.signUpClosed }
        // An invitation for this address is used up with the account (open mode too); any other is not used. One
        // winner: Invitations.redeem's conditional UPDATE.
        let invited = flow.invite.isEmpty ? false : try invitations.redeem(token: flow.invite, address: address, in: tx)
        guard mode == .open || invited else { throw AccountError.invitationRequired }
        let accountId = try createAccount(record, address: address, verified: true, client: client,
                                          detail: invited ? "via \(record.provider), invitation" : "via \(record.provider)", in: tx)
        let grant = try startSession(accountId: accountId, email: address, rememberMe: flow.rememberMe, client: client,
                                     here: here, in: tx)
        return .done(.signedIn(grant, created: true))
    }

    // MARK: Shared steps

    /// The outcome of one transaction: what to return, or a refusal to throw once the transaction (with its audit
    /// rows) is committed.
    enum Settled {
        case done(SocialOutcome)
        case failed(AccountError)
    }

    func settle(_ settled: Settled) throws -> SocialOutcome {
        switch settled {
        case .done(let outcome): return outcome
        case .failed(let error): throw error
        }
    }

    /// Logs what a committed sign-in through `provider` did (never inside its transaction: a retried body would log twice,
    /// and a rolled-back one would log what did not happen).
    func logSignIn(_ outcome: SocialOutcome, provider: String) {
        switch outcome {
        case .signedIn(let grant, let created):
            logger.info(created ? "account created through a provider" : "signed in through a provider",
                        metadata: ["account": "\(grant.session.accountId)", "provider": "\(provider)"])
        case .needsEmail:
            logger.info("social sign-in needs an address", metadata: ["provider": "\(provider)"])
        default:
            break
        }
    }

    /// Runs `body` again once when a unique key refused a row: the second run sees what the other request committed.
    /// `body` is a whole write transaction (rolled back by the refusal), so nothing of the first run is left.
    func retryingOnce<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch StorageError.uniqueViolation {
            logger.info("social sign-in met a concurrent change; running the step again")
            return try body()
        }
    }

    /// Refuses sign-up as Registration would: closed, or invite mode without a valid invitation (any address).
    func checkSignUpAllowed(invite: String, in tx: Transaction) throws {
        switch invitations.policy.mode {
        case .open: return
        case .closed: throw AccountError.signUpClosed
        case .invite: guard try invitedAddress(invite, in: tx) != nil else { throw AccountError.invitationRequired }
        }
    }

    /// The address a still valid invitation is for (Invitations.invitation, inside the caller's transaction).
    func invitedAddress(_ invite: String, in tx: Transaction) throws -> String? {
        guard let token = SecretToken(encoded: invite) else { return nil }
        return try tx.openInviteAddress(digest: token.digest, now: clock.now())
    }

    /// Creates a password-less account for `address` with the identity linked; audited as sign-up and link. With the
    /// address not `verified`, the identity stays unproven (bound to `binding`'s browser) until it is (IdentityProof).
    func createAccount(_ record: IdentityRecord, address: String, verified: Bool, binding: [UInt8]? = nil, client: ClientInfo,
                       detail: String, in tx: Transaction) throws -> Int64 {
        // One account per address: emailAddress.normalizedAddress is unique (a concurrent sign-up makes this throw
        // `.uniqueViolation`, and retryingOnce runs the step again); one owner per identity: socialIdentity's unique keys.
        let (accountId, _) = try Account.insert(address: address, passwordHash: "", verified: verified, language: client.language,
                                                now: clock.now(), in: tx)
        if !record.displayName.isEmpty {
            try tx.setAccountDisplayName(record.displayName, accountId: accountId)
        }
        try tx.insertSocialIdentity(record, accountId: accountId, now: clock.now(),
                                    unprovenBinding: try IdentityProof.unprovenBinding(for: accountId, browser: binding, in: tx))
        try audit.record(.signUp, accountId: accountId, email: address, client: client, detail: detail, in: tx)
        try audit.record(.identityLinked, accountId: accountId, email: address, client: client, detail: record.provider, in: tx)
        return accountId
    }

    /// Starts a new session; with `here` (the browser's tokens) the browser's previous session ends and the
    /// several-accounts rules apply (BrowserSessions). `kind: .api`: issues an API token instead.
    func startSession(accountId: Int64, email: String, rememberMe: Bool, client: ClientInfo, here: BrowserTokens?,
                      kind: SessionKind = .browser, recentSignIn: Bool = true, in tx: Transaction) throws -> SessionGrant {
        try sessions.create(in: tx, accountId: accountId, email: email, rememberMe: rememberMe, client: client, kind: kind,
                            recentSignIn: recentSignIn, here: here, keepPrevious: false)
    }

    /// The audit detail of a sign-in or sign-up through `provider`: "via <provider>", "api via <provider>" for the JSON API.
    static func detail(_ provider: String, _ kind: SessionKind) -> String {
        kind == .api ? "api via \(provider)" : "via \(provider)"
    }

    /// The identity's address when the provider vouches for it and it is well-formed.
    static func verifiedAddress(_ identity: ExternalIdentity) -> String? {
        guard identity.emailVerified, let email = identity.email?.trimmingWhitespace(), EmailFormat.isValid(email) else { return nil }
        return email
    }
}
