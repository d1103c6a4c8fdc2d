// SocialFlowStore.swift: the short-lived rows of social sign-in: `socialFlow` (an authorization-code flow begun at a
// provider's button, finished once at the callback) and `socialPending` (an identity waiting for one more step).
//
// Options: none. Both are found by the digest of their token (the primary key) and used up once by a conditional
// `UPDATE … SET usedAt = ? WHERE digest = ? AND usedAt IS NULL`: its changed-row count decides the one winner (on
// PostgreSQL the second UPDATE waits for the first's row lock and then finds usedAt set). Expired rows are deleted
// whenever a new one is made. Times are seconds since 1970; booleans are bound as Swift `Bool`.
import Foundation

/// A `socialFlow` row.
struct StoredSocialFlow: Sendable {
    var digest: Data
    var provider: String
    /// `SocialPurpose.rawValue`.
    var purpose: String
    var accountId: Int64?
    var bindingDigest: Data
    var returnTo: String
    var sealedInvite: Data?
    var rememberMe: Bool
    var pendingDigest: Data?
    var createdAt: Date
    var expiresAt: Date

    init(digest: Data, provider: String, purpose: String, accountId: Int64?, bindingDigest: Data, returnTo: String,
         sealedInvite: Data?, rememberMe: Bool, pendingDigest: Data?, createdAt: Date, expiresAt: Date) {
        self.digest = digest
        self.provider = provider
        self.purpose = purpose
        self.accountId = accountId
        self.bindingDigest = bindingDigest
        self.returnTo = returnTo
        self.sealedInvite = sealedInvite
        self.rememberMe = rememberMe
        self.pendingDigest = pendingDigest
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// The columns `init(row:)` reads, named (a later version may add columns under a running host).
    static let columns = "digest, provider, purpose, accountId, bindingDigest, returnTo, sealedInvite, rememberMe, pendingDigest, createdAt, expiresAt"

    /// A `socialFlow` row (`columns`).
    init(row: SQLRow) throws {
        self.init(digest: try row.decode("digest"), provider: try row.decode("provider"), purpose: try row.decode("purpose"),
                  accountId: row["accountId"], bindingDigest: try row.decode("bindingDigest"), returnTo: try row.decode("returnTo"),
                  sealedInvite: row["sealedInvite"], rememberMe: try row.decode("rememberMe"), pendingDigest: row["pendingDigest"],
                  createdAt: try row.decode("createdAt"), expiresAt: try row.decode("expiresAt"))
    }
}

extension PendingRecord {
    /// The columns `init(row:)` reads, named (a later version may add columns under a running host).
    static let columns = """
        digest, bindingDigest, provider, subject, email, emailVerified, displayName, sealedTokens, tokenExpiresAt, linkAccountId,
        returnTo, sealedInvite, rememberMe
        """

    /// A `socialPending` row (`columns`).
    init(row: SQLRow) throws {
        let identity = IdentityRecord(provider: try row.decode("provider"), subject: try row.decode("subject"), email: row["email"],
                                      displayName: try row.decode("displayName"), sealedTokens: row["sealedTokens"],
                                      tokenExpiresAt: row["tokenExpiresAt"])
        self.init(digest: try row.decode("digest"), bindingDigest: try row.decode("bindingDigest"), identity: identity,
                  emailVerified: try row.decode("emailVerified"), linkAccountId: row["linkAccountId"], returnTo: try row.decode("returnTo"),
                  sealedInvite: row["sealedInvite"], rememberMe: try row.decode("rememberMe"))
    }
}

extension Transaction {
    // MARK: Flows

    /// Deletes at most `limit` flows that expired at or before `now` (the pruner's batch); returns how many went.
    func deleteExpiredSocialFlows(now: Date, limit: Int) throws -> Int {
        try execute(Self.endedBatchSQL(.socialFlows), [now, limit])
    }

    /// Stores a new flow (its digest, a fresh random state's, is the primary key).
    func insertSocialFlow(_ flow: StoredSocialFlow) throws {
        try execute("""
            INSERT INTO socialFlow (digest, provider, purpose, accountId, bindingDigest, returnTo, sealedInvite, rememberMe,
                                    pendingDigest, createdAt, expiresAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [flow.digest, flow.provider, flow.purpose, flow.accountId, flow.bindingDigest, flow.returnTo, flow.sealedInvite,
                  flow.rememberMe, flow.pendingDigest, flow.createdAt, flow.expiresAt])
    }

    /// The flow with state digest `digest` when it is unused and unexpired at `now`.
    func unusedSocialFlow(digest: Data, now: Date) throws -> StoredSocialFlow? {
        try row("SELECT \(StoredSocialFlow.columns) FROM socialFlow WHERE digest = ? AND usedAt IS NULL AND expiresAt > ?", [digest, now]).map(StoredSocialFlow.init(row:))
    }

    /// Uses the flow up `now`; false when it was used meanwhile. One winner: the conditional UPDATE's changed-row count.
    func markSocialFlowUsed(digest: Data, now: Date) throws -> Bool {
        try execute("UPDATE socialFlow SET usedAt = ? WHERE digest = ? AND usedAt IS NULL", [now, digest]) == 1
    }

    // MARK: Pending identities

    /// Deletes at most `limit` pending identities that expired at or before `now` (the pruner's batch); returns how many went.
    func deleteExpiredSocialPending(now: Date, limit: Int) throws -> Int {
        try execute(Self.endedBatchSQL(.socialPending), [now, limit])
    }

    /// Stores a pending identity made `createdAt`, usable until `expiresAt` (its digest, a fresh random token's, is the
    /// primary key).
    func insertSocialPending(_ pending: PendingRecord, createdAt: Date, expiresAt: Date) throws {
        let identity = pending.identity
        try execute("""
            INSERT INTO socialPending (digest, bindingDigest, provider, subject, email, emailVerified, displayName, sealedTokens,
                                       tokenExpiresAt, linkAccountId, returnTo, sealedInvite, rememberMe, createdAt, expiresAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [pending.digest, pending.bindingDigest, identity.provider, identity.subject, identity.email, pending.emailVerified,
                  identity.displayName, identity.sealedTokens, identity.tokenExpiresAt, pending.linkAccountId, pending.returnTo,
                  pending.sealedInvite, pending.rememberMe, createdAt, expiresAt])
    }

    /// The pending identity with token digest `digest` when it is unused and unexpired at `now` (whichever browser).
    func unusedSocialPending(digest: Data, now: Date) throws -> PendingRecord? {
        try row("SELECT \(PendingRecord.columns) FROM socialPending WHERE digest = ? AND usedAt IS NULL AND expiresAt > ?", [digest, now]).map(PendingRecord.init(row:))
    }

    /// Uses the pending identity up `now`; false when it was used meanwhile. One winner: the conditional UPDATE's
    /// changed-row count.
    func markSocialPendingUsed(digest: Data, now: Date) throws -> Bool {
        try execute("UPDATE socialPending SET usedAt = ? WHERE digest = ? AND usedAt IS NULL", [now, digest]) == 1
    }
}
