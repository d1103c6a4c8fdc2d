// Authentication.swift: signs a person in with email and password and starts a fresh session.
//
// Options:
//   password   PasswordPolicy (argon2id cost; hashes made with older parameters are upgraded at sign-in)
//   lockout    Lockout (failed sign-ins lock the account and block the client address)
// Every failure is the same `AccountError.invalidCredentials`; an unknown address and a locked account cost
// one argon2id verification like a wrong password does. Only the audit trail and the log tell the reasons apart.
// Any verified address of an account signs in; an added address that is not verified yet counts as unknown. The
// primary address of an account not confirmed yet is still recognised (refused with `.unconfirmed` when required).
// An account made through a provider has no password (`passwordHash` ''): it is refused like a wrong password, after
// the same argon2id work (against the dummy hash), and the failure counts towards its lock.
// An account with a second factor (SignInMethods) gets no session after its right password, but a short-lived
// challenge for the second step (`.secondFactorRequired`; SecondFactorSignIn).
import AccountRules
import Foundation
import Logging

/// Sign-in with a password.
public struct Authentication: Sendable {
    let database: AppDatabase
    let hasher: PasswordHasher
    let sessions: Sessions
    let lockout: Lockout
    let audit: AuditLog
    let secondFactor: SecondFactorSignIn
    /// Sign-in waits until the address used is confirmed.
    let confirmationRequired: Bool
    let clock: any Clock
    let logger: Logger


    /// Checks `email` and `password` and starts a new session. With `here` (the browser's tokens) the several-accounts
    /// rules apply in the same transaction (BrowserSessions: the browser's old session ends unless `keepPrevious` adds an
    /// account, so the session id always changes at sign-in) and the grant says what the browser must hold. `kind: .api`
    /// issues an API token (the JSON API's sign-in) instead of a browser session, audited with detail "api".
    /// `binding`: the browser's binding cookie, which a second step must come from (nil: an app's sign-in).
    ///
    /// - Throws: `AccountError.invalidCredentials` for every kind of failure; `AccountError.unconfirmed`
    ///   after a correct password when the address still waits for confirmation; `AccountError.secondFactorRequired`
    ///   after a correct password when the account has a second factor (no session yet).
    public func signIn(email: String, password: String, rememberMe: Bool, client: ClientInfo,
                       here: BrowserTokens? = nil, keepPrevious: Bool = false, kind: SessionKind = .browser,
                       binding: [UInt8]? = nil) throws -> SessionGrant {
        let normalized = EmailFormat.normalized(email)
        let (found, addressBlocked) = try database.read { tx in
            let found = try tx.signInCandidate(normalizedAddress: normalized)
                .map { (id: $0.accountId, hash: $0.passwordHash, verified: $0.verified, primary: $0.primary) }
            return (found, try lockout.isBlocked(client, in: tx))
        }
        let typed = String(email.prefix(320))
        if addressBlocked {
            // A blocked address gets the usual answer without the hash work: it is the address that is refused.
            try lockout.refuseBlocked(accountId: found?.id, email: typed, client: client, reason: "client address blocked")
        }
        guard !email.isEmpty, password.utf8.count <= 4096, let found else {
            _ = hasher.verifyAgainstDummy(password)
            try lockout.refuse(accountId: nil, email: typed, client: client, reason: "unknown address")
        }
        if !found.verified && !found.primary {
            // An added address signs in only once confirmed; until then it is as unknown as any other (same hash work),
            // and the failure is not counted against the account that added it.
            _ = hasher.verifyAgainstDummy(password)
            try lockout.refuse(accountId: nil, email: typed, client: client, reason: "unverified added address of account \(found.id)")
        }
        let hasPassword = SignInMethods.isPassword(storedHash: found.hash)
        let passwordMatches = hasPassword ? hasher.verify(password, against: found.hash) : hasher.verifyAgainstDummy(password)
        if try database.read({ tx in try lockout.isLocked(accountId: found.id, in: tx) }) {
            try lockout.refuse(accountId: found.id, email: typed, client: client, reason: passwordMatches ? "account locked" : "account locked, wrong password",
                     counts: !passwordMatches)
        }
        guard passwordMatches else {
            try lockout.refuse(accountId: found.id, email: typed, client: client, reason: hasPassword ? "wrong password" : "no password (provider sign-in only)")
        }
        if confirmationRequired && !found.verified {
            logger.info("sign-in refused", metadata: ["reason": "address not confirmed", "account": "\(found.id)",
                                                      "client": "\(client.remoteAddress)"])
            try audit.record(.signInFailed, accountId: found.id, email: typed, client: client, detail: "address not confirmed")
            throw AccountError.unconfirmed
        }
        let upgradedHash = hasher.needsRehash(found.hash) ? try? hasher.hash(password) : nil
        let grant = try database.write { tx -> SessionGrant? in
            if let upgradedHash {
                _ = try tx.setPasswordHash(upgradedHash, of: found.id, at: clock.now())
            }
            if try secondFactor.methods.hasSecondFactor(accountId: found.id, in: tx) { return nil }
            let primary = try EmailAddress.primaryAddress(of: found.id, in: tx) ?? email
            try lockout.recordSuccess(accountId: found.id, in: tx)
            let grant = try sessions.create(in: tx, accountId: found.id, email: primary, rememberMe: rememberMe, client: client, kind: kind,
                                            here: here, keepPrevious: keepPrevious)
            // The audit row last, as in every sign-in: one lock order everywhere.
            let detail = kind == .api ? "api" : (rememberMe ? "remember me" : "")
            try audit.record(.signIn, accountId: found.id, email: primary, client: client, detail: detail, in: tx)
            return grant
        }
        guard let grant else {
            // The hash upgrade above is kept; the challenge is written on its own so the answer carries it.
            let challenge = try database.write { tx in
                try secondFactor.begin(accountId: found.id, rememberMe: rememberMe, kind: kind, binding: binding, in: tx)
            }
            logger.info("password right; second factor asked", metadata: ["account": "\(found.id)"])
            throw AccountError.secondFactorRequired(challenge: challenge)
        }
        logger.info("signed in", metadata: ["account": "\(found.id)", "remember": "\(rememberMe)"])
        return grant
    }

    /// Ends the session whose token is `encoded` and records the sign-out; unknown tokens are ignored.
    public func signOut(token encoded: String, client: ClientInfo) throws {
        _ = try BrowserSessions(database: database, sessions: sessions, audit: audit, logger: logger)
            .signOut(here: BrowserTokens(active: encoded), client: client)
    }
}
