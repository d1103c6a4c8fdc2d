// Lockout.swift: stops password guessing: failed sign-ins lock the account, and block the client address.
//
// Options (LockoutPolicy, config section `lockout`):
//   max_failures           failures of one account within `window` that lock it (default 5; 0: never)
//   window, duration       10 min, 15 min
//   address_max_failures   failures from one client address within `address_window` that block it (default 50; 0: never);
//                          an IPv6 client counts by its network (`ClientInfo.addressGroup`, `client.ipv6_prefix`: /64)
//   address_window, address_duration   10 min, 15 min
// A locked account or blocked address gets the same answer as a wrong password, even with the right one.
// Locks expire by themselves; the owner is mailed a reset link, and a password reset lifts the lock.
// Reminders and confirmation resends are not sent while the account is locked or the address blocked.
import Foundation
import GRDB
import Logging

/// Counts failed sign-ins and decides locks.
public struct Lockout: Sendable {
    let database: AppDatabase
    let policy: LockoutPolicy
    let tokens: AccountTokens
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let logger: Logger
    /// Lifetime of the reset link in the lock mail.
    let resetLifetime: TimeInterval

    /// True while the account's lock lasts.
    func isLocked(accountId: Int64, in db: Database) throws -> Bool {
        let until = try Double.fetchOne(db.cachedStatement(sql: "SELECT lockedUntil FROM account WHERE id = ?"), arguments: [accountId])
        return until.map { $0 > clock.now().timeIntervalSince1970 } ?? false
    }

    /// True while `client`'s address (its `addressGroup`: an IPv6 client's whole /64) is blocked.
    func isBlocked(_ client: ClientInfo, in db: Database) throws -> Bool {
        guard !client.addressGroup.isEmpty else { return false }
        let until = try Double.fetchOne(db.cachedStatement(sql: "SELECT blockedUntil FROM addressBlock WHERE remoteAddress = ?"),
                                        arguments: [client.addressGroup])
        return until.map { $0 > clock.now().timeIntervalSince1970 } ?? false
    }

    /// Whether mail on behalf of this account may go out now (not for a locked account or a blocked address).
    func allowsMail(accountId: Int64, client: ClientInfo, in db: Database) throws -> Bool {
        try !isLocked(accountId: accountId, in: db) && !isBlocked(client, in: db)
    }

    /// Records a failed password check (counted towards locks unless `counts` is false) and throws the one sign-in
    /// failure, `AccountError.invalidCredentials`: sign-in and linking to an existing account (SocialSignIn) share it.
    func refuse(accountId: Int64?, email: String, client: ClientInfo, reason: String, counts: Bool = true) throws -> Never {
        logger.info("sign-in failed", metadata: ["reason": "\(reason)", "account": "\(accountId.map(String.init) ?? "-")"])
        try database.writer.write { db in
            if counts {
                try recordFailure(accountId: accountId, email: email, client: client, reason: reason, in: db)
            } else {
                try audit.record(.signInFailed, accountId: accountId, email: email, client: client, detail: reason, in: db)
            }
        }
        throw AccountError.invalidCredentials
    }

