// SigningKeys.swift: the server's private signing keys (the BrowserID root key), kept in the database.
// Options: purpose (one current key per purpose, e.g. "browserid"); the clock dates creation and retirement.
// Keys are opaque text here (PEM and public JSON made by the caller): AccountCore knows no key formats.
// At most one key per purpose is current (a unique partial index); rotating retires it in the same transaction.
import Foundation
import GRDB

/// One stored key: its private part stays in the database, its public part is published.
public struct StoredSigningKey: Sendable, Equatable {
    public var id: Int64
    public var privateKey: String
    public var publicKey: String
    public var createdAt: Date
    /// When a newer key replaced it; nil for the current key.
    public var retiredAt: Date?
}

/// Reads, creates and rotates the signing keys of one purpose.
///
/// ```swift
/// let keys = SigningKeys(database: db, purpose: "browserid", clock: SystemClock())
/// let current = try keys.current() ?? keys.addFirst(privateKey: pem, publicKey: json)
/// ```
public struct SigningKeys: Sendable {
    public let database: AppDatabase
    public let purpose: String
    public let clock: any Clock

    public init(database: AppDatabase, purpose: String, clock: any Clock) {
        self.database = database
        self.purpose = purpose
        self.clock = clock
    }

    /// The key new signatures are made with, or nil before the first one exists.
    public func current() throws -> StoredSigningKey? {
        try database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM signingKey WHERE purpose = ? AND retiredAt IS NULL", arguments: [purpose])
                .map(Self.key)
        }
    }

    /// The id of the current key: one indexed lookup, for noticing a rotation made by another process.
    public func currentID() throws -> Int64? {
        try database.writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM signingKey WHERE purpose = ? AND retiredAt IS NULL", arguments: [purpose])
        }
    }

    /// The current key, then keys retired less than `grace` ago (newest first): what verifiers may still meet.
    public func published(grace: TimeInterval) throws -> [StoredSigningKey] {
        let since = clock.now().addingTimeInterval(-grace).timeIntervalSince1970
        return try database.writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM signingKey WHERE purpose = ? AND (retiredAt IS NULL OR retiredAt > ?)
                ORDER BY retiredAt IS NOT NULL, id DESC
                """, arguments: [purpose, since]).map(Self.key)
        }
    }

    /// Every key of this purpose, newest first.
    public func all() throws -> [StoredSigningKey] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM signingKey WHERE purpose = ? ORDER BY id DESC", arguments: [purpose]).map(Self.key)
        }
    }

    /// Stores the first key unless another process stored one meanwhile; returns the current key either way.
    @discardableResult
    public func addFirst(privateKey: String, publicKey: String) throws -> StoredSigningKey {
        try database.writer.write { db in
            if let existing = try Row.fetchOne(db, sql: "SELECT * FROM signingKey WHERE purpose = ? AND retiredAt IS NULL",
                                               arguments: [purpose]) {
                return Self.key(existing)
            }
            return try insert(db, privateKey: privateKey, publicKey: publicKey)
        }
    }

    /// Retires the current key (if any) and makes this one current, in one transaction.
    public func rotate(privateKey: String, publicKey: String) throws -> StoredSigningKey {
        try database.writer.write { db in
            try db.execute(sql: "UPDATE signingKey SET retiredAt = ? WHERE purpose = ? AND retiredAt IS NULL",
                           arguments: [clock.now().timeIntervalSince1970, purpose])
            return try insert(db, privateKey: privateKey, publicKey: publicKey)
        }
    }

    private func insert(_ db: Database, privateKey: String, publicKey: String) throws -> StoredSigningKey {
        let now = clock.now()
        try db.execute(sql: "INSERT INTO signingKey (purpose, privateKey, publicKey, createdAt) VALUES (?, ?, ?, ?)",
                       arguments: [purpose, privateKey, publicKey, now.timeIntervalSince1970])
        return StoredSigningKey(id: db.lastInsertedRowID, privateKey: privateKey, publicKey: publicKey,
                                createdAt: Date(timeIntervalSince1970: now.timeIntervalSince1970), retiredAt: nil)
    }

    private static func key(_ row: Row) -> StoredSigningKey {
        StoredSigningKey(id: row["id"], privateKey: row["privateKey"], publicKey: row["publicKey"],
                         createdAt: Date(timeIntervalSince1970: row["createdAt"]),
                         retiredAt: (row["retiredAt"] as Double?).map { Date(timeIntervalSince1970: $0) })
    }
}
