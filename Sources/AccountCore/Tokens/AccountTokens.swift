// AccountTokens.swift: single-use, expiring tokens for mail links (confirmation, password reset); only digests stored.
import Foundation

/// Issues and redeems the tokens mailed to people. Redeeming is one conditional UPDATE (TokenStore.redeemToken), so a
/// token used by two requests at once succeeds for exactly one.
struct AccountTokens: Sendable {
    enum Purpose: String, Sendable { case confirmation, reset }

    /// What a redeemed token was for.
    struct Redeemed: Sendable { var accountId: Int64; var emailAddressId: Int64? }

    let clock: any Clock
    let random: any RandomSource

    /// A new token for `purpose`, valid for `lifetime` seconds.
    func issue(_ purpose: Purpose, accountId: Int64, emailAddressId: Int64?, lifetime: TimeInterval, in tx: Transaction) throws -> SecretToken {
        let token = SecretToken(random: random)
        let now = clock.now()
        try tx.insertAccountToken(digest: token.digest, purpose: purpose, accountId: accountId, emailAddressId: emailAddressId,
                                  createdAt: now, expiresAt: now + lifetime)
        return token
    }

    /// Marks the token used and returns what it was for; nil when unknown, already used or expired.
    func redeem(_ encoded: String, purpose: Purpose, in tx: Transaction) throws -> Redeemed? {
        guard let token = SecretToken(encoded: encoded) else { return nil }
        return try tx.redeemToken(digest: token.digest, purpose: purpose, now: clock.now())
    }

    /// True when the token exists, is unused and unexpired (nothing is changed).
    func isRedeemable(_ encoded: String, purpose: Purpose, in tx: Transaction) throws -> Bool {
        guard let token = SecretToken(encoded: encoded) else { return false }
        return try tx.isTokenRedeemable(digest: token.digest, purpose: purpose, now: clock.now())
    }

    /// The account of the token while it can be redeemed (nothing is changed); nil otherwise.
    func account(of encoded: String, purpose: Purpose, in tx: Transaction) throws -> Int64? {
        guard let token = SecretToken(encoded: encoded) else { return nil }
        return try tx.redeemableTokenAccount(digest: token.digest, purpose: purpose, now: clock.now())
    }

    /// Voids every outstanding token of `purpose` for the account.
    func voidAll(_ purpose: Purpose, accountId: Int64, in tx: Transaction) throws {
        try tx.voidAccountTokens(purpose, accountId: accountId, now: clock.now())
    }
}
