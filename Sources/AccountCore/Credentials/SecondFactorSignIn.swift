// SecondFactorSignIn.swift: the second step of a sign-in, and raising a session to two factors (a step-up).
//
// Options (SecondFactorPolicy, config key `second_factor`):
//   mode                optional | required: with `required`, a person without a second factor is led to set one up
//                       after signing in (WebFront enforces it; see docs/two-step.md)
//   challengeLifetime   how long the second step may wait after the password (5 minutes; not a config key)
// After a right password, an account with a second factor (SignInMethods says) gets no session but a challenge
// (`AccountError.secondFactorRequired`): a SecretToken of which only the digest is stored, with the account,
// remember-me, the kind of session to make and the digest of the browser's binding (none for an app), used once (a
// conditional UPDATE decides the one winner), expiring after `challengeLifetime`. `complete` checks the code and makes
// the session with two factors, with the sign-in's browser rules (the session id always changes). A wrong code counts
// towards the account's lock and the client address's block as a wrong password does, and gets the same answer
// (`.invalidCredentials`); a locked account or a blocked address is refused even with the right code. The challenge
// stays usable for another try until it expires, so the lockout, not the challenge, bounds the guesses.
// `stepUp` raises an existing session to two factors (the gate's `FRONTDOOR_REQUIRE=2fa`) with the same checks; it
// also counts as a recent sign-in for `session.reauthenticate_after`.
import Foundation
import Logging

/// Config key `second_factor` and the second step's timing.
public struct SecondFactorPolicy: Sendable, Equatable {
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// People choose whether to set a second factor up.
        case optional
        /// Everyone must: a person without one is led to set one up, and may do nothing else until then.
        case required
    }

    public var mode: Mode
    /// How long the second step may wait after the password.
    public var challengeLifetime: TimeInterval

    public init(mode: Mode = .optional, challengeLifetime: TimeInterval = 300) {
        self.mode = mode
        self.challengeLifetime = challengeLifetime
    }
}

/// What proves the second factor.
public enum SecondFactorProof: Sendable, Equatable {
    /// A one-time code, or a recovery code.
    case code(String)
    /// A passkey's answer to the challenge of `Passkeys.beginAssertion(.secondFactor, accountId:)`.
    case passkey(PasskeyAssertion)
}

/// The second step of a sign-in, and the step-up of a session.
public struct SecondFactorSignIn: Sendable {
    let database: AppDatabase
    let sessions: Sessions
    let lockout: Lockout
    let audit: AuditLog
    /// Knows the account's second factors and checks their codes (built with the one-time codes).
    let methods: SignInMethods
    let policy: SecondFactorPolicy
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
    /// What checks a passkey's answer (AccountServices gives it; without it a passkey proves nothing).
    var passkeys: Passkeys? = nil

    /// A code longer than this is wrong without a lookup (a recovery code is far shorter).
    static let maxCodeLength = 64

    /// Leaves a challenge for the account's second step (Authentication, after a right password), in the caller's
    /// transaction; returns its token. The account's spent challenges go first.
    func begin(accountId: Int64, rememberMe: Bool, kind: SessionKind, binding: [UInt8]?, in tx: Transaction) throws -> String {
        // An app finishes the step with a code only (no WebAuthn over the JSON API): an account whose second factors are
        // all passkeys is told to use a browser rather than left a challenge no app can finish.
        if kind == .api, try !methods.methods(accountId: accountId, in: tx).contains(.oneTimeCode) {
            throw AccountError.refused("second_factor_browser_only")
        }
        let now = clock.now()
        try tx.deleteSpentSecondFactorChallenges(accountId: accountId, now: now)
        let token = SecretToken(random: random)
        let challenge = StoredSecondFactorChallenge(digest: token.digest, accountId: accountId, rememberMe: rememberMe, kind: kind,
                                                    bindingDigest: binding.map(SocialFlows.digest) ?? Data(),
                                                    expiresAt: now + policy.challengeLifetime)
        try tx.insertSecondFactorChallenge(challenge, createdAt: now)
        return token.encoded
    }

