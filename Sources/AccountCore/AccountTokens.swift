// AccountTokens.swift: single-use, expiring tokens for mail links (confirmation, password reset); only digests stored.
import Foundation
import GRDB

/// Issues and redeems the tokens mailed to people. Redeeming is one conditional UPDATE, so a token
/// used by two requests at once succeeds for exactly one.
struct AccountTokens: Sendable {
    enum Purpose: String, Sendable { case confirmation, reset }

    /// What a redeemed token was for.
    struct Redeemed: Sendable { var accountId: Int64; var emailAddressId: Int64? }

    let clock: any Clock
    let random: any RandomSource

    /// A new token for `purpose`, valid for `lifetime` seconds.
    func issue(_ purpose: Purpose, accountId: Int64, emailAddressId: Int64?, lifetime: TimeInterval, in db: Database) throws -> SecretToken {
        let token = SecretToken(random: random)
        let now = clock.now().timeIntervalSince1970
        try db.execute(sql: """
            INSERT INTO accountToken (digest, purpose, accountId, emailAddressId, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [token.digest, purpose.rawValue, accountId, emailAddressId, now, now + lifetime])
        return token
    }

    /// Marks the token used and returns what it was for; nil when unknown, already used or expired.
    func redeem(_ encoded: String, purpose: Purpose, in db: Database) throws -> Redeemed? {
        guard let token = SecretToken(encoded: encoded) else { return nil }
        let now = clock.now().timeIntervalSince1970
        try db.execute(sql: """
            UPDATE accountToken SET usedAt = ? WHERE digest = ? AND purpose = ? AND usedAt IS NULL AND expiresAt > ?
            """, arguments: [now, token.digest, purpose.rawValue, now])
        guard db.changesCount == 1 else { return nil }
        return try Row.fetchOne(db, sql: "SELECT accountId, emailAddressId FROM accountToken WHERE digest = ?",
                                arguments: [token.digest]).map { Redeemed(accountId: $0[0], emailAddressId: $0[1]) }
    }

    /// True when the token exists, is unused and unexpired (nothing is changed).
    func isRedeemable(_ encoded: String, purpose: Purpose, in db: Database) throws -> Bool {
        guard let token = SecretToken(encoded: encoded) else { return false }
        return try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM accountToken WHERE digest = ? AND purpose = ? AND usedAt IS NULL AND expiresAt > ?)
            """, arguments: [token.digest, purpose.rawValue, clock.now().timeIntervalSince1970]) ?? false
    }

    /// Voids every outstanding token of `purpose` for the account.
    func voidAll(_ purpose: Purpose, accountId: Int64, in db: Database) throws {
        try db.execute(sql: "UPDATE accountToken SET usedAt = ? WHERE accountId = ? AND purpose = ? AND usedAt IS NULL",
                       arguments: [clock.now().timeIntervalSince1970, accountId, purpose.rawValue])
    }
}
