// EmailAddresses.swift: an account's addresses: list, add (verified by a mailed link), resend, remove, make primary.
//
// Options: `confirmation.lifetime` (how long a verification link works; an unverified address another account added
// longer ago than that no longer blocks the address), `mail.throttle` (resends).
// An address belongs to one account at most (a unique index): one verified by, or waiting for, another account gets a
// neutral refusal. The primary address is never removed, only a verified address becomes primary (triggers back
// both), and the last verified address stays. Changing the primary address tells the old one.
import AccountRules
import Foundation
import GRDB
import Logging

/// Looks up and changes the addresses an account holds.
public struct EmailAddresses: Sendable {
    let database: AppDatabase
    let confirmation: Confirmation
    let tokens: AccountTokens
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let logger: Logger

    /// Every address of the account, primary first, then in the order they were added.
    public func all(of accountId: Int64) throws -> [EmailAddress] {
        try database.writer.read { db in
            try EmailAddress.fetchAll(db, sql: "SELECT * FROM emailAddress WHERE accountId = ? ORDER BY isPrimary DESC, id",
                                      arguments: [accountId])
        }
    }

    /// The account's verified address matching `address` (compared normalized), or nil when it is not theirs or not verified.
    public func verified(_ address: String, of accountId: Int64) throws -> EmailAddress? {
        try database.writer.read { db in
            try EmailAddress.fetchOne(db, sql: """
                SELECT * FROM emailAddress WHERE accountId = ? AND normalizedAddress = ? AND verifiedAt IS NOT NULL
                """, arguments: [accountId, EmailFormat.normalized(address)])
        }
    }

    // TODO(helper A): add, resend, remove, makePrimary (see the contract).
}
