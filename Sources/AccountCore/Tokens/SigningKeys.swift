// SigningKeys.swift: the server's private signing keys (the BrowserID root key), kept in the database.
// Options: purpose (one current key per purpose, e.g. "browserid"); the clock dates creation and retirement.
// Keys are opaque text here (PEM and public JSON made by the caller): AccountCore knows no key formats.
// At most one key per purpose is current (a unique partial index); rotating retires it in the same transaction, and of
// two rotations at once the loser answers `ConcurrentRotation` (one line, for `frontdoor keys rotate`).
import Foundation

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
        try database.read { tx in try tx.currentSigningKey(purpose: purpose) }
    }

    /// The id of the current key: one indexed lookup, for noticing a rotation made by another process.
    public func currentID() throws -> Int64? {
        try database.read { tx in try tx.currentSigningKeyID(purpose: purpose) }
    }

    /// The current key, then keys retired less than `grace` ago (newest first): what verifiers may still meet.
    public func published(grace: TimeInterval) throws -> [StoredSigningKey] {
        let since = clock.now().addingTimeInterval(-grace).timeIntervalSince1970
        return try database.read { tx in try tx.publishedSigningKeys(purpose: purpose, retiredAfter: since) }
    }

    /// Every key of this purpose, newest first.
    public func all() throws -> [StoredSigningKey] {
        try database.read { tx in try tx.signingKeys(purpose: purpose) }
    }

    /// Stores the first key unless another process stored one meanwhile; returns the current key either way.
    /// One current key: the unique partial index signingKey_oneCurrent decides between two processes storing at once.
    @discardableResult
    public func addFirst(privateKey: String, publicKey: String) throws -> StoredSigningKey {
        try database.write { tx in
            if let existing = try tx.currentSigningKey(purpose: purpose) { return existing }
            let now = clock.now().timeIntervalSince1970
            guard let id = try tx.insertFirstSigningKey(purpose: purpose, privateKey: privateKey, publicKey: publicKey, createdAt: now) else {
                guard let stored = try tx.currentSigningKey(purpose: purpose) else { throw StorageError.badRow("no current \(purpose) key") }
                return stored
            }
            return StoredSigningKey(id: id, privateKey: privateKey, publicKey: publicKey, createdAt: Date(timeIntervalSince1970: now), retiredAt: nil)
        }
    }

    /// Retires the current key (if any) and makes this one current, in one transaction. Of two concurrent rotations on
    /// PostgreSQL the second one's insert meets signingKey_oneCurrent (it retired nothing: the first's new key was not
    /// there when it looked) and the whole transaction is undone; it answers `ConcurrentRotation`. SQLite runs them one
    /// after the other, so both succeed.
    ///
    /// - Throws: `ConcurrentRotation` when another rotation of this purpose committed first (nothing changed).
    public func rotate(privateKey: String, publicKey: String) throws -> StoredSigningKey {
        do {
            return try database.write { tx in
                let now = clock.now().timeIntervalSince1970
                try tx.retireCurrentSigningKey(purpose: purpose, retiredAt: now)
                let id = try tx.insertSigningKey(purpose: purpose, privateKey: privateKey, publicKey: publicKey, createdAt: now)
                return StoredSigningKey(id: id, privateKey: privateKey, publicKey: publicKey, createdAt: Date(timeIntervalSince1970: now), retiredAt: nil)
            }
        } catch StorageError.uniqueViolation {
            throw ConcurrentRotation(purpose: purpose)
        }
    }
}

/// A rotation that lost to another rotation of the same purpose committed at the same time: nothing was changed, and
/// the other rotation's key is current.
public struct ConcurrentRotation: Error, Equatable, CustomStringConvertible {
    public var purpose: String

    public var description: String {
        "another \(purpose) key rotation finished at the same time; its key is current and this one changed nothing (see `frontdoor keys show`)"
    }
}
