// PasskeyStore.swift: the store operations on `passkey` (an account's WebAuthn credentials) and `passkeyChallenge`
// (a challenge handed to a browser, used once).
//
// Options: none. A credential id is unique across accounts (the table's UNIQUE constraint refuses a second row, so two
// registrations of one credential cannot both land). A challenge is found by the SHA-256 of its bytes and used up by a
// conditional `UPDATE … SET usedAt = ? WHERE digest = ? AND usedAt IS NULL AND expiresAt > ?`: its changed-row count
// decides the one winner, on any host (on PostgreSQL a second UPDATE waits for the first's row lock, then finds usedAt
// set). Expired challenges are deleted by the pruner (Retention+Expiry). Times are seconds since 1970.
import Foundation

/// A `passkey` row.
public struct Passkey: Sendable, Equatable {
    public var id: Int64
    public var accountId: Int64
    public var credentialId: Data
    /// The COSE key as the authenticator gave it.
    public var publicKey: Data
    /// COSE algorithm: -7 (ES256), -8 (EdDSA), -257 (RS256).
    public var algorithm: Int
    public var signCount: Int64
    /// 16 bytes; all zero when the authenticator does not say which model it is.
    public var aaguid: Data
    public var name: String
    public var backupEligible: Bool
    public var backedUp: Bool
    public var createdAt: Date
    public var lastUsedAt: Date?
    /// When an assertion last came with a signature counter lower than the stored one (a cloned authenticator, or a
    /// counter reset): shown on the passkeys page, nil when never.
    public var counterWentBackAt: Date?

    public init(id: Int64 = 0, accountId: Int64, credentialId: Data, publicKey: Data, algorithm: Int, signCount: Int64,
                aaguid: Data, name: String, backupEligible: Bool = false, backedUp: Bool = false, createdAt: Date,
                lastUsedAt: Date? = nil, counterWentBackAt: Date? = nil) {
        self.id = id
        self.accountId = accountId
        self.credentialId = credentialId
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.aaguid = aaguid
        self.name = name
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.counterWentBackAt = counterWentBackAt
    }

    /// The columns `init(row:)` reads, named (a later version may add columns under a running host).
    static let columns = """
        id, accountId, credentialId, publicKey, algorithm, signCount, aaguid, name, backupEligible, backedUp, createdAt,
        lastUsedAt, counterWentBackAt
        """

    /// A `passkey` row (`columns`).
    init(row: SQLRow) throws {
        self.init(id: try row.decode("id"), accountId: try row.decode("accountId"), credentialId: try row.decode("credentialId"),
                  publicKey: try row.decode("publicKey"), algorithm: try row.decode("algorithm"), signCount: try row.decode("signCount"),
                  aaguid: try row.decode("aaguid"), name: try row.decode("name"), backupEligible: try row.decode("backupEligible"),
                  backedUp: try row.decode("backedUp"), createdAt: try row.decode("createdAt"), lastUsedAt: row["lastUsedAt"],
                  counterWentBackAt: row["counterWentBackAt"])
    }
}

/// A `passkeyChallenge` row.
struct StoredPasskeyChallenge: Sendable {
    var digest: Data
    /// `PasskeyPurpose.rawValue`.
    var purpose: String
    var accountId: Int64?
    var bindingDigest: Data
    var createdAt: Date
    var expiresAt: Date

    static let columns = "digest, purpose, accountId, bindingDigest, createdAt, expiresAt"

    init(digest: Data, purpose: String, accountId: Int64?, bindingDigest: Data, createdAt: Date, expiresAt: Date) {
        self.digest = digest
        self.purpose = purpose
        self.accountId = accountId
        self.bindingDigest = bindingDigest
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    init(row: SQLRow) throws {
        self.init(digest: try row.decode("digest"), purpose: try row.decode("purpose"), accountId: row["accountId"],
                  bindingDigest: try row.decode("bindingDigest"), createdAt: try row.decode("createdAt"), expiresAt: try row.decode("expiresAt"))
    }
}

extension Transaction {
    // MARK: Passkeys

