// SigningKeyStore.swift: the `signingKey` table: the current key of a purpose, the published and all keys, the first
// key, retiring the current one and storing its successor.
//
// One current key per purpose holds by the unique partial index `signingKey_oneCurrent` (purpose WHERE retiredAt IS
// NULL), on both backends: `insertFirstSigningKey` does nothing when another process stored one first, and of two
// concurrent rotations the second one's insert meets the index (`StorageError.uniqueViolation`, nothing written).
import Foundation

extension Transaction {
    /// The columns a `StoredSigningKey` is read from.
    private static let signingKeyColumns = "id, privateKey, publicKey, createdAt, retiredAt"

    /// The purpose's current key, or nil before the first one exists.
    func currentSigningKey(purpose: String) throws -> StoredSigningKey? {
        try row("SELECT \(Self.signingKeyColumns) FROM signingKey WHERE purpose = ? AND retiredAt IS NULL", [purpose])
            .map(StoredSigningKey.init(row:))
    }

    /// The id of the purpose's current key (one indexed lookup), or nil.
    func currentSigningKeyID(purpose: String) throws -> Int64? {
        try value(Int64.self, "SELECT id FROM signingKey WHERE purpose = ? AND retiredAt IS NULL", [purpose])
    }

    /// The purpose's current key, then its keys retired after `retiredAfter` (seconds since 1970), newest first.
    func publishedSigningKeys(purpose: String, retiredAfter: Double) throws -> [StoredSigningKey] {
        try rows("""
            SELECT \(Self.signingKeyColumns) FROM signingKey WHERE purpose = ? AND (retiredAt IS NULL OR retiredAt > ?)
            ORDER BY retiredAt IS NOT NULL, id DESC
            """, [purpose, retiredAfter]).map(StoredSigningKey.init(row:))
    }

    /// Every key of the purpose, newest first.
    func signingKeys(purpose: String) throws -> [StoredSigningKey] {
        try rows("SELECT \(Self.signingKeyColumns) FROM signingKey WHERE purpose = ? ORDER BY id DESC", [purpose])
            .map(StoredSigningKey.init(row:))
    }

    /// Stores a current key for the purpose unless it has one (`signingKey_oneCurrent` decides, also against another
    /// process inserting at the same time); returns the new key's id, or nil when one was there.
    func insertFirstSigningKey(purpose: String, privateKey: String, publicKey: String, createdAt: Double) throws -> Int64? {
        try value(Int64.self, """
            INSERT INTO signingKey (purpose, privateKey, publicKey, createdAt) VALUES (?, ?, ?, ?)
            ON CONFLICT (purpose) WHERE retiredAt IS NULL DO NOTHING RETURNING id
            """, [purpose, privateKey, publicKey, createdAt])
    }

    /// Retires the purpose's current key (if any) at `retiredAt`.
    func retireCurrentSigningKey(purpose: String, retiredAt: Double) throws {
        try execute("UPDATE signingKey SET retiredAt = ? WHERE purpose = ? AND retiredAt IS NULL", [retiredAt, purpose])
    }

    /// Stores a new current key for the purpose (the current one must be retired first); returns its id.
    func insertSigningKey(purpose: String, privateKey: String, publicKey: String, createdAt: Double) throws -> Int64 {
        try insert("INSERT INTO signingKey (purpose, privateKey, publicKey, createdAt) VALUES (?, ?, ?, ?) RETURNING id",
                   [purpose, privateKey, publicKey, createdAt])
    }
}

extension StoredSigningKey {
    /// The key of a row with `Transaction.signingKeyColumns`.
    init(row: SQLRow) throws {
        self.init(id: try row.decode("id"), privateKey: try row.decode("privateKey"), publicKey: try row.decode("publicKey"),
                  createdAt: try row.decode("createdAt"), retiredAt: row["retiredAt"])
    }
}
