// SecondFactorStore.swift: the store operations of the second step of a sign-in: the pending challenges
// (`secondFactorChallenge`) and raising a session's factors.
//
// Options: none. Every statement is portable SQL (see Transaction.swift). A challenge is found only unused and
// unexpired, and used up by a conditional UPDATE whose changed-row count decides the one winner.
import Foundation

/// A challenge as stored: what the second step needs to finish the sign-in.
struct StoredSecondFactorChallenge: Equatable {
    var digest: Data
    var accountId: Int64
    var rememberMe: Bool
    var kind: SessionKind
    /// SHA-256 of the browser's binding; empty for an app's sign-in (its challenge travels in the API's answer).
    var bindingDigest: Data
    var expiresAt: Date
}

extension Transaction {
    /// Stores a new challenge (only the digest of its token).
    func insertSecondFactorChallenge(_ challenge: StoredSecondFactorChallenge, createdAt: Date) throws {
        try execute("""
            INSERT INTO secondFactorChallenge (digest, accountId, rememberMe, kind, bindingDigest, createdAt, expiresAt)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [challenge.digest, challenge.accountId, challenge.rememberMe, challenge.kind.rawValue, challenge.bindingDigest,
                  createdAt.timeIntervalSince1970, challenge.expiresAt.timeIntervalSince1970])
    }

    /// The challenge with digest `digest` when it is unused and unexpired at `now`.
    func unusedSecondFactorChallenge(digest: Data, now: Date) throws -> StoredSecondFactorChallenge? {
        try row("""
            SELECT digest, accountId, rememberMe, kind, bindingDigest, expiresAt FROM secondFactorChallenge
            WHERE digest = ? AND usedAt IS NULL AND expiresAt > ?
            """, [digest, now.timeIntervalSince1970]).map { row in
            StoredSecondFactorChallenge(digest: try row.decode("digest"), accountId: try row.decode("accountId"),
                                        rememberMe: try row.decode("rememberMe"),
                                        kind: SessionKind(rawValue: try row.decode("kind")) ?? .browser,
                                        bindingDigest: try row.decode("bindingDigest"), expiresAt: try row.decode("expiresAt"))
        }
    }

    /// Uses the challenge up; false when it was used meanwhile or has expired (the conditional UPDATE decides).
    func markSecondFactorChallengeUsed(digest: Data, now: Date) throws -> Bool {
        try execute("UPDATE secondFactorChallenge SET usedAt = ? WHERE digest = ? AND usedAt IS NULL AND expiresAt > ?",
                    [now.timeIntervalSince1970, digest, now.timeIntervalSince1970]) == 1
    }

    /// Deletes the account's challenges that can no longer be used (used or expired at `now`), as a new one is made.
    func deleteSpentSecondFactorChallenges(accountId: Int64, now: Date) throws {
        try execute("DELETE FROM secondFactorChallenge WHERE accountId = ? AND (usedAt IS NOT NULL OR expiresAt <= ?)",
                    [accountId, now.timeIntervalSince1970])
    }

    /// Deletes at most `limit` challenges that expired at or before `now` (the pruner's batch); returns how many went.
    func deleteExpiredSecondFactorChallenges(now: Date, limit: Int) throws -> Int {
        try execute(Self.endedBatchSQL(.secondFactorChallenges), [now, limit])
    }

    /// Raises the session `digest` of `accountId` to two factors and counts it as a recent sign-in (a step-up proves
    /// the person is there now). False when the session is gone or is not the account's.
    func raiseSessionFactors(digest: Data, of accountId: Int64, at now: Date) throws -> Bool {
        sessionsChanged(.session(digest))
        return try execute("UPDATE session SET factors = 2, authenticatedAt = ? WHERE digest = ? AND accountId = ?",
                           [now.timeIntervalSince1970, digest, accountId]) == 1
    }

    /// The session's account and how many factors proved it, live or not; nil when the session is gone.
    func sessionFactors(digest: Data) throws -> (accountId: Int64, factors: Int)? {
        try row("SELECT accountId, factors FROM session WHERE digest = ?", [digest])
            .map { (accountId: try $0.decode("accountId"), factors: try $0.decode("factors")) }
    }
}
