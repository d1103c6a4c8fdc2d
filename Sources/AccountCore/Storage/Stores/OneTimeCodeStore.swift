// OneTimeCodeStore.swift: the `oneTimeCode` row (an account's RFC 6238 secret, sealed) and its `recoveryCode` rows, as
// Credentials/OneTimeCodes.swift reads and writes them.
//
// Options: none. Every "used once" rule is a conditional UPDATE whose changed-row count is the answer: a step is taken
// by moving `lastUsedStep` forward only when it is behind (`lastUsedStep < ?`), a recovery code by setting `usedAt` only
// while it is NULL; two hosts taking the same code at once both run the statement and exactly one changes the row.
// Times are seconds since 1970; steps are RFC 6238 time steps (Unix time / 30).
import Foundation

/// An account's stored one-time-code secret.
struct StoredOneTimeCode: Sendable {
    var sealedSecret: Data
    var confirmedAt: Date?
    var lastUsedStep: Int64

    init(row: SQLRow) throws {
        sealedSecret = try row.decode("sealedSecret")
        confirmedAt = row["confirmedAt"]
        lastUsedStep = try row.decode("lastUsedStep")
    }
}

extension Transaction {
    /// The account's secret (confirmed or not), or nil when it has none.
    func oneTimeCode(accountId: Int64) throws -> StoredOneTimeCode? {
        try row("SELECT sealedSecret, confirmedAt, lastUsedStep FROM oneTimeCode WHERE accountId = ?", [accountId])
            .map(StoredOneTimeCode.init(row:))
    }

    /// Whether the account has a confirmed secret.
    func hasConfirmedOneTimeCode(accountId: Int64) throws -> Bool {
        try value(Bool.self, "SELECT EXISTS (SELECT 1 FROM oneTimeCode WHERE accountId = ? AND confirmedAt IS NOT NULL) AS enrolled",
                  [accountId]) ?? false
    }

    /// Stores a new unconfirmed secret for the account, replacing an unconfirmed one; a confirmed one is left as it is
    /// (returns false then: the account must turn codes off first).
    func beginOneTimeCode(accountId: Int64, sealedSecret: Data, now: Date) throws -> Bool {
        try execute("""
            INSERT INTO oneTimeCode (accountId, sealedSecret, createdAt, confirmedAt, lastUsedStep) VALUES (?, ?, ?, NULL, 0)
            ON CONFLICT (accountId) DO UPDATE SET sealedSecret = excluded.sealedSecret, createdAt = excluded.createdAt, lastUsedStep = 0
                WHERE oneTimeCode.confirmedAt IS NULL
            """, [accountId, sealedSecret, now]) == 1
    }

    /// Confirms the account's unconfirmed secret with a code of `step`; false when there is none (or it was confirmed
    /// meanwhile, or that step was used).
    func confirmOneTimeCode(accountId: Int64, step: Int64, now: Date) throws -> Bool {
        try execute("""
            UPDATE oneTimeCode SET confirmedAt = ?, lastUsedStep = ? WHERE accountId = ? AND confirmedAt IS NULL AND lastUsedStep < ?
            """, [now, step, accountId, step]) == 1
    }

    /// Takes `step` for the account's confirmed secret: true for exactly one caller, and only when no step at or after
    /// it was taken before (the replay guard).
    func useOneTimeCodeStep(accountId: Int64, step: Int64) throws -> Bool {
        try execute("UPDATE oneTimeCode SET lastUsedStep = ? WHERE accountId = ? AND confirmedAt IS NOT NULL AND lastUsedStep < ?",
                    [step, accountId, step]) == 1
    }

    /// Removes the account's secret and recovery codes; true when there was a confirmed secret.
    func deleteOneTimeCode(accountId: Int64) throws -> Bool {
        let confirmed = try hasConfirmedOneTimeCode(accountId: accountId)
        try execute("DELETE FROM recoveryCode WHERE accountId = ?", [accountId])
        try execute("DELETE FROM oneTimeCode WHERE accountId = ?", [accountId])
        return confirmed
    }

    // MARK: Recovery codes

    /// Replaces every recovery code of the account with these digests.
    func replaceRecoveryCodes(accountId: Int64, digests: [Data], now: Date) throws {
        try execute("DELETE FROM recoveryCode WHERE accountId = ?", [accountId])
        for digest in digests {
            try execute("INSERT INTO recoveryCode (accountId, digest, createdAt, usedAt) VALUES (?, ?, ?, NULL)", [accountId, digest, now])
        }
    }

    /// Uses the account's unused recovery code with `digest`: true for exactly one caller.
    func useRecoveryCode(accountId: Int64, digest: Data, now: Date) throws -> Bool {
        try execute("UPDATE recoveryCode SET usedAt = ? WHERE accountId = ? AND digest = ? AND usedAt IS NULL", [now, accountId, digest]) == 1
    }

    /// How many unused recovery codes the account has.
    func unusedRecoveryCodeCount(accountId: Int64) throws -> Int {
        try value(Int.self, "SELECT COUNT(*) FROM recoveryCode WHERE accountId = ? AND usedAt IS NULL", [accountId]) ?? 0
    }
}
