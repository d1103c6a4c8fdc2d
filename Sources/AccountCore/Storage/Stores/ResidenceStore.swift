// ResidenceStore.swift: the `residence` table: store a request, find it by its link or id, decide it (approve or
// refuse), use it up once, and drop expired requests.
//
// A request is decided once and collected once: `refuseResidence`, `approveResidence` (still pending) and
// `useResidence` (still verified) are conditional UPDATEs whose changed-row count decides, so of two concurrent
// approvals or collections one wins. An approval first takes the request's row (`pendingResidence(deciding:)`), so the
// loser of two approvals of a new address stops before inserting a second account (which would meet the address's
// unique index and answer a bare storage error on PostgreSQL).
import Foundation

/// A pending request as the approval finds it by its link.
struct PendingResidence: Sendable, Equatable {
    var id: String
    var address: String
    var userAgent: String
    var remoteAddress: String
    var createdAt: Date
}

extension Transaction {
    /// Deletes at most `limit` requests that expired at `now` or before (the pruner's batch); returns how many went.
    func deleteExpiredResidences(now: Double, limit: Int) throws -> Int {
        try execute(Self.endedBatchSQL(.residences), [now, limit])
    }

    /// Stores a pending request for `address`.
    func insertResidence(id: String, address: String, normalizedAddress: String, secretDigest: Data, linkDigest: Data,
                         userAgent: String, remoteAddress: String, createdAt: Double, expiresAt: Double) throws {
        try execute("""
            INSERT INTO residence (id, address, normalizedAddress, secretDigest, linkDigest, state, userAgent, remoteAddress,
                                   createdAt, expiresAt)
            VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)
            """, [id, address, normalizedAddress, secretDigest, linkDigest, userAgent, remoteAddress, createdAt, expiresAt])
    }

    /// The pending request whose link digest is `linkDigest`, unexpired at `now`, or nil. `deciding`: the approval's
    /// lookup, in a write, holds the row until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite's one writer holds
    /// everything), so a second approval waits here, then finds the request decided and makes no account of its own.
    func pendingResidence(linkDigest: Data, now: Double, deciding: Bool = false) throws -> PendingResidence? {
        try row("""
            SELECT id, address, userAgent, remoteAddress, createdAt FROM residence
            WHERE linkDigest = ? AND state = 'pending' AND expiresAt > ?\(deciding && dialect == .postgresql ? " FOR UPDATE" : "")
            """, [linkDigest, now]).map { row in
            PendingResidence(id: try row.decode("id"), address: try row.decode("address"), userAgent: try row.decode("userAgent"),
                             remoteAddress: try row.decode("remoteAddress"), createdAt: try row.decode("createdAt"))
        }
    }

    /// Refuses the pending request `id`; false when it is no longer pending (decided by another approval).
    func refuseResidence(id: String) throws -> Bool {
        try execute("UPDATE residence SET state = 'refused' WHERE id = ? AND state = 'pending'", [id]) == 1
    }

    /// Approves the pending request `id` for `accountId`, to be collected before `expiresAt`; false when it is no longer
    /// pending (decided by another approval).
    func approveResidence(id: String, accountId: Int64, verifiedAt: Double, expiresAt: Double) throws -> Bool {
        try execute("""
            UPDATE residence SET state = 'verified', accountId = ?, verifiedAt = ?, expiresAt = ? WHERE id = ? AND state = 'pending'
            """, [accountId, verifiedAt, expiresAt, id]) == 1
    }

    /// The state (pending, verified, refused, used) and secret digest of the request `id`, unexpired at `now`, or nil.
    func residenceState(id: String, now: Double) throws -> (state: String, secretDigest: Data)? {
        try row("SELECT state, secretDigest FROM residence WHERE id = ? AND expiresAt > ?", [id, now]).map { row in
            (try row.decode("state"), try row.decode("secretDigest"))
        }
    }

    /// The address and account of the verified request `id`, unexpired at `now`; nil when it is not (or no longer) one.
    func verifiedResidence(id: String, now: Double) throws -> (address: String, accountId: Int64)? {
        guard let row = try row("""
            SELECT address, accountId FROM residence WHERE id = ? AND state = 'verified' AND expiresAt > ? AND accountId IS NOT NULL
            """, [id, now]) else { return nil }
        return (try row.decode("address"), try row.decode("accountId"))
    }

    /// Uses up the verified request `id` at `now`; false when another collection used it first.
    func useResidence(id: String, now: Double) throws -> Bool {
        try execute("UPDATE residence SET state = 'used', usedAt = ? WHERE id = ? AND state = 'verified'", [now, id]) == 1
    }
}
