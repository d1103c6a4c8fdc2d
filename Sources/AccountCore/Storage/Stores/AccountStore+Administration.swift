// AccountStore+Administration.swift: store operations for deleting an account (its row, its unsent mail, the trail's
// addresses) and for the operator's listings and changes (`frontdoor user …`, `frontdoor sessions …`).
//
// Options: none. Portable SQL only (see Storage/Transaction.swift). A live session is one before its absolute expiry
// and, unless remembered, seen after `idleSince` (as `Sessions.isLive`).
import AccountRules
import Foundation

extension AccountSummary {
    /// A row of `AccountSummary.selectSQL`; `lockedUntil` as stored (the caller drops a lock that has ended).
    init(row: SQLRow) throws {
        self.init(id: try row.decode("id"), email: try row.decode("email"), username: row["username"], confirmed: try row.decode("confirmed"),
                  lockedUntil: row["lockedUntil"], createdAt: try row.decode("createdAt"), lastSignIn: row["lastSignInAt"])
    }

    /// Accounts (`a`) with their primary address (`e`, none for an account being deleted).
    static let selectSQL = """
        SELECT a.id AS id, COALESCE(e.address, '') AS email, a.username AS username, e.verifiedAt IS NOT NULL AS confirmed,
               a.lockedUntil AS lockedUntil,
               a.createdAt AS createdAt, a.lastSignInAt AS lastSignInAt
        FROM account a LEFT JOIN emailAddress e ON e.accountId = a.id AND e.isPrimary

        """
}

extension Transaction {
    // MARK: - Deletion

    /// Deletes the account's row (addresses, sessions, tokens, profile values and failed sign-ins go by cascade);
    /// false when there is no such account.
    /// Its OpenID grants end first (`at`), queueing their back-channel logouts, which outlive the account.
    func deleteAccountRow(_ accountId: Int64, at now: Date) throws -> Bool {
        sessionsChanged(.account(accountId))
        try endOpenIDGrants(where: "accountId = ?", [accountId], at: now)
        return try execute("DELETE FROM account WHERE id = ?", [accountId]) == 1
    }

    /// Deletes the unsent mail queued for `recipientKey` (MailQueue's key: the address in lower case).
    func deleteUnsentMail(recipientKey: String) throws {
        try execute("DELETE FROM mailQueue WHERE sentAt IS NULL AND recipientKey = ?", [recipientKey])
    }

    /// Removes `address` (any case) from the audit rows that name it without an account.
    func forgetAuditAddress(_ address: String) throws {
        try execute("UPDATE audit SET email = NULL WHERE accountId IS NULL AND lower(email) = lower(?)", [address])
    }

    /// Removes the address from every audit row of the account (its id stays, as an anonymous id).
    func forgetAuditAddresses(of accountId: Int64) throws {
        try execute("UPDATE audit SET email = NULL WHERE accountId = ?", [accountId])
    }

    // MARK: - The operator's listings

    /// Accounts in id order, at most `limit`; with `search`, those with an address containing it (without case).
    func accountSummaries(search: String?, limit: Int) throws -> [AccountSummary] {
        guard let search else {
            return try rows(AccountSummary.selectSQL + "ORDER BY a.id LIMIT ?", [max(0, limit)]).map(AccountSummary.init(row:))
        }
        // Both sides are normalized (lower case); `\` escapes LIKE's wildcards in the search text.
        let pattern = "%" + EmailFormat.normalized(search).replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
        return try rows(AccountSummary.selectSQL + """
            WHERE EXISTS (SELECT 1 FROM emailAddress s WHERE s.accountId = a.id AND s.normalizedAddress LIKE ? ESCAPE '\\')
            ORDER BY a.id LIMIT ?
            """, [pattern, max(0, limit)]).map(AccountSummary.init(row:))
    }

    /// The account `accountId` as `accountSummaries` lists it; nil when there is none.
    func accountSummary(_ accountId: Int64) throws -> AccountSummary? {
        try row(AccountSummary.selectSQL + "WHERE a.id = ?", [accountId]).map(AccountSummary.init(row:))
    }

    /// How many sessions of the account are live at `now`.
    func countLiveSessions(of accountId: Int64, now: Double, idleSince: Double) throws -> Int {
        try value(Int.self, "SELECT COUNT(*) AS live FROM session WHERE accountId = ? AND " + Self.liveSQL(),
                  [accountId, now, idleSince]) ?? 0
    }

    /// The live sessions whose digest, in lower-case hex, starts with `hexPrefix` (hex digits only).
    func liveSessions(hexPrefix: String, now: Double, idleSince: Double) throws -> [(digest: Data, accountId: Int64)] {
        // A hex prefix is a range of digests: [prefix padded with 0s, prefix + 1 padded), compared bytewise on both backends.
        let (low, high) = Self.digestRange(hexPrefix: hexPrefix)
        let upper = high == nil ? "" : "AND digest < ? "
        let arguments: SQLArguments = high == nil ? [low, now, idleSince] : [low, high, now, idleSince]
        return try rows("SELECT digest, accountId FROM session WHERE digest >= ? \(upper)AND " + Self.liveSQL(), arguments).map { row in
            (try row.decode("digest"), try row.decode("accountId"))
        }
    }

    /// The condition of a live session (two parameters: now, then idleSince); `alias` prefixes the columns.
    static func liveSQL(_ alias: String = "") -> String {
        "\(alias)expiresAt > ? AND (\(alias)rememberMe OR \(alias)lastSeenAt > ?)"
    }

    /// The digests whose hex starts with `hexPrefix`: from `low` (inclusive) to `high` (exclusive; nil: no upper end,
    /// when the prefix is all f's).
    static func digestRange(hexPrefix: String) -> (low: Data, high: Data?) {
        var digits = Array(hexPrefix.lowercased())
        let low = bytes(digits)
        while let last = digits.last, last == "f" { digits.removeLast() }
        guard let last = digits.popLast(), let value = last.hexDigitValue else { return (low, nil) }
        digits.append(Character(String(value + 1, radix: 16)))
        return (low, bytes(digits))
    }

    /// Hex digits as bytes, an odd count padded with a final 0.
    private static func bytes(_ digits: [Character]) -> Data {
        let even = digits.count % 2 == 0 ? digits : digits + ["0"]
        return Data(stride(from: 0, to: even.count, by: 2).map { UInt8(String(even[$0...$0 + 1]), radix: 16) ?? 0 })
    }
}
