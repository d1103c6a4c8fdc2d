// InviteStore.swift: store operations on invitations (table `invite`): issue, look up, redeem once, list, revoke the
// open ones of an address, and remove the used ones of a deleted account. Only a token's SHA-256 digest is stored.
//
// Options: none. Portable SQL only (see Storage/Transaction.swift); times are seconds since 1970.
import AccountRules
import Foundation

extension Transaction {
    /// Stores a new invitation for `address` (as given; compared normalized) under the token digest `digest`.
    func insertInvite(digest: Data, address: String, createdAt: Date, expiresAt: Date) throws {
        try execute("INSERT INTO invite (digest, address, normalizedAddress, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?)",
                    [digest, address, EmailFormat.normalized(address), createdAt, expiresAt])
    }

    /// The address of the unused, unexpired invitation with digest `digest`; nil otherwise.
    func openInviteAddress(digest: Data, now: Date) throws -> String? {
        try value(String.self, "SELECT address FROM invite WHERE digest = ? AND usedAt IS NULL AND expiresAt > ?", [digest, now])
    }

    /// Marks the invitation with digest `digest` used by `address`; false when it is unknown, used, expired or for another
    /// address. One winner: the conditional UPDATE (`usedAt IS NULL`) changes the row for only one of two redeemers,
    /// and its changed-row count decides.
    func redeemInvite(digest: Data, address: String, now: Date) throws -> Bool {
        try execute("UPDATE invite SET usedAt = ? WHERE digest = ? AND usedAt IS NULL AND expiresAt > ? AND normalizedAddress = ?",
                    [now, digest, now, EmailFormat.normalized(address)]) == 1
    }

    /// Deletes the used invitations for `address` (compared normalized).
    func deleteUsedInvites(for address: String) throws {
        try execute("DELETE FROM invite WHERE normalizedAddress = ? AND usedAt IS NOT NULL", [EmailFormat.normalized(address)])
    }

    /// Invitations, newest first: the open ones only (unused, unexpired at `now`), or every one with `all`.
    func invites(now: Date, all: Bool, limit: Int) throws -> [InvitationRecord] {
        let open = all ? "" : "WHERE usedAt IS NULL AND expiresAt > ?"
        let arguments: SQLArguments = all ? [limit] : [now, limit]
        return try rows("SELECT address, createdAt, expiresAt, usedAt FROM invite \(open) ORDER BY createdAt DESC, address LIMIT ?",
                        arguments).map { row in
            let expiresAt: Date = try row.decode("expiresAt"), usedAt: Date? = row["usedAt"]
            return InvitationRecord(address: try row.decode("address"), createdAt: try row.decode("createdAt"), expiresAt: expiresAt,
                                    usedAt: usedAt, state: usedAt != nil ? "used" : expiresAt <= now ? "expired" : "open")
        }
    }

    /// Deletes the unused invitations for `address` (compared normalized), expired ones too; how many went. Against a
    /// sign-up redeeming one at the same moment exactly one wins: the redemption's UPDATE and this DELETE both take
    /// only a row whose `usedAt` is NULL (PostgreSQL re-checks that after waiting for the other's row lock).
    func deleteUnusedInvites(for address: String) throws -> Int {
        try execute("DELETE FROM invite WHERE normalizedAddress = ? AND usedAt IS NULL", [EmailFormat.normalized(address)])
    }
}
