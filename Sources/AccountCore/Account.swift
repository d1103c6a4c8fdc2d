// Account.swift: the `account` and `emailAddress` records (dates stored as seconds since 1970, like every raw query).
import AccountRules
import Foundation
import GRDB

/// A person's account: the password hash and timestamps. Addresses live in `emailAddress`.
public struct Account: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "account"
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }

    public var id: Int64?
    public var passwordHash: String
    public var createdAt: Date
    public var updatedAt: Date
    /// The language pages and mail use for this account; nil: the browser's, else the site's default.
    public var language: String?

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension Account {
    /// Inserts a new account with `address` as its primary address (verified now when `verified`) and `language` as its
    /// preference, in the caller's transaction; returns the account's and the address's ids. Sign-up, invitations and
    /// `frontdoor user add` use it.
    static func insert(address: String, passwordHash: String, verified: Bool, language: String?, now: Date,
                       in db: Database) throws -> (account: Int64, address: Int64) {
        var account = Account(id: nil, passwordHash: passwordHash, createdAt: now, updatedAt: now, language: language)
        try account.insert(db)
        var email = EmailAddress(id: nil, accountId: account.id!, address: address, normalizedAddress: EmailFormat.normalized(address),
                                 isPrimary: true, verifiedAt: verified ? now : nil, createdAt: now)
        try email.insert(db)
        return (account.id!, email.id!)
    }
}

extension EmailAddress {
    /// The address row holding `address` (any account, verified or not), compared normalized.
    static func holding(_ address: String, in db: Database) throws -> EmailAddress? {
        try EmailAddress.fetchOne(db, sql: "SELECT * FROM emailAddress WHERE normalizedAddress = ?", arguments: [EmailFormat.normalized(address)])
    }

    /// The address as its account holds it (any account, verified or not) when `address` is held, compared normalized.
    static func heldAddress(_ address: String, in db: Database) throws -> String? {
        try holding(address, in: db)?.address
    }

    /// The account's primary address as entered, or nil when the account is gone.
    static func primaryAddress(of accountId: Int64, in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT address FROM emailAddress WHERE accountId = ? AND isPrimary", arguments: [accountId])
    }
}

/// One email address of an account, stored as entered and compared by `normalizedAddress`.
public struct EmailAddress: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "emailAddress"
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }

    public var id: Int64?
    public var accountId: Int64
    public var address: String
    public var normalizedAddress: String
    public var isPrimary: Bool
    public var verifiedAt: Date?
    public var createdAt: Date

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
