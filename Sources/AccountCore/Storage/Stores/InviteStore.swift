// InviteStore.swift: store operations on invitations (table `invite`): issue, look up, redeem once, and remove the
// used ones of a deleted account. Only a token's SHA-256 digest is stored.
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
}
