// SocialIdentityStore.swift: the `socialIdentity` rows (an account's linked providers) as social sign-in, linking and
// the provider-token endpoint read and write them, and the few reads and writes of other tables (account, emailAddress,
// invite, session) that social sign-in makes in its own transactions.
//
// Options: none. One identity per (provider, subject) and one per provider per account are unique keys
// (socialIdentity's two UNIQUE constraints): inserting a second one fails with `StorageError.uniqueViolation`, which
// SocialSignIn's `retryingOnce` answers by running its step again. Times are seconds since 1970; provider tokens are
// stored sealed (TokenVault), never in clear.
import Foundation

extension LinkedIdentity {
    /// A `socialIdentity` row as the settings page lists it.
    init(row: SQLRow) throws {
        self.init(provider: try row.decode("provider"), email: row["email"], displayName: try row.decode("displayName"),
                  linkedAt: try row.decode("createdAt"), lastUsedAt: row["lastUsedAt"])
    }
}

/// A linked identity's sealed provider tokens, as stored.
struct StoredSocialTokens: Sendable {
    var subject: String
    var sealedTokens: Data?
    var tokenExpiresAt: Date?

    /// The `subject, sealedTokens, tokenExpiresAt` of a `socialIdentity` row.
    init(row: SQLRow) throws {
        subject = try row.decode("subject")
        sealedTokens = row["sealedTokens"]
        tokenExpiresAt = row["tokenExpiresAt"]
    }
}

extension Transaction {
    // MARK: Identities

    /// The account the identity (`provider`, `subject`) is linked to, or nil.
    func socialIdentityOwner(provider: String, subject: String) throws -> Int64? {
        try value(Int64.self, "SELECT accountId FROM socialIdentity WHERE provider = ? AND subject = ?", [provider, subject])
    }

    /// Whether the account has an identity of `provider` (whatever its subject).
    func hasSocialIdentity(provider: String, accountId: Int64) throws -> Bool {
        try value(Bool.self, "SELECT EXISTS (SELECT 1 FROM socialIdentity WHERE accountId = ? AND provider = ?) AS linked",
                  [accountId, provider]) ?? false
    }

