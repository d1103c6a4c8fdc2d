// Administration.swift: the operator's account operations (`frontdoor user …`, `frontdoor sessions …`).
//
// Options: none of its own; the sign-up validator (email and password fields only), the password hasher and the
// session policy (what counts as a live session) come from AccountServices. Every change is audited in its own
// transaction with the client the caller gives (the command line passes "frontdoor-cli" / "local").
// An account is referred to by one of its addresses (compared normalized) or by its numeric id.
import AccountRules
import Foundation
import Logging

/// What the operator cannot do, worded for the terminal.
public enum AdministrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No account has this address or id.
    case noAccount(String)
    /// No live session's short id starts with this.
    case noSession(String)
    /// More than one live session's short id starts with this.
    case ambiguousSession(String, matches: Int)

    public var description: String {
        switch self {
        case .noAccount(let reference): "no account \(reference)"
        case .noSession(let id): "no live session \(id)"
        case .ambiguousSession(let id, let matches): "session id \(id) matches \(matches) sessions; give more of it"
        }
    }
}

/// One account as `user list` shows it.
public struct AccountSummary: Sendable, Equatable {
    public var id: Int64
    public var email: String
    /// The username the gate sends (nil only for an account an older host made, until its first lookup names it).
    public var username: String? = nil
    /// The primary address is verified.
    public var confirmed: Bool
    /// When the lock ends; nil when not locked now.
    public var lockedUntil: Date?
    public var createdAt: Date
    /// The last sign-in (`account.lastSignInAt`, kept from the audit trail's `sign_in` rows, so pruning them leaves it).
    public var lastSignIn: Date?
}

/// One account in full, as `user show` shows it.
public struct AccountDetail: Sendable, Equatable {
    public var account: AccountSummary
    /// Every address, primary first, verified or not.
    public var addresses: [EmailAddress]
    public var liveSessions: Int
    /// The newest audit rows of the account (at most 10), newest first.
    public var recentAudit: [AuditEntry]
    /// How the account signs in and proves a second factor (SignInMethods), for the operator's view.
    public var signInMethods: [SignInMethod] = []
}

/// Account operations for the operator: add, list, show, confirm, delete, set a password; sessions.
public struct Administration: Sendable {
    let database: AppDatabase
    let validator: Validator
    let hasher: PasswordHasher
    let sessions: Sessions
    let lockout: Lockout
    let audit: AuditLog
    let deletion: AccountDeletion
    let clock: any Clock
    let logger: Logger

    /// The account `reference` names: a numeric id, or one of its addresses (any case, surrounding space ignored).
    public func resolve(_ reference: String) throws -> Int64 {
        let text = reference.trimmingWhitespace()
        let found = try database.read { tx -> Int64? in
            if let id = Int64(text), try tx.accountExists(id) { return id }
            return try EmailAddress.holding(text, in: tx)?.accountId
        }
        guard let found else { throw AdministrationError.noAccount(reference) }
        return found
    }

    /// Creates an account with the sign-up rules for the email and password fields.
    ///
    /// - Throws: `AccountError.invalid` with every rule broken, or the address already taken.
    @discardableResult
    public func add(email: String, password: String, confirmed: Bool, client: ClientInfo) throws -> Int64 {
        let address = email.trimmingWhitespace()
        var errors = rules(["email", "password"]).validate(["email": address, "password": password, "password_confirmation": password])
        guard errors.isEmpty else { throw AccountError.invalid(errors) }
        let passwordHash = try hasher.hash(password)
        let created: Int64?
        do {
            created = try database.write { tx -> Int64? in
                guard try EmailAddress.holding(address, in: tx) == nil else { return nil }
                let ids = try Account.insert(address: address, passwordHash: passwordHash, verified: confirmed, language: nil,
                                             now: clock.now(), in: tx)
                try audit.record(.accountCreated, accountId: ids.account, email: address, client: client,
                                 detail: confirmed ? "by the operator, confirmed" : "by the operator", in: tx)
                return ids.account
            }
        } catch StorageError.uniqueViolation {
            created = nil   // a sign-up for the same address won the race (the unique index on the normalized address)
        }
        guard let created else {
            errors.add(FieldError(key: "taken"), to: "email", displayName: validator.field(named: "email")?.displayName ?? "Email")
            throw AccountError.invalid(errors)
        }
        logger.info("account created by the operator", metadata: ["account": "\(created)"])
        return created
    }

    /// Accounts, oldest first; `search` keeps those with an address containing it (without case).
    public func list(search: String? = nil, limit: Int = 100) throws -> [AccountSummary] {
        try database.read { tx in try tx.accountSummaries(search: search, limit: limit) }.map(current)
    }

    /// The account with its addresses, live session count and newest audit rows.
    public func show(accountId: Int64) throws -> AccountDetail {
        let bounds = sessions.liveBounds
        let methods = SignInMethods(database: database, audit: audit, clock: clock)
        let (found, addresses, liveCount, signInMethods) = try database.read { tx in
            (try tx.accountSummary(accountId), try tx.emailAddresses(of: accountId),
             try tx.countLiveSessions(of: accountId, now: bounds.now, idleSince: bounds.idleSince),
             try methods.methods(accountId: accountId, in: tx))
        }
        guard let found else { throw AdministrationError.noAccount(String(accountId)) }
        return AccountDetail(account: current(found), addresses: addresses, liveSessions: liveCount,
                             recentAudit: try audit.list(AuditFilter(accountId: accountId, limit: 10)), signInMethods: signInMethods)
    }