    /// True while `challenge` can still be completed in this browser (unused, unexpired, made with `binding`).
    public func isPending(challenge: String, binding: [UInt8]?) throws -> Bool {
        try database.read { tx in try pending(challenge, binding: binding, in: tx) } != nil
    }

    /// Finishes the sign-in `challenge` was left for with `proof`: a new session with two factors. With `here` (the
    /// browser's tokens) the several-accounts rules apply as at any sign-in (`keepPrevious` adds an account).
    /// `binding`: the browser's binding the challenge was made with (nil for an app's).
    ///
    /// - Throws: `.refused("second_factor_expired")` when the challenge is unknown, used, expired or of another browser
    ///   (sign in again); `.invalidCredentials` for a wrong code, a locked account or a blocked address (the challenge
    ///   stays usable until it expires); `.notFound` when the account is gone.
    public func complete(challenge: String, proof: SecondFactorProof, client: ClientInfo, here: BrowserTokens?, keepPrevious: Bool,
                         binding: [UInt8]? = nil) throws -> SessionGrant {
        guard let found = try database.read({ tx in try pending(challenge, binding: binding, in: tx) }) else {
            throw AccountError.refused("second_factor_expired")
        }
        let accountId = found.accountId
        let email = try checkNotLocked(accountId: accountId, client: client, step: "second factor")
        let passkeyProven = try checkPasskey(proof, accountId: accountId, binding: binding, client: client)
        let grant = try database.write { tx -> SessionGrant? in
            guard try accept(proof, accountId: accountId, passkeyProven: passkeyProven, in: tx) else { return nil }
            // Used once: of two completions at once, the conditional UPDATE lets one through (the other rolls back,
            // and its code is not used up).
            guard try tx.markSecondFactorChallengeUsed(digest: found.digest, now: clock.now()) else {
                throw AccountError.refused("second_factor_expired")
            }
            let primary = try EmailAddress.primaryAddress(of: accountId, in: tx) ?? email
            try lockout.recordSuccess(accountId: accountId, in: tx)
            let grant = try sessions.create(in: tx, accountId: accountId, email: primary, rememberMe: found.rememberMe, client: client,
                                            kind: found.kind, here: here, keepPrevious: keepPrevious, factors: 2)
            let detail = ["second factor", found.kind == .api ? "api" : (found.rememberMe ? "remember me" : "")]
                .filter { !$0.isEmpty }.joined(separator: "; ")
            try audit.record(.signIn, accountId: accountId, email: primary, client: client, detail: detail, in: tx)
            return grant
        }
        guard let grant else {
            try lockout.refuse(accountId: accountId, email: email, client: client, reason: "second factor: wrong code")
        }
        logger.info("signed in with a second factor", metadata: ["account": "\(accountId)", "remember": "\(found.rememberMe)"])
        return grant
    }

    /// Raises the session `digest` to two factors with `proof`; it also counts as a recent sign-in.
    ///
    /// - Throws: `.refused("second_factor_none")` when the account has no second factor to prove (set one up first);
    ///   `.invalidCredentials` for a wrong code, a locked account or a blocked address; `.notFound` when the session is
    ///   gone.
    /// `binding`: the browser's binding a passkey's challenge was made with.
    public func stepUp(session digest: Data, proof: SecondFactorProof, client: ClientInfo, binding: [UInt8]? = nil) throws {
        guard let session = try database.read({ tx in try tx.sessionFactors(digest: digest) }) else { throw AccountError.notFound }
        let accountId = session.accountId
        guard try methods.hasSecondFactor(accountId: accountId) else { throw AccountError.refused("second_factor_none") }
        let email = try checkNotLocked(accountId: accountId, client: client, step: "step-up")
        let passkeyProven = try checkPasskey(proof, accountId: accountId, binding: binding, client: client)
        let raised = try database.write { tx -> Bool in
            guard try accept(proof, accountId: accountId, passkeyProven: passkeyProven, in: tx) else { return false }
            guard try tx.raiseSessionFactors(digest: digest, of: accountId, at: clock.now()) else { throw AccountError.notFound }
            try lockout.recordSuccess(accountId: accountId, in: tx)
            try audit.record(.reauthenticated, accountId: accountId, email: try EmailAddress.primaryAddress(of: accountId, in: tx),
                             client: client, detail: "second factor", in: tx)
            return true
        }
        guard raised else { try lockout.refuse(accountId: accountId, email: email, client: client, reason: "step-up: wrong code") }
        logger.info("session stepped up to two factors", metadata: ["account": "\(accountId)"])
    }

