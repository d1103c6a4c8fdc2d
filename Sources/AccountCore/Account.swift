// Account.swift: the `account` and `emailAddress` records (dates stored as seconds since 1970, like every raw query).
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

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
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
