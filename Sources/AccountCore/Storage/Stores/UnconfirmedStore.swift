// UnconfirmedStore.swift: the reads that find what was never confirmed, for Retention+Unconfirmed: accounts none of
// whose addresses was ever verified, and added addresses never verified.
//
// Options: none; the cutoff and the clock are the caller's. Both start from `emailAddress_unverified` (migration
// v13-address-proof: unverified rows by creation time), so each batch reads a few index entries, never the tables.
// Times are seconds since 1970.
import Foundation

extension Transaction {
    /// Up to `limit` accounts, oldest first, whose primary address (and every other) was never verified, made before
    /// `cutoff`, neither signed in to nor with a session seen since `cutoff`, and without a confirmation link that
    /// still works at `now`.
    func unconfirmedAccounts(before cutoff: Double, now: Double, limit: Int) throws -> [Int64] {
        try values(Int64.self, Self.unconfirmedAccountsSQL, [cutoff, cutoff, cutoff, now, limit])
    }

    /// `unconfirmedAccounts`' statement (parameters: cutoff, cutoff, cutoff, now, limit).
    static let unconfirmedAccountsSQL = """
            SELECT e.accountId FROM emailAddress e JOIN account a ON a.id = e.accountId
            WHERE e.verifiedAt IS NULL AND e.createdAt < ? AND e.isPrimary
              AND (a.lastSignInAt IS NULL OR a.lastSignInAt < ?)
              AND NOT EXISTS (SELECT 1 FROM emailAddress v WHERE v.accountId = e.accountId AND v.verifiedAt IS NOT NULL)
              AND NOT EXISTS (SELECT 1 FROM session s WHERE s.accountId = e.accountId AND s.lastSeenAt >= ?)
              AND NOT EXISTS (SELECT 1 FROM accountToken t WHERE t.accountId = e.accountId AND t.purpose = 'confirmation'
                                                         AND t.usedAt IS NULL AND t.expiresAt > ?)
            ORDER BY e.createdAt LIMIT ?
            """

    /// Up to `limit` added (not primary) addresses, oldest first, never verified, made before `cutoff`, without a link
    /// that still works at `now`.
    func unconfirmedAddedAddresses(before cutoff: Double, now: Double, limit: Int) throws -> [EmailAddress] {
        try rows(Self.unconfirmedAddressesSQL, [cutoff, now, limit]).map(EmailAddress.init(row:))
    }

    /// `unconfirmedAddedAddresses`' statement (parameters: cutoff, now, limit).
    static let unconfirmedAddressesSQL = """
            SELECT e.id, e.accountId, e.address, e.normalizedAddress, e.isPrimary, e.verifiedAt, e.createdAt FROM emailAddress e
            WHERE e.verifiedAt IS NULL AND e.createdAt < ? AND NOT e.isPrimary
              AND NOT EXISTS (SELECT 1 FROM accountToken t WHERE t.emailAddressId = e.id AND t.usedAt IS NULL AND t.expiresAt > ?)
            ORDER BY e.createdAt LIMIT ?
            """
}
