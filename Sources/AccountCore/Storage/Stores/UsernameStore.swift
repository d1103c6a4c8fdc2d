// UsernameStore.swift: store operations on `account.username` (Usernames.swift says what a username is).
//
// Options: none. Unique without case by the index `account_username` on `lower(username)` (v15-usernames): the
// loser of a race gets `StorageError.uniqueViolation`, caught here in a savepoint so the transaction goes on.
import AccountRules
import Foundation

extension Transaction {
    /// The account's username; nil when it has none yet (made by an older host) or the account is gone.
    func username(of accountId: Int64) throws -> String? {
        try value(String.self, "SELECT username FROM account WHERE id = ?", [accountId])
    }

    /// The account's username ("" when it has none yet) and display name; nil when the account is gone.
    func names(of accountId: Int64) throws -> (username: String, displayName: String)? {
        try row("SELECT username, displayName FROM account WHERE id = ?", [accountId]).map { row in
            ((row["username"] as String?) ?? "", try row.decode("displayName"))
        }
    }

    /// Sets the account's display name (a sign-up that sent one); the value must follow the profile's rule.
    func setDisplayName(_ displayName: String, of accountId: Int64) throws {
        try execute("UPDATE account SET displayName = ? WHERE id = ?", [displayName, accountId])
    }

    /// The id of the account whose username is `name`, compared without case.
    func account(withUsername name: String) throws -> Int64? {
        try value(Int64.self, "SELECT id FROM account WHERE lower(username) = ?", [Username.key(name)])
    }

    /// Sets the account's username to `name` unless another account holds it (compared without case): false then,
    /// and nothing changed. Only when `onlyIfMissing`, an account that has one keeps it (false too).
    func setUsername(_ name: String, of accountId: Int64, onlyIfMissing: Bool = false) throws -> Bool {
        sessionsChanged(.account(accountId))   // the session lookup reads the username
        let sql = "UPDATE account SET username = ? WHERE id = ?" + (onlyIfMissing ? " AND username IS NULL" : "")
        do {
            return try savepoint { try execute(sql, [name, accountId]) } == 1
        } catch StorageError.uniqueViolation {
            return false
        }
    }

    /// Which of `names` accounts hold, as their lower-cased keys (one indexed probe per name).
    func takenUsernames(_ names: [String]) throws -> Set<String> {
        guard !names.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let keys = SQLArguments(names.map { Username.key($0) as (any SQLBindable)? })
        return Set(try values(String.self, "SELECT lower(username) AS taken FROM account WHERE lower(username) IN (\(marks))", keys))
    }

    /// Up to `limit` accounts without a username (made before v15-usernames, or by an older host since), with their
    /// primary address ("" when they have none), by the index `account_withoutUsername`.
    func accountsWithoutUsername(limit: Int) throws -> [(id: Int64, address: String)] {
        try rows("""
            SELECT a.id, COALESCE(e.address, '') AS address FROM account a
            LEFT JOIN emailAddress e ON e.accountId = a.id AND e.isPrimary
            WHERE a.username IS NULL ORDER BY a.id LIMIT ?
            """, [limit]).map { (try $0.decode("id"), try $0.decode("address")) }
    }
}
