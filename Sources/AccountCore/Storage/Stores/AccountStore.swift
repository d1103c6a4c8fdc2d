// AccountStore.swift: store operations on accounts and their addresses (tables `account`, `emailAddress`): the records'
// row decoding, the account + primary address insert, address lookups, confirmation, and what a password change or
// reset does to an account's row and sessions. Deletion and the operator's listings are in AccountStore+Administration.
//
// Options: none. Portable SQL only (see Storage/Transaction.swift); times are seconds since 1970 (`Double`/`Date`).
import AccountRules
import Foundation

extension Account {
    /// An `account` row (at least id, passwordHash, createdAt, updatedAt, language).
    init(row: SQLRow) throws {
        self.init(id: try row.decode("id"), passwordHash: try row.decode("passwordHash"), createdAt: try row.decode("createdAt"),
                  updatedAt: try row.decode("updatedAt"), language: row["language"])
    }
}

extension EmailAddress {
    /// The columns `init(row:)` reads, named: a statement kept prepared on a PostgreSQL connection keeps working when a
    /// later version adds a column to the table (a whole-row one would fail until the host restarts).
    static let columns = "id, accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt"

    /// An `emailAddress` row (`columns`).
    init(row: SQLRow) throws {
        self.init(id: try row.decode("id"), accountId: try row.decode("accountId"), address: try row.decode("address"),
                  normalizedAddress: try row.decode("normalizedAddress"), isPrimary: try row.decode("isPrimary"),
                  verifiedAt: row["verifiedAt"], createdAt: try row.decode("createdAt"))
    }
}

extension Transaction {
    // MARK: - Accounts and their addresses

    /// Inserts an account and its primary address `address` (verified at `now` when `verified`); returns both ids.
    /// One account per address holds by the unique index on `emailAddress.normalizedAddress` (the loser of a race gets
    /// `StorageError.uniqueViolation`).
    func insertAccount(address: String, passwordHash: String, verified: Bool, language: String?, now: Date) throws -> (account: Int64, address: Int64) {
        let account = try insert("INSERT INTO account (passwordHash, createdAt, updatedAt, language) VALUES (?, ?, ?, ?) RETURNING id",
                                 [passwordHash, now, now, language])
        let email = try insert("""
            INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt)
            VALUES (?, ?, ?, TRUE, ?, ?) RETURNING id
            """, [account, address, EmailFormat.normalized(address), verified ? now : nil, now])
        return (account, email)
    }

    /// The address row holding `address` (any account, verified or not), compared normalized.
    func emailAddress(holding address: String) throws -> EmailAddress? {
        try row("SELECT \(EmailAddress.columns) FROM emailAddress WHERE normalizedAddress = ?", [EmailFormat.normalized(address)]).map(EmailAddress.init(row:))
    }

    /// The account's primary address as entered; nil when the account is gone.
    func primaryAddress(of accountId: Int64) throws -> String? {
        try value(String.self, "SELECT address FROM emailAddress WHERE accountId = ? AND isPrimary", [accountId])
    }

    /// Whether an account with this id exists.
    func accountExists(_ accountId: Int64) throws -> Bool {
        try value(Bool.self, "SELECT EXISTS (SELECT 1 FROM account WHERE id = ?) AS found", [accountId]) ?? false
    }

    /// The account's language preference; nil when it follows the browser or the account is gone.
    func accountLanguage(_ accountId: Int64) throws -> String? {
        try value(String.self, "SELECT language FROM account WHERE id = ?", [accountId])
    }

    /// How many accounts the client address group `addressGroup` created after `since` (the audit trail's sign-ups).
    func countSignUps(addressGroup: String, since: Double) throws -> Int {
        try value(Int.self, "SELECT COUNT(*) AS signUps FROM audit WHERE event = 'sign_up' AND createdAt > ? AND addressGroup = ?",
                  [since, addressGroup]) ?? 0
    }

    // MARK: - Confirmation

    /// Marks address `id` verified (keeping an earlier verification time) and returns it with its
    /// "make primary once verified" flag; nil when the address is gone.
    func markAddressVerified(id: Int64, at now: Date) throws -> (email: EmailAddress, makePrimaryOnVerify: Bool)? {
        try execute("UPDATE emailAddress SET verifiedAt = COALESCE(verifiedAt, ?) WHERE id = ?", [now, id])
        guard let found = try row("SELECT \(EmailAddress.columns), makePrimaryOnVerify FROM emailAddress WHERE id = ?", [id]) else { return nil }
        sessionsChanged(.account(try found.decode("accountId")))   // the lookup says whether the primary address is verified
        return (try EmailAddress(row: found), try found.decode("makePrimaryOnVerify"))
    }

    /// Marks every unverified address of the account verified at `now`; returns them as entered, oldest first.
    func markAllAddressesVerified(of accountId: Int64, at now: Date) throws -> [String] {
        let pending = try values(String.self, "SELECT address FROM emailAddress WHERE accountId = ? AND verifiedAt IS NULL ORDER BY id",
                                 [accountId])
        try execute("UPDATE emailAddress SET verifiedAt = ? WHERE accountId = ? AND verifiedAt IS NULL", [now, accountId])
        sessionsChanged(.account(accountId))   // the lookup says whether the primary address is verified
        return pending
    }

    // MARK: - Passwords and the sessions they end

    /// Whether the account has a password (one made through a provider has none); nil when the account is gone.
    func accountHasPassword(_ accountId: Int64) throws -> Bool? {
        try value(Bool.self, "SELECT CASE WHEN passwordHash <> '' THEN 1 ELSE 0 END AS hasPassword FROM account WHERE id = ?", [accountId])
    }

    /// Stores `passwordHash` as the account's password; with `onlyIfUnset`, only while it has none. True when the row
    /// changed (false: no such account, or a password appeared meanwhile: the conditional UPDATE decides the winner).
    func setPasswordHash(_ passwordHash: String, of accountId: Int64, at now: Date, onlyIfUnset: Bool = false) throws -> Bool {
        try execute("UPDATE account SET passwordHash = ?, updatedAt = ? WHERE id = ?" + (onlyIfUnset ? " AND passwordHash = ''" : ""),
                    [passwordHash, now, accountId]) == 1
    }

    /// Whether session `digest` exists and belongs to the account (live or not).
    func sessionBelongs(digest: Data, to accountId: Int64) throws -> Bool {
        try value(Bool.self, "SELECT EXISTS (SELECT 1 FROM session WHERE digest = ? AND accountId = ?) AS found", [digest, accountId]) ?? false
    }
}

