// Lockout.swift: stops password guessing: failed sign-ins lock the account, and block the client address.
//
// Options (LockoutPolicy, config section `lockout`):
//   max_failures           failures of one account within `window` that lock it (0: never)
//   window, duration       how far back failures count, how long the lock lasts
//   address_max_failures   failures from one client address within `address_window` that block it (0: never);
//                          an IPv6 client counts by its network (`ClientInfo.addressGroup`, `client.ipv6_prefix`)
//   address_window, address_duration   the same for an address
// Defaults: LockoutPolicy (see the key table).
// A locked account or blocked address gets the same answer as a wrong password, even with the right one. An attempt
// from an address already blocked writes nothing per attempt (Lockout+Blocked).
// Locks expire by themselves; the owner is mailed a reset link, and a password reset lifts the lock.
// Reminders and confirmation resends are not sent while the account is locked or the address blocked.
import Foundation
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
    /// Attempts from blocked addresses left unrecorded (Lockout+Blocked), shared by every copy of this value.
    let blockedAttempts = BlockedAttempts()

    /// What recording a failure locked or blocked, for the log written after the transaction.
    struct FailureOutcome: Sendable {
        /// The account this failure locked.
        var lockedAccount: Int64?
        /// True when this failure blocked the client's address group.
        var blockedAddress = false
    }

    /// True while the account's lock lasts.
    func isLocked(accountId: Int64, in tx: Transaction) throws -> Bool {
        let until = try tx.lockedUntil(accountId: accountId)
        return until.map { $0 > clock.now().timeIntervalSince1970 } ?? false
    }

    /// True while `client`'s address (its `addressGroup`: an IPv6 client's whole /64) is blocked.
    func isBlocked(_ client: ClientInfo, in tx: Transaction) throws -> Bool {
        guard !client.addressGroup.isEmpty else { return false }
        let until = try tx.addressBlockedUntil(client.addressGroup)
        return until.map { $0 > clock.now().timeIntervalSince1970 } ?? false
    }

    /// Whether mail on behalf of this account may go out now (not for a locked account or a blocked address).
    func allowsMail(accountId: Int64, client: ClientInfo, in tx: Transaction) throws -> Bool {
        try !isLocked(accountId: accountId, in: tx) && !isBlocked(client, in: tx)
    }

    /// Records a failed password check (counted towards locks unless `counts` is false) and throws the one sign-in
    /// failure, `AccountError.invalidCredentials`: sign-in and linking to an existing account (SocialSignIn) share it.
    /// Its log line names the client address, which config/fail2ban/ reads.
    func refuse(accountId: Int64?, email: String, client: ClientInfo, reason: String, counts: Bool = true) throws -> Never {
        logger.info("sign-in failed", metadata: ["reason": "\(reason)", "account": "\(accountId.map(String.init) ?? "-")",
                                                 "client": "\(client.remoteAddress)"])
        let outcome = try database.write { tx -> FailureOutcome in
            if counts {
                return try recordFailure(accountId: accountId, email: email, client: client, reason: reason, in: tx)
            }
            try audit.record(.signInFailed, accountId: accountId, email: email, client: client, detail: reason, in: tx)
            return FailureOutcome()
        }
        log(outcome, client: client)
        throw AccountError.invalidCredentials
    }

    /// Records a failed sign-in (`reason` goes to the audit trail only); locks the account and blocks the
    /// address when their limits are reached. Count-then-lock: writers for the same account (and the same address
    /// group) take turns (`serialize(on:)`: SQLite's single writer, PostgreSQL's advisory lock), so concurrent failures
    /// cannot all count below the limit; the lock's conditional UPDATE lets only one transaction lock.
    @discardableResult
    func recordFailure(accountId: Int64?, email: String, client: ClientInfo, reason: String, in tx: Transaction) throws -> FailureOutcome {
        let now = clock.now().timeIntervalSince1970
        var outcome = FailureOutcome()
        if let accountId { try tx.serialize(on: "lockout.account.\(accountId)") }
        if !client.addressGroup.isEmpty { try tx.serialize(on: "lockout.address.\(client.addressGroup)") }
        try tx.recordSignInFailure(accountId: accountId, addressGroup: client.addressGroup, at: now)
        if let accountId, policy.maxFailures > 0, try !isLocked(accountId: accountId, in: tx) {
            let failures = try tx.countRecentFailures(accountId: accountId, since: now - policy.window)
            if failures >= policy.maxFailures, try lock(accountId: accountId, until: now + policy.duration, client: client, in: tx) {
                outcome.lockedAccount = accountId
            }
        }
        if policy.addressMaxFailures > 0, !client.addressGroup.isEmpty, try !isBlocked(client, in: tx) {
            let failures = try tx.countRecentFailures(addressGroup: client.addressGroup, since: now - policy.addressWindow)
            if failures >= policy.addressMaxFailures {
                try tx.blockAddress(client.addressGroup, until: now + policy.addressDuration)
                try audit.record(.addressBlocked, accountId: nil, email: nil, client: client,
                                 detail: "\(failures) failures from \(client.addressGroup) in \(Int(policy.addressWindow))s", in: tx)
                outcome.blockedAddress = true
            }
        }
        // The audit row last, as in every sign-in: one lock order everywhere.
        try audit.record(.signInFailed, accountId: accountId, email: email, client: client, detail: reason, in: tx)
        return outcome
    }

    /// Logs what `recordFailure` locked or blocked (after its transaction committed).
    func log(_ outcome: FailureOutcome, client: ClientInfo) {
        if let account = outcome.lockedAccount { logger.notice("account locked", metadata: ["account": "\(account)"]) }
        if outcome.blockedAddress { logger.notice("client address blocked", metadata: ["address": "\(client.addressGroup)"]) }
    }

    /// A successful sign-in forgets the account's failures.
    func recordSuccess(accountId: Int64, in tx: Transaction) throws {
        try tx.forgetSignInFailures(accountId: accountId)
    }

    /// Locks the account until `until` unless it is locked already, and then mails its owner a reset link (which also
    /// lifts the lock); true when this call locked it. One lock, one audit row and one mail: the conditional UPDATE's
    /// changed-row count decides.
    func lock(accountId: Int64, until: Double, client: ClientInfo, detail: String = "too many failed sign-ins",
              in tx: Transaction) throws -> Bool {
        guard try tx.lockAccountIfUnlocked(accountId: accountId, until: until, now: clock.now().timeIntervalSince1970) else { return false }
        let primary = try primaryAddress(accountId, in: tx)
        try audit.record(.lockout, accountId: accountId, email: primary, client: client, detail: detail, in: tx)
        guard let primary else { return true }
        let token = try tokens.issue(.reset, accountId: accountId, emailAddressId: nil, lifetime: resetLifetime, in: tx)
        try mail.enqueue(.accountLocked(token: token.encoded), to: primary, in: tx)
        return true
    }

    /// Lifts the account's lock and forgets its failures (a password reset, or the operator).
    func unlock(accountId: Int64, in tx: Transaction) throws {
        try tx.clearLock(accountId: accountId)
        try tx.forgetSignInFailures(accountId: accountId)
    }

    /// Locks the account for `duration` (default: the policy's), as the operator asks, and ends its sessions (cookies
    /// and API tokens), so the gate refuses it on every host at once; no mail. Failed sign-ins lock without ending
    /// sessions: anyone can make those, and they must not sign the owner out.
    public func lock(accountId: Int64, for duration: TimeInterval? = nil, client: ClientInfo) throws {
        let until = clock.now().timeIntervalSince1970 + (duration ?? policy.duration)
        try database.write { tx in
            try tx.setLockedUntil(until, accountId: accountId)
            try tx.deleteSessions(of: accountId, at: clock.now())
            try audit.record(.lockout, accountId: accountId, email: try primaryAddress(accountId, in: tx), client: client,
                             detail: "by the operator", in: tx)
        }
    }

    /// Lifts the lock, as the operator asks.
    public func unlock(accountId: Int64, client: ClientInfo) throws {
        try database.write { tx in
            try unlock(accountId: accountId, in: tx)
            try audit.record(.unlock, accountId: accountId, email: try primaryAddress(accountId, in: tx), client: client,
                             detail: "by the operator", in: tx)
        }
    }

    /// When the account's lock ends, or nil when it is not locked.
    public func lockedUntil(accountId: Int64) throws -> Date? {
        let now = clock.now().timeIntervalSince1970
        return try database.read { tx in
            guard let until = try tx.lockedUntil(accountId: accountId), until > now else { return nil }
            return Date(timeIntervalSince1970: until)
        }
    }

    private func primaryAddress(_ accountId: Int64, in tx: Transaction) throws -> String? {
        try EmailAddress.primaryAddress(of: accountId, in: tx)
    }
}