    /// Marks the account's unverified addresses verified (unlinking identities not proven yet: IdentityProof); returns them.
    @discardableResult
    public func confirm(accountId: Int64, client: ClientInfo) throws -> [String] {
        try database.write { tx in try markVerified(accountId: accountId, detail: "by the operator", client: client, in: tx) }
    }

    /// Marks the account's unverified addresses verified, each audited `email_confirmed` with `detail`; returns them.
    func markVerified(accountId: Int64, detail: String, client: ClientInfo, in tx: Transaction) throws -> [String] {
        let pending = try tx.markAllAddressesVerified(of: accountId, at: clock.now())
        for address in pending {
            try audit.record(.emailConfirmed, accountId: accountId, email: address, client: client, detail: detail, in: tx)
        }
        // The operator vouches for the address, not for a provider identity someone linked before it was proven.
        try IdentityProof.settle(accountId: accountId, browser: nil, reason: "address confirmed by the operator", client: client,
                                 audit: audit, in: tx)
        return pending
    }

    /// Deletes the account as its owner would (`AccountDeletion.deleteAccount`: its addresses, sessions, tokens,
    /// profile values and unsent mail go with it), but keeps its address in the trail and sends no goodbye mail;
    /// returns its primary address.
    @discardableResult
    public func delete(accountId: Int64, client: ClientInfo) throws -> String {
        let primary: String
        do {
            primary = try database.write { tx in
                try deletion.deleteAccount(accountId, client: client, detail: "by the operator", anonymize: false, in: tx)
            }
        } catch AccountError.notFound {
            throw AdministrationError.noAccount(String(accountId))
        }
        logger.notice("account deleted by the operator", metadata: ["account": "\(accountId)"])
        return primary
    }

    /// Stores a new password (the sign-up password rules apply) and ends every session of the account; returns how many.
    ///
    /// - Throws: `AccountError.invalid` when the password breaks a rule.
    @discardableResult
    public func setPassword(accountId: Int64, password: String, client: ClientInfo) throws -> Int {
        let errors = rules(["password"]).validate(["password": password, "password_confirmation": password])
        guard errors.isEmpty else { throw AccountError.invalid(errors) }
        let passwordHash = try hasher.hash(password)
        return try database.write { tx in
            guard try tx.setPasswordHash(passwordHash, of: accountId, at: clock.now()) else { throw AdministrationError.noAccount(String(accountId)) }
            let ended = try tx.deleteSessions(of: accountId, at: clock.now())
            try audit.record(.passwordChanged, accountId: accountId, email: try primaryAddress(accountId, in: tx), client: client,
                             detail: "by the operator; \(ended) session(s) ended", in: tx)
            return ended
        }
    }

    /// Live sessions, newest first: of every account, or of `accountId`.
    public func liveSessions(accountId: Int64? = nil) throws -> [SessionEntry] {
        let bounds = sessions.liveBounds
        return try database.read { tx in try tx.liveSessions(of: accountId, now: bounds.now, idleSince: bounds.idleSince) }
    }

    /// Ends the one live session whose digest, in hex, starts with `shortId` (at least 4 digits); returns its account's id.
    @discardableResult
    public func revokeSession(shortId: String, client: ClientInfo) throws -> Int64 {
        let prefix = shortId.lowercased()
        guard (4...64).contains(prefix.count), prefix.allSatisfy(\.isHexDigit) else { throw AdministrationError.noSession(shortId) }
        let bounds = sessions.liveBounds
        return try database.write { tx in
            let matches = try tx.liveSessions(hexPrefix: prefix, now: bounds.now, idleSince: bounds.idleSince)
            guard let target = matches.first else { throw AdministrationError.noSession(shortId) }
            guard matches.count == 1 else { throw AdministrationError.ambiguousSession(shortId, matches: matches.count) }
            let (digest, accountId) = target
            try sessions.revoke(digest: digest, in: tx)
            let short = SessionManagement.handle(for: digest).prefix(12)
            try audit.record(.sessionRevoked, accountId: accountId, email: try primaryAddress(accountId, in: tx), client: client,
                             detail: "session \(short) by the operator", in: tx)
            return accountId
        }
    }

    /// Ends every session of the account; returns how many were live.
    @discardableResult
    public func revokeSessions(accountId: Int64, client: ClientInfo) throws -> Int {
        let live = try liveSessions(accountId: accountId).count
        try database.write { tx in
            try tx.deleteSessions(of: accountId, at: clock.now())
            try audit.record(.sessionRevoked, accountId: accountId, email: try primaryAddress(accountId, in: tx), client: client,
                             detail: "\(live) session(s) by the operator", in: tx)
        }
        return live
    }

    // MARK: - Helpers

    /// The validator's fields named `names` (the operator's forms have no confirmation or extra fields).
    private func rules(_ names: [String]) -> Validator { Validator(validator.fields.filter { names.contains($0.name) }) }

    private func primaryAddress(_ accountId: Int64, in tx: Transaction) throws -> String {
        try EmailAddress.primaryAddress(of: accountId, in: tx) ?? ""
    }

    /// `summary` as it is now: a lock that has ended is no lock.
    private func current(_ summary: AccountSummary) -> AccountSummary {
        var summary = summary
        summary.lockedUntil = summary.lockedUntil.flatMap { $0 > clock.now() ? $0 : nil }
        return summary
    }
}
