// Administration.swift: the operator's account operations (`frontdoor user …`, `frontdoor sessions …`).
//
// Options: none of its own; the sign-up validator (email and password fields only), the password hasher and the
// session policy (what counts as a live session) come from AccountServices. Every change is audited in its own
// transaction with the client the caller gives (the command line passes "frontdoor-cli" / "local").
// An account is referred to by one of its addresses (compared normalized) or by its numeric id.
import AccountRules
import Foundation
import GRDB
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
}

/// A live session as the operator sees it (never its token).
public struct SessionSummary: Sendable, Equatable {
    /// The first 12 hex digits of the stored digest.
    public var shortId: String
    public var accountId: Int64
    public var email: String
    public var createdAt: Date
    public var lastSeenAt: Date
    public var expiresAt: Date
    public var rememberMe: Bool
    public var userAgent: String
    public var remoteAddress: String
    /// A browser's session or a native app's API token.
    public var kind: SessionKind = .browser
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
        let found = try database.writer.read { db -> Int64? in
            if let id = Int64(text), try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE id = ?", arguments: [id]) == true { return id }
            return try Int64.fetchOne(db, sql: "SELECT accountId FROM emailAddress WHERE normalizedAddress = ?",
                                      arguments: [EmailFormat.normalized(text)])
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
            created = try database.writer.write { db -> Int64? in
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM emailAddress WHERE normalizedAddress = ?",
                                        arguments: [EmailFormat.normalized(address)]) != true else { return nil }
                let ids = try Account.insert(address: address, passwordHash: passwordHash, verified: confirmed, language: nil,
                                                 now: clock.now(), in: db)
                try audit.record(.accountCreated, accountId: ids.account, email: address, client: client,
                                 detail: confirmed ? "by the operator, confirmed" : "by the operator", in: Transaction(sqlite: db))
                return ids.account
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            created = nil   // a sign-up for the same address won the race
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
        let pattern = search.map { "%" + EmailFormat.normalized($0).replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%" }
        return try database.writer.read { db in
            try Row.fetchAll(db, sql: summarySQL + """
                WHERE ? IS NULL OR EXISTS (SELECT 1 FROM emailAddress s WHERE s.accountId = a.id AND s.normalizedAddress LIKE ? ESCAPE '\\')
                ORDER BY a.id LIMIT ?
                """, arguments: [pattern, pattern, max(0, limit)]).map(summary)
        }
    }

    /// The account with its addresses, live session count and newest audit rows.
    public func show(accountId: Int64) throws -> AccountDetail {
        let (row, addresses, liveCount) = try database.writer.read { db in
            (try Row.fetchOne(db, sql: summarySQL + "WHERE a.id = ?", arguments: [accountId]),
             try EmailAddress.fetchAll(db, sql: "SELECT * FROM emailAddress WHERE accountId = ? ORDER BY isPrimary DESC, id", arguments: [accountId]),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session WHERE accountId = ? AND \(live())",
                              arguments: StatementArguments([accountId] + liveBounds)) ?? 0)
        }
        guard let row else { throw AdministrationError.noAccount(String(accountId)) }
        return AccountDetail(account: summary(row), addresses: addresses, liveSessions: liveCount,
                             recentAudit: try audit.list(AuditFilter(accountId: accountId, limit: 10)))
    }

    /// Marks the account's unverified addresses verified; returns them.
    @discardableResult
    public func confirm(accountId: Int64, client: ClientInfo) throws -> [String] {
        try database.writer.write { db in
            let pending = try String.fetchAll(db, sql: "SELECT address FROM emailAddress WHERE accountId = ? AND verifiedAt IS NULL ORDER BY id",
                                              arguments: [accountId])
            try db.execute(sql: "UPDATE emailAddress SET verifiedAt = ? WHERE accountId = ? AND verifiedAt IS NULL",
                           arguments: [clock.now().timeIntervalSince1970, accountId])
            for address in pending {
                try audit.record(.emailConfirmed, accountId: accountId, email: address, client: client, detail: "by the operator", in: Transaction(sqlite: db))
            }
            return pending
        }
    }

