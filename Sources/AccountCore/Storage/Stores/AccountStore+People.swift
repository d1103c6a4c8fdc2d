// AccountStore+People.swift: store operations for the admin pages' people list (a page of accounts found by any of
// their addresses, their username or display name, with what the list shows of each) and a person's page (the
// addresses of the admins named in its audit rows).
//
// Options: none. Portable SQL only (see Storage/Transaction.swift): no ILIKE; addresses are matched on their stored
// normalized (lower-case) form, username and display name with `lower(x) LIKE lower(?)` (each backend lowers both
// sides alike: SQLite only folds ASCII, so a non-ASCII letter there matches in its own case only). LIMIT/OFFSET
// paging in id order (oldest first): a page is a read, so an account made between two pages shifts nothing before it.
// The groups of a page's accounts are read in one statement, not one per row.
import AccountRules
import Foundation

/// One row of the admin people list.
public struct PersonSummary: Sendable, Equatable {
    /// Id, primary address, username, confirmed, locked until (as stored: the caller drops an ended lock), last sign-in.
    public var account: AccountSummary
    public var displayName: String
    /// Group names, sorted without case.
    public var groups: [String]
    /// Confirmed one-time codes (two-step sign-in) are on.
    public var oneTimeCodes: Bool
    public var passkeys: Int
}

extension Transaction {
    /// Accounts in id order from `offset`, at most `limit`; with `search`, those with an address, username or display
    /// name containing it (without case). Each with its groups and second factors.
    func personSummaries(search: String?, limit: Int, offset: Int) throws -> [PersonSummary] {
        var sql = """
            SELECT a.id AS id, COALESCE(e.address, '') AS email, a.username AS username, e.verifiedAt IS NOT NULL AS confirmed,
                   a.lockedUntil AS lockedUntil, a.createdAt AS createdAt, a.lastSignInAt AS lastSignInAt, a.displayName AS displayName,
                   EXISTS (SELECT 1 FROM oneTimeCode o WHERE o.accountId = a.id AND o.confirmedAt IS NOT NULL) AS oneTimeCodes,
                   (SELECT COUNT(*) FROM passkey p WHERE p.accountId = a.id) AS passkeys
            FROM account a LEFT JOIN emailAddress e ON e.accountId = a.id AND e.isPrimary

            """
        var arguments: [(any SQLBindable)?] = []
        if let search, !search.trimmingWhitespace().isEmpty {
            let text = search.trimmingWhitespace()
            sql += """
                WHERE EXISTS (SELECT 1 FROM emailAddress s WHERE s.accountId = a.id AND s.normalizedAddress LIKE ? ESCAPE '\\')
                   OR lower(a.username) LIKE lower(?) ESCAPE '\\' OR lower(a.displayName) LIKE lower(?) ESCAPE '\\'

                """
            arguments += [Self.containsPattern(EmailFormat.normalized(text)), Self.containsPattern(text), Self.containsPattern(text)]
        }
        sql += "ORDER BY a.id LIMIT ? OFFSET ?"
        arguments += [max(0, limit), max(0, offset)]
        let found = try rows(sql, SQLArguments(arguments)).map { row in
            PersonSummary(account: try AccountSummary(row: row), displayName: (row["displayName"] as String?) ?? "", groups: [],
                          oneTimeCodes: try row.decode("oneTimeCodes"), passkeys: Int(try row.decode("passkeys") as Int64))
        }
        let groups = try groupNames(of: found.map(\.account.id))
        return found.map { person in
            var person = person
            person.groups = groups[person.account.id] ?? []
            return person
        }
    }

    /// The group names of each of `accountIds` (sorted without case), in one statement.
    func groupNames(of accountIds: [Int64]) throws -> [Int64: [String]] {
        guard !accountIds.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: accountIds.count).joined(separator: ", ")
        var names: [Int64: [String]] = [:]
        for row in try rows("""
            SELECT m.accountId AS accountId, g.name AS name FROM groupMember m JOIN accountGroup g ON g.id = m.groupId
            WHERE m.accountId IN (\(marks)) ORDER BY g.normalizedName
            """, SQLArguments(accountIds.map { $0 as (any SQLBindable)? })) {
            names[try row.decode("accountId"), default: []].append(try row.decode("name"))
        }
        return names
    }

    /// The primary address of each of `accountIds` that still has one, in one statement (a page's worth of ids: the
    /// people list's, a person's audit rows' admins, an audit page's accounts), not one per row; ids of deleted
    /// accounts find nothing.
    func primaryAddresses(of accountIds: [Int64]) throws -> [Int64: String] {
        guard !accountIds.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: accountIds.count).joined(separator: ", ")
        var addresses: [Int64: String] = [:]
        for row in try rows("SELECT accountId, address FROM emailAddress WHERE isPrimary AND accountId IN (\(marks))",
                            SQLArguments(accountIds.map { $0 as (any SQLBindable)? })) {
            addresses[try row.decode("accountId")] = try row.decode("address")
        }
        return addresses
    }

    /// `%text%` for LIKE with `\` escaping LIKE's wildcards and itself in `text`.
    static func containsPattern(_ text: String) -> String {
        "%" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}
