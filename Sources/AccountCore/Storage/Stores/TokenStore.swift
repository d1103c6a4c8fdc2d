// TokenStore.swift: the store operations on `accountToken`: the single-use, expiring tokens of mail links
// (confirmation, password reset). Only a token's SHA-256 digest is stored; the digest is the primary key.
//
// Options: none. Redemption is single-winner on both backends: one conditional UPDATE (`… AND usedAt IS NULL`) whose
// changed-row count decides; PostgreSQL makes a second concurrent UPDATE wait for the first and re-check the condition.
import Foundation

extension Transaction {
    /// Stores a new token for `purpose`, valid from `createdAt` until `expiresAt`.
    func insertAccountToken(digest: Data, purpose: AccountTokens.Purpose, accountId: Int64, emailAddressId: Int64?,
                            createdAt: Date, expiresAt: Date) throws {
        try execute("""
            INSERT INTO accountToken (digest, purpose, accountId, emailAddressId, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?)
            """, [digest, purpose.rawValue, accountId, emailAddressId, createdAt.timeIntervalSince1970, expiresAt.timeIntervalSince1970])
    }

    /// Marks the token used at `now` when it is of `purpose`, unused and unexpired, and returns what it was for; nil
    /// otherwise. Exactly one caller wins a token: the conditional UPDATE's changed-row count decides.
    func redeemToken(digest: Data, purpose: AccountTokens.Purpose, now: Date) throws -> AccountTokens.Redeemed? {
        let at = now.timeIntervalSince1970
        let changed = try execute("""
            UPDATE accountToken SET usedAt = ? WHERE digest = ? AND purpose = ? AND usedAt IS NULL AND expiresAt > ?
            """, [at, digest, purpose.rawValue, at])
        guard changed == 1 else { return nil }
        return try row("SELECT accountId, emailAddressId FROM accountToken WHERE digest = ?", [digest]).map { row in
            AccountTokens.Redeemed(accountId: try row.decode("accountId"), emailAddressId: row["emailAddressId"] as Int64?)
        }
    }

    /// True when the token exists for `purpose`, is unused and has not expired at `now` (nothing is changed).
    func isTokenRedeemable(digest: Data, purpose: AccountTokens.Purpose, now: Date) throws -> Bool {
        try value(Bool.self, """
            SELECT EXISTS (SELECT 1 FROM accountToken WHERE digest = ? AND purpose = ? AND usedAt IS NULL AND expiresAt > ?) AS redeemable
            """, [digest, purpose.rawValue, now.timeIntervalSince1970]) ?? false
    }

    /// The account of the token when it exists for `purpose`, is unused and has not expired at `now`; nil otherwise.
    func redeemableTokenAccount(digest: Data, purpose: AccountTokens.Purpose, now: Date) throws -> Int64? {
        try value(Int64.self, "SELECT accountId FROM accountToken WHERE digest = ? AND purpose = ? AND usedAt IS NULL AND expiresAt > ?",
                  [digest, purpose.rawValue, now.timeIntervalSince1970])
    }

    /// Marks every unused token of `purpose` for the account used at `now`.
    func voidAccountTokens(_ purpose: AccountTokens.Purpose, accountId: Int64, now: Date) throws {
        try execute("UPDATE accountToken SET usedAt = ? WHERE accountId = ? AND purpose = ? AND usedAt IS NULL",
                    [now.timeIntervalSince1970, accountId, purpose.rawValue])
    }
}