    /// Deletes the account as its owner would (`AccountDeletion.deleteAccount`: its addresses, sessions, tokens,
    /// profile values and unsent mail go with it), but keeps its address in the trail and sends no goodbye mail;
    /// returns its primary address.
    @discardableResult
    public func delete(accountId: Int64, client: ClientInfo) throws -> String {
        let primary: String
        do {
            primary = try database.writer.write { db in
                try deletion.deleteAccount(accountId, client: client, detail: "by the operator", anonymize: false, in: db)
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
        return try database.writer.write { db in
            try db.execute(sql: "UPDATE account SET passwordHash = ?, updatedAt = ? WHERE id = ?",
                           arguments: [passwordHash, clock.now().timeIntervalSince1970, accountId])
            guard db.changesCount == 1 else { throw AdministrationError.noAccount(String(accountId)) }
            try db.execute(sql: "DELETE FROM session WHERE accountId = ?", arguments: [accountId])
            let ended = db.changesCount
            try audit.record(.passwordChanged, accountId: accountId, email: try primaryAddress(accountId, in: db), client: client,
                             detail: "by the operator; \(ended) session(s) ended", in: Transaction(sqlite: db))
            return ended
        }
    }

    /// Live sessions, newest first: of every account, or of `accountId`.
    public func liveSessions(accountId: Int64? = nil) throws -> [SessionSummary] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT lower(hex(s.digest)), s.accountId, coalesce(e.address, ''), s.createdAt, s.lastSeenAt, s.expiresAt,
                       s.rememberMe, s.userAgent, s.remoteAddress, s.kind
                FROM session s LEFT JOIN emailAddress e ON e.accountId = s.accountId AND e.isPrimary
                WHERE (?1 IS NULL OR s.accountId = ?1) AND \(live("s.", from: 2))
                ORDER BY s.createdAt DESC, s.digest
                """, arguments: StatementArguments([accountId] + liveBounds)).map { row in
                SessionSummary(shortId: String((row[0] as String).prefix(12)), accountId: row[1], email: row[2],
                               createdAt: Date(timeIntervalSince1970: row[3]), lastSeenAt: Date(timeIntervalSince1970: row[4]),
                               expiresAt: Date(timeIntervalSince1970: row[5]), rememberMe: row[6], userAgent: row[7], remoteAddress: row[8],
                               kind: SessionKind(rawValue: row[9]) ?? .browser)
            }
        }
    }

    /// Ends the one live session whose digest, in hex, starts with `shortId` (at least 4 digits); returns its account's id.
    @discardableResult
    public func revokeSession(shortId: String, client: ClientInfo) throws -> Int64 {
        let prefix = shortId.lowercased()
        guard (4...64).contains(prefix.count), prefix.allSatisfy(\.isHexDigit) else { throw AdministrationError.noSession(shortId) }
        return try database.writer.write { db in
            let matches = try Row.fetchAll(db, sql: "SELECT digest, accountId FROM session WHERE substr(lower(hex(digest)), 1, ?) = ? AND \(live())",
                                           arguments: StatementArguments([prefix.count, prefix] + liveBounds))
            guard let target = matches.first else { throw AdministrationError.noSession(shortId) }
            guard matches.count == 1 else { throw AdministrationError.ambiguousSession(shortId, matches: matches.count) }
            let digest: Data = target[0], accountId: Int64 = target[1]
            try sessions.revoke(digest: digest, in: Transaction(sqlite: db))
            let short = digest.prefix(6).map { String(format: "%02x", $0) }.joined()
            try audit.record(.sessionRevoked, accountId: accountId, email: try primaryAddress(accountId, in: db), client: client,
                             detail: "session \(short) by the operator", in: Transaction(sqlite: db))
            return accountId
        }
    }

    /// Ends every session of the account; returns how many were live.
    @discardableResult
    public func revokeSessions(accountId: Int64, client: ClientInfo) throws -> Int {
        let live = try liveSessions(accountId: accountId).count
        try database.writer.write { db in
            try db.execute(sql: "DELETE FROM session WHERE accountId = ?", arguments: [accountId])
            try audit.record(.sessionRevoked, accountId: accountId, email: try primaryAddress(accountId, in: db), client: client,
                             detail: "\(live) session(s) by the operator", in: Transaction(sqlite: db))
        }
        return live
    }

    // MARK: - Helpers

    /// The validator's fields named `names` (the operator's forms have no confirmation or extra fields).
    private func rules(_ names: [String]) -> Validator { Validator(validator.fields.filter { names.contains($0.name) }) }

    private func primaryAddress(_ accountId: Int64, in db: Database) throws -> String {
        try EmailAddress.primaryAddress(of: accountId, in: db) ?? ""
    }

    private var summarySQL: String {
        """
        SELECT a.id, coalesce(e.address, ''), e.verifiedAt IS NOT NULL, a.lockedUntil, a.createdAt,
               a.lastSignInAt
        FROM account a LEFT JOIN emailAddress e ON e.accountId = a.id AND e.isPrimary

        """
    }

    private func summary(_ row: Row) -> AccountSummary {
        let locked = (row[3] as Double?).map(Date.init(timeIntervalSince1970:)).flatMap { $0 > clock.now() ? $0 : nil }
        return AccountSummary(id: row[0], email: row[1], confirmed: row[2], lockedUntil: locked,
                              createdAt: Date(timeIntervalSince1970: row[4]), lastSignIn: (row[5] as Double?).map(Date.init(timeIntervalSince1970:)))
    }

    /// A live session: before its absolute expiry and, unless remembered, seen within the idle timeout (as `Sessions.isLive`).
    /// Its two values are `liveBounds`; `from` numbers them when the statement uses numbered parameters.
    private func live(_ alias: String = "", from index: Int? = nil) -> String {
        let (now, seen) = index.map { ("?\($0)", "?\($0 + 1)") } ?? ("?", "?")
        return "\(alias)expiresAt > \(now) AND (\(alias)rememberMe OR \(alias)lastSeenAt > \(seen))"
    }

    private var liveBounds: [(any DatabaseValueConvertible)?] {
        let now = clock.now().timeIntervalSince1970
        return [now, now - sessions.policy.idleTimeout]
    }
}