    // MARK: Parts

    /// The challenge of `token` when unused, unexpired and made with `binding` (any binding for an app's challenge).
    private func pending(_ token: String, binding: [UInt8]?, in tx: Transaction) throws -> StoredSecondFactorChallenge? {
        guard let digest = SecretToken(encoded: token)?.digest,
              let found = try tx.unusedSecondFactorChallenge(digest: digest, now: clock.now()) else { return nil }
        if found.bindingDigest.isEmpty { return found }
        guard let binding, !binding.isEmpty,
              SocialFlows.constantTimeEquals(found.bindingDigest, SocialFlows.digest(binding)) else { return nil }
        return found
    }

    /// The account's primary address when it may try a code now; a locked account or blocked address is refused with
    /// the failure answer (not counted: nothing was guessed).
    private func checkNotLocked(accountId: Int64, client: ClientInfo, step: String) throws -> String {
        let (email, locked, blocked) = try database.read { tx in
            (try EmailAddress.primaryAddress(of: accountId, in: tx) ?? "", try lockout.isLocked(accountId: accountId, in: tx),
             try lockout.isBlocked(client, in: tx))
        }
        if blocked { try lockout.refuseBlocked(accountId: accountId, email: email, client: client, reason: "\(step): client address blocked") }
        if locked { try lockout.refuse(accountId: accountId, email: email, client: client, reason: "\(step): account locked", counts: false) }
        return email
    }

    /// Whether `proof` proves the account's second factor now (SignInMethods knows the methods; a passkey's answer was
    /// checked before the transaction, `passkeyProven`).
    private func accept(_ proof: SecondFactorProof, accountId: Int64, passkeyProven: Bool, in tx: Transaction) throws -> Bool {
        switch proof {
        case .code(let code):
            let trimmed = code.filter { !$0.isWhitespace }
            guard !trimmed.isEmpty, trimmed.utf8.count <= Self.maxCodeLength else { return false }
            return try methods.acceptSecondFactor(accountId: accountId, code: trimmed, in: tx)
        case .passkey:
            return passkeyProven
        }
    }

    /// For a passkey proof: its answer checked against the account's passkeys and its own challenge (used up, in a
    /// transaction of its own, before the session's); false when it does not prove the account. False for a code.
    private func checkPasskey(_ proof: SecondFactorProof, accountId: Int64, binding: [UInt8]?, client: ClientInfo) throws -> Bool {
        guard case .passkey(let assertion) = proof, let passkeys else { return false }
        do {
            try passkeys.verifySecondFactor(accountId: accountId, assertion: assertion, binding: binding ?? [], client: client)
            return true
        } catch AccountError.refused {
            return false
        }
    }

    /// The account a pending sign-in's `challenge` (made in this browser, `binding`) waits for, or nil: what a passkey's
    /// challenge for the second step is made for.
    public func pendingAccount(challenge: String, binding: [UInt8]?) throws -> Int64? {
        try database.read { tx in try pending(challenge, binding: binding, in: tx) }?.accountId
    }
}