    /// Records a failed sign-in (`reason` goes to the audit trail only); locks the account and blocks the
    /// address when their limits are reached.
    func recordFailure(accountId: Int64?, email: String, client: ClientInfo, reason: String, in db: Database) throws {
        let now = clock.now().timeIntervalSince1970
        try db.execute(sql: "INSERT INTO signInFailure (accountId, remoteAddress, createdAt) VALUES (?, ?, ?)",
                       arguments: [accountId, client.addressGroup, now])
        try audit.record(.signInFailed, accountId: accountId, email: email, client: client, detail: reason, in: db)
        if let accountId, policy.maxFailures > 0, try !isLocked(accountId: accountId, in: db) {
            let failures = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM signInFailure WHERE accountId = ? AND createdAt > ?",
                                            arguments: [accountId, now - policy.window]) ?? 0
            if failures >= policy.maxFailures { try lock(accountId: accountId, until: now + policy.duration, client: client, in: db) }
        }
        if policy.addressMaxFailures > 0, !client.addressGroup.isEmpty, try !isBlocked(client, in: db) {
            let failures = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM signInFailure WHERE remoteAddress = ? AND createdAt > ?",
                                            arguments: [client.addressGroup, now - policy.addressWindow]) ?? 0
            if failures >= policy.addressMaxFailures {
                try db.execute(sql: "INSERT OR REPLACE INTO addressBlock (remoteAddress, blockedUntil) VALUES (?, ?)",
                               arguments: [client.addressGroup, now + policy.addressDuration])
                try audit.record(.addressBlocked, accountId: nil, email: nil, client: client,
                                 detail: "\(failures) failures from \(client.addressGroup) in \(Int(policy.addressWindow))s", in: db)
                logger.notice("client address blocked", metadata: ["address": "\(client.addressGroup)"])
            }
        }
        try purge(before: now - max(policy.window, policy.addressWindow), in: db)
    }

    /// A successful sign-in forgets the account's failures.
    func recordSuccess(accountId: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM signInFailure WHERE accountId = ?", arguments: [accountId])
    }

    /// Locks the account until `until` and mails its owner a reset link (which also lifts the lock).
    func lock(accountId: Int64, until: Double, client: ClientInfo, detail: String = "too many failed sign-ins", in db: Database) throws {
        try db.execute(sql: "UPDATE account SET lockedUntil = ? WHERE id = ?", arguments: [until, accountId])
        let primary = try primaryAddress(accountId, in: db)
        try audit.record(.lockout, accountId: accountId, email: primary, client: client, detail: detail, in: db)
        logger.notice("account locked", metadata: ["account": "\(accountId)"])
        guard let primary else { return }
        let token = try tokens.issue(.reset, accountId: accountId, emailAddressId: nil, lifetime: resetLifetime, in: db)
        try mail.enqueue(.accountLocked(token: token.encoded), to: primary, in: db)
    }

    /// Lifts the account's lock and forgets its failures (a password reset, or the operator).
    func unlock(accountId: Int64, in db: Database) throws {
        try db.execute(sql: "UPDATE account SET lockedUntil = NULL WHERE id = ?", arguments: [accountId])
        try db.execute(sql: "DELETE FROM signInFailure WHERE accountId = ?", arguments: [accountId])
    }

    /// Locks the account for `duration` (default: the policy's), as the operator asks; no mail.
    public func lock(accountId: Int64, for duration: TimeInterval? = nil, client: ClientInfo) throws {
        try database.writer.write { db in
            let until = clock.now().timeIntervalSince1970 + (duration ?? policy.duration)
            try db.execute(sql: "UPDATE account SET lockedUntil = ? WHERE id = ?", arguments: [until, accountId])
            try audit.record(.lockout, accountId: accountId, email: try primaryAddress(accountId, in: db), client: client,
                             detail: "by the operator", in: db)
        }
    }

    /// Lifts the lock, as the operator asks.
    public func unlock(accountId: Int64, client: ClientInfo) throws {
        try database.writer.write { db in
            try unlock(accountId: accountId, in: db)
            try audit.record(.unlock, accountId: accountId, email: try primaryAddress(accountId, in: db), client: client,
                             detail: "by the operator", in: db)
        }
    }

    /// When the account's lock ends, or nil when it is not locked.
    public func lockedUntil(accountId: Int64) throws -> Date? {
        try database.writer.read { db in
            guard let until = try Double.fetchOne(db, sql: "SELECT lockedUntil FROM account WHERE id = ?", arguments: [accountId]),
                  until > clock.now().timeIntervalSince1970 else { return nil }
            return Date(timeIntervalSince1970: until)
        }
    }

    private func primaryAddress(_ accountId: Int64, in db: Database) throws -> String? {
        try EmailAddress.primaryAddress(of: accountId, in: Transaction(sqlite: db))
    }

    /// Failures older than every window no longer count.
    private func purge(before cutoff: Double, in db: Database) throws {
        try db.execute(sql: "DELETE FROM signInFailure WHERE createdAt <= ?", arguments: [cutoff])
        try db.execute(sql: "DELETE FROM addressBlock WHERE blockedUntil <= ?", arguments: [clock.now().timeIntervalSince1970])
    }
}