    /// Stores a new passkey; returns its id. Throws `StorageError.uniqueViolation` when the credential id is stored already.
    func insertPasskey(_ passkey: Passkey) throws -> Int64 {
        try insert("""
            INSERT INTO passkey (accountId, credentialId, publicKey, algorithm, signCount, aaguid, name, backupEligible, backedUp,
                                 createdAt, lastUsedAt, counterWentBackAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, [passkey.accountId, passkey.credentialId, passkey.publicKey, passkey.algorithm, passkey.signCount, passkey.aaguid,
                  passkey.name, passkey.backupEligible, passkey.backedUp, passkey.createdAt, passkey.lastUsedAt, passkey.counterWentBackAt])
    }

    /// The account's passkeys, oldest first.
    func passkeys(accountId: Int64) throws -> [Passkey] {
        try rows("SELECT \(Passkey.columns) FROM passkey WHERE accountId = ? ORDER BY createdAt, id", [accountId]).map(Passkey.init(row:))
    }

    /// The passkey with credential id `credentialId`, whichever account holds it.
    func passkey(credentialId: Data) throws -> Passkey? {
        try row("SELECT \(Passkey.columns) FROM passkey WHERE credentialId = ?", [credentialId]).map(Passkey.init(row:))
    }

    /// The credential ids of the account's passkeys (the registration's exclude list).
    func passkeyCredentialIds(accountId: Int64) throws -> [Data] {
        try values(Data.self, "SELECT credentialId FROM passkey WHERE accountId = ? ORDER BY id", [accountId])
    }

    /// How many passkeys the account has.
    func countPasskeys(accountId: Int64) throws -> Int {
        try value(Int.self, "SELECT COUNT(*) FROM passkey WHERE accountId = ?", [accountId]) ?? 0
    }

    /// Records a successful assertion: the new counter, backup state and time of use; `counterWentBack` also sets
    /// `counterWentBackAt` (the counter is then left as it was, the higher value).
    func recordPasskeyUse(id: Int64, signCount: Int64, backedUp: Bool, counterWentBack: Bool, at now: Date) throws {
        if counterWentBack {
            try execute("UPDATE passkey SET lastUsedAt = ?, backedUp = ?, counterWentBackAt = ? WHERE id = ?", [now, backedUp, now, id])
        } else {
            try execute("UPDATE passkey SET lastUsedAt = ?, backedUp = ?, signCount = ? WHERE id = ?", [now, backedUp, signCount, id])
        }
    }

    /// Renames the account's passkey `id`; false when it has none such.
    func renamePasskey(id: Int64, accountId: Int64, name: String) throws -> Bool {
        try execute("UPDATE passkey SET name = ? WHERE id = ? AND accountId = ?", [name, id, accountId]) == 1
    }

    /// Deletes the account's passkey `id`; its name, or nil when it has none such.
    func deletePasskey(id: Int64, accountId: Int64) throws -> String? {
        try value(String.self, "DELETE FROM passkey WHERE id = ? AND accountId = ? RETURNING name", [id, accountId])
    }

    /// Deletes every passkey of the account; returns how many went.
    func deletePasskeys(accountId: Int64) throws -> Int {
        try execute("DELETE FROM passkey WHERE accountId = ?", [accountId])
    }

    // MARK: Challenges

    /// Stores a new challenge (its digest is the primary key).
    func insertPasskeyChallenge(_ challenge: StoredPasskeyChallenge) throws {
        try execute("""
            INSERT INTO passkeyChallenge (digest, purpose, accountId, bindingDigest, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?)
            """, [challenge.digest, challenge.purpose, challenge.accountId, challenge.bindingDigest, challenge.createdAt, challenge.expiresAt])
    }

    /// The challenge with digest `digest` when it is unused and unexpired at `now`.
    func unusedPasskeyChallenge(digest: Data, now: Date) throws -> StoredPasskeyChallenge? {
        try row("SELECT \(StoredPasskeyChallenge.columns) FROM passkeyChallenge WHERE digest = ? AND usedAt IS NULL AND expiresAt > ?",
                [digest, now]).map(StoredPasskeyChallenge.init(row:))
    }

    /// Uses the challenge up `now`; false when it was used meanwhile or expired. One winner: the changed-row count.
    func markPasskeyChallengeUsed(digest: Data, now: Date) throws -> Bool {
        try execute("UPDATE passkeyChallenge SET usedAt = ? WHERE digest = ? AND usedAt IS NULL AND expiresAt > ?", [now, digest, now]) == 1
    }

    /// Deletes at most `limit` challenges that expired at or before `now` (the pruner's batch); returns how many went.
    func deleteExpiredPasskeyChallenges(now: Date, limit: Int) throws -> Int {
        try execute(Self.endedBatchSQL(.passkeyChallenges), [now, limit])
    }
}
