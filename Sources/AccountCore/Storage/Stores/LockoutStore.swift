// LockoutStore.swift: the store operations of lockout: failed sign-ins (`signInFailure`), blocked client addresses
// (`addressBlock`, keyed by the address group) and the account's lock (`account.lockedUntil`).
//
// Options: none; the limits are the caller's (LockoutPolicy). Times are seconds since 1970.
// Counting failures and then locking is one rule: it holds by the write transaction the caller runs it in
// (serialised on both backends), and the lock itself is a conditional UPDATE whose changed-row count says whether this
// transaction locked the account (so one lock gets one audit row and one mail).
import Foundation

extension Transaction {
    // MARK: Account locks

    /// When the account's lock ends (seconds since 1970), or nil when it was never locked or was unlocked.
    func lockedUntil(accountId: Int64) throws -> Double? {
        try value(Double.self, "SELECT lockedUntil FROM account WHERE id = ?", [accountId])
    }

    /// Locks the account until `until` unless a lock lasting past `now` is already on it; true when this call locked it.
    func lockAccountIfUnlocked(accountId: Int64, until: Double, now: Double) throws -> Bool {
        try execute("UPDATE account SET lockedUntil = ? WHERE id = ? AND (lockedUntil IS NULL OR lockedUntil <= ?)",
                    [until, accountId, now]) == 1
    }

    /// Sets the account's lock to end at `until` whatever it was (the operator's lock).
    func setLockedUntil(_ until: Double, accountId: Int64) throws {
        try execute("UPDATE account SET lockedUntil = ? WHERE id = ?", [until, accountId])
    }

    /// Lifts the account's lock.
    func clearLock(accountId: Int64) throws {
        try execute("UPDATE account SET lockedUntil = NULL WHERE id = ?", [accountId])
    }

    // MARK: Failed sign-ins

    /// Records one failed sign-in of `accountId` (nil: no account) from the address group `addressGroup` at `at`.
    func recordSignInFailure(accountId: Int64?, addressGroup: String, at: Double) throws {
        try execute("INSERT INTO signInFailure (accountId, remoteAddress, createdAt) VALUES (?, ?, ?)", [accountId, addressGroup, at])
    }

    /// How many failed sign-ins of the account were recorded after `since`.
    func countRecentFailures(accountId: Int64, since: Double) throws -> Int {
        try value(Int.self, "SELECT COUNT(*) AS failures FROM signInFailure WHERE accountId = ? AND createdAt > ?", [accountId, since]) ?? 0
    }

    /// How many failed sign-ins from the address group were recorded after `since`.
    func countRecentFailures(addressGroup: String, since: Double) throws -> Int {
        try value(Int.self, "SELECT COUNT(*) AS failures FROM signInFailure WHERE remoteAddress = ? AND createdAt > ?",
                  [addressGroup, since]) ?? 0
    }

    /// Forgets the account's failed sign-ins (a success, or an unlock).
    func forgetSignInFailures(accountId: Int64) throws {
        try execute("DELETE FROM signInFailure WHERE accountId = ?", [accountId])
    }

    /// Deletes at most `limit` failed sign-ins recorded at or before `cutoff`, the oldest first (the pruner's batch, on
    /// the index `signInFailure_createdAt`); returns how many went.
    func purgeSignInFailures(before cutoff: Double, limit: Int) throws -> Int {
        try execute(Self.endedBatchSQL(.signInFailures), [cutoff, limit])
    }

    // MARK: Blocked addresses

    /// When the address group's block ends (seconds since 1970), or nil when it is not blocked.
    func addressBlockedUntil(_ addressGroup: String) throws -> Double? {
        try value(Double.self, "SELECT blockedUntil FROM addressBlock WHERE remoteAddress = ?", [addressGroup])
    }

    /// Blocks the address group until `until`, replacing an earlier block of it (its primary key is the group).
    func blockAddress(_ addressGroup: String, until: Double) throws {
        try execute("""
            INSERT INTO addressBlock (remoteAddress, blockedUntil) VALUES (?, ?)
            ON CONFLICT (remoteAddress) DO UPDATE SET blockedUntil = excluded.blockedUntil
            """, [addressGroup, until])
    }

    /// Deletes at most `limit` blocks that ended at or before `now` (the pruner's batch, on the index
    /// `addressBlock_blockedUntil`); returns how many went.
    func purgeAddressBlocks(endedBy now: Double, limit: Int) throws -> Int {
        try execute(Self.endedBatchSQL(.addressBlocks), [now, limit])
    }
}
