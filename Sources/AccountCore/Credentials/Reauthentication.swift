// Reauthentication.swift: asks for the password again before sensitive changes, when the last entry is too old.
//
// Options (SessionPolicy, config key `session.reauthenticate_after`): how long after the password was
// entered (at sign-in, or here) a session may change the password, the addresses, or delete the account.
// A wrong password here counts towards the account's lock like a failed sign-in (a stolen session must not become a
// way to guess the password), and a locked account is refused even with the right password. An account without a
// password (made through a provider) gets the wrong-password answer here, after the same hash work; it re-authenticates
// with a linked provider instead (SocialSignIn, purpose reauthenticate, sets `authenticatedAt` the same way). Which of
// the two an account uses, and the record of a re-authentication, are SignInMethods'.
import AccountRules
import Foundation
import Logging

/// The recency of a session's password entry, and entering it again.
public struct Reauthentication: Sendable {
    let database: AppDatabase
    let hasher: PasswordHasher
    let lockout: Lockout
    let audit: AuditLog
    let policy: SessionPolicy
    let clock: any Clock
    let logger: Logger

    var methods: SignInMethods { SignInMethods(database: database, audit: audit, clock: clock) }

    /// True when the password was entered for the session `digest` within `session.reauthenticate_after`.
    public func isRecent(_ digest: Data) throws -> Bool {
        try isRecent(digest, within: policy.reauthenticateAfter)
    }

    /// True when the password was entered for the session `digest` less than `seconds` ago (the admin pages' own,
    /// shorter bound: `admin.reauthenticate_after`).
    public func isRecent(_ digest: Data, within seconds: TimeInterval) throws -> Bool {
        let at = try database.read { tx in try tx.sessionAuthenticatedAt(digest: digest) }
        guard let at else { return false }
        return clock.now().timeIntervalSince1970 - at < seconds
    }

    /// For the JSON API's sensitive changes (apps send no password unless asked): `password`, checked and recorded as
    /// `confirm` does, when given; otherwise the session must have signed in within `session.reauthenticate_after`.
    ///
    /// - Throws: `AccountError.reauthenticationRequired` without a password on a stale session; as `confirm` otherwise.
    public func confirmOrRequireRecent(session digest: Data, password: String, client: ClientInfo) throws {
        guard password.isEmpty else { return try confirm(session: digest, password: password, client: client) }
        guard try isRecent(digest) else { throw AccountError.reauthenticationRequired }
    }

    /// The session's account when it has no password (made through a provider): the forms that ask the current
    /// password ask for a recent sign-in instead. Nil when it has one, or the session is gone.
    func passwordlessAccount(session digest: Data) throws -> Int64? {
        guard case .recentSignIn(let accountId) = try methods.reauthenticationRoute(session: digest) else { return nil }
        return accountId
    }

    /// The session's account, or nil when the session is gone.
    func sessionAccount(_ digest: Data) throws -> Int64? {
        try database.read { tx in try tx.sessionAccountId(digest: digest) }
    }

    /// Checks `password` for the session's account and, when right, records the entry for the session.
    ///
    /// - Throws: `AccountError.invalid` (field `password`, key `wrong_password`) for a wrong password or a locked account;
    ///   `AccountError.notFound` when the session is gone.
    public func confirm(session digest: Data, password: String, client: ClientInfo) throws {
        let accountId = try checkPassword(session: digest, password: password, client: client)
        try database.write { tx in
            try methods.recordReauthentication(session: digest, accountId: accountId, with: .password, client: client, in: tx)
        }
    }

    /// The session's account when `password` is its password and it is not locked; else the field error (and the failure
    /// is counted). Used by `confirm`, and by the forms that ask the current password (password change, deletion).
    func checkPassword(session digest: Data, password: String, client: ClientInfo, field: String = "password",
                       displayName: String = "Password") throws -> Int64 {
        guard let route = try methods.reauthenticationRoute(session: digest) else { throw AccountError.notFound }
        let accountId = route.accountId
        let matches: Bool
        switch route {
        case .password(_, let hash): matches = password.utf8.count <= 4096 && hasher.verify(password, against: hash)
        case .recentSignIn: matches = password.utf8.count <= 4096 && hasher.verifyAgainstDummy(password)
        }
        let locked = try database.read { tx in try lockout.isLocked(accountId: accountId, in: tx) }
        guard matches, !locked else {
            logger.info("password check failed", metadata: ["account": "\(accountId)", "locked": "\(locked)"])
            let outcome = try database.write { tx -> Lockout.FailureOutcome in
                let email = try EmailAddress.primaryAddress(of: accountId, in: tx) ?? ""
                if matches {
                    try audit.record(.signInFailed, accountId: accountId, email: email, client: client, detail: "re-authentication: account locked", in: tx)
                    return Lockout.FailureOutcome()
                }
                return try lockout.recordFailure(accountId: accountId, email: email, client: client, reason: "re-authentication: wrong password", in: tx)
            }
            lockout.log(outcome, client: client)
            var errors = ValidationErrors()
            errors.add(FieldError(key: "wrong_password"), to: field, displayName: displayName)
            throw AccountError.invalid(errors)
        }
        return accountId
    }
}