    /// Links `record` to the account, used and created `now`; the unique keys refuse a second owner of the identity and
    /// a second identity of one provider (`StorageError.uniqueViolation`). `unprovenBinding`: the digest of the browser
    /// binding it was linked in while the account had no verified address (IdentityProof), nil when it had one.
    func insertSocialIdentity(_ record: IdentityRecord, accountId: Int64, now: Date, unprovenBinding: Data? = nil) throws {
        try execute("""
            INSERT INTO socialIdentity (accountId, provider, subject, email, displayName, sealedTokens, tokenExpiresAt, createdAt, lastUsedAt,
                                        unprovenBinding)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [accountId, record.provider, record.subject, record.email, record.displayName, record.sealedTokens,
                  record.tokenExpiresAt, now, now, unprovenBinding])
    }

    /// The account's identities linked while it had no verified address: provider and binding digest of each.
    func unprovenIdentities(accountId: Int64) throws -> [(provider: String, binding: Data)] {
        try rows("SELECT provider, unprovenBinding FROM socialIdentity WHERE accountId = ? AND unprovenBinding IS NOT NULL ORDER BY id",
                 [accountId]).map { (provider: try $0.decode("provider"), binding: try $0.decode("unprovenBinding")) }
    }

    /// Marks the account's `provider` identity proven (an address of the account was proven in its browser).
    func markIdentityProven(accountId: Int64, provider: String) throws {
        try execute("UPDATE socialIdentity SET unprovenBinding = NULL WHERE accountId = ? AND provider = ?", [accountId, provider])
    }

    /// Whether the account holds an address that was verified.
    func hasVerifiedAddress(accountId: Int64) throws -> Bool {
        try value(Bool.self, "SELECT EXISTS (SELECT 1 FROM emailAddress WHERE accountId = ? AND verifiedAt IS NOT NULL) AS verified",
                  [accountId]) ?? false
    }

    /// Notes a use of the linked identity `now`, with what the provider says now (address, name); its tokens and their
    /// expiry are replaced only when `record` brings new ones.
    func refreshSocialIdentity(_ record: IdentityRecord, now: Date) throws {
        if let sealed = record.sealedTokens {
            try execute("""
                UPDATE socialIdentity SET lastUsedAt = ?, email = ?, displayName = ?, sealedTokens = ?, tokenExpiresAt = ?
                WHERE provider = ? AND subject = ?
                """, [now, record.email, record.displayName, sealed, record.tokenExpiresAt, record.provider, record.subject])
        } else {
            try execute("UPDATE socialIdentity SET lastUsedAt = ?, email = ?, displayName = ? WHERE provider = ? AND subject = ?",
                        [now, record.email, record.displayName, record.provider, record.subject])
        }
    }

    /// The providers linked to the account, oldest link first.
    func socialProviders(accountId: Int64) throws -> [String] {
        try values(String.self, "SELECT provider FROM socialIdentity WHERE accountId = ? ORDER BY createdAt, id", [accountId])
    }

    /// The account's linked identities, oldest link first.
    func linkedIdentities(accountId: Int64) throws -> [LinkedIdentity] {
        try rows("""
            SELECT provider, email, displayName, createdAt, lastUsedAt FROM socialIdentity WHERE accountId = ? ORDER BY createdAt, id
            """, [accountId]).map(LinkedIdentity.init(row:))
    }

    /// Unlinks the account's `provider` identity; returns how many rows went (0 or 1).
    @discardableResult
    func deleteSocialIdentity(accountId: Int64, provider: String) throws -> Int {
        try execute("DELETE FROM socialIdentity WHERE accountId = ? AND provider = ?", [accountId, provider])
    }

    /// The subject and sealed tokens of the account's `provider` identity, or nil when it has none.
    func socialTokens(accountId: Int64, provider: String) throws -> StoredSocialTokens? {
        try row("SELECT subject, sealedTokens, tokenExpiresAt FROM socialIdentity WHERE accountId = ? AND provider = ?",
                [accountId, provider]).map(StoredSocialTokens.init(row:))
    }

    /// Replaces the sealed tokens of the account's `provider` identity; returns how many rows changed (0: not linked).
    @discardableResult
    func storeSocialTokens(accountId: Int64, provider: String, sealed: Data, expiresAt: Date?) throws -> Int {
        try execute("UPDATE socialIdentity SET sealedTokens = ?, tokenExpiresAt = ? WHERE accountId = ? AND provider = ?",
                    [sealed, expiresAt, accountId, provider])
    }

    // MARK: Other tables, as social sign-in needs them
    // (these may join AccountStore, SessionStore and InviteStore, or give way to their twins there, once the
    // groups' branches are merged.)

    /// Holds the account's row until the transaction ends, so that two changes to one account's ways of signing in
    /// (unlinking two providers at once) run one after the other. PostgreSQL: `SELECT … FOR UPDATE`; SQLite: nothing to
    /// do, its write transaction already excludes every other writer.
    func lockAccountForSocialChange(accountId: Int64) throws {
        guard dialect == .postgresql else { return }
        _ = try rows("SELECT id FROM account WHERE id = ? FOR UPDATE", [accountId])
    }

    /// True when the account's primary address is not verified yet (false when it has none).
    func primaryAddressIsUnverified(accountId: Int64) throws -> Bool {
        try value(Bool.self, "SELECT verifiedAt IS NULL AS unverified FROM emailAddress WHERE accountId = ? AND isPrimary",
                  [accountId]) ?? false
    }

    /// The id of the account's primary address row.
    func primaryAddressId(accountId: Int64) throws -> Int64? {
        try value(Int64.self, "SELECT id FROM emailAddress WHERE accountId = ? AND isPrimary", [accountId])
    }

    /// The account holding `normalizedAddress` as a verified address, or nil.
    func accountIdHoldingVerified(normalizedAddress: String) throws -> Int64? {
        try value(Int64.self, "SELECT accountId FROM emailAddress WHERE normalizedAddress = ? AND verifiedAt IS NOT NULL",
                  [normalizedAddress])
    }

    /// The account's stored password hash ('' for none: made through a provider), or nil when there is no such account.
    func storedPasswordHash(accountId: Int64) throws -> String? {
        try value(String.self, "SELECT passwordHash FROM account WHERE id = ?", [accountId])
    }

    /// Sets the account's display name (an account just made through a provider takes the provider's).
    func setAccountDisplayName(_ displayName: String, accountId: Int64) throws {
        try execute("UPDATE account SET displayName = ? WHERE id = ?", [displayName, accountId])
    }

}
