// EmailAddresses.swift: reading an account's addresses (which may be certified, shown, used as sign-in names).
// No options. Adding, removing and choosing the primary address come with the self-service issue.
import AccountRules
import Foundation
import GRDB

/// Looks up the addresses an account holds.
public struct EmailAddresses: Sendable {
    public let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

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
}
