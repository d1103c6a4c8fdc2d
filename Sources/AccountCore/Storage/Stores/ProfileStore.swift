// ProfileStore.swift: the profile's columns of `account` (displayName, language) and the `profileValue` table (one row
// per filled declared field).
//
// A unique declared field keeps its lower-cased value in `uniqueValue`; the unique index `profileValue_unique`
// (field, uniqueValue) refuses a second account's value even when two requests race (`StorageError.uniqueViolation`).
import Foundation

extension Transaction {
    /// The account's display name and preferred language; nil when the account does not exist.
    func profileHeader(of accountId: Int64) throws -> (displayName: String, language: String?)? {
        try row("SELECT displayName, language FROM account WHERE id = ?", [accountId]).map { row in
            (try row.decode("displayName"), row["language"])
        }
    }

    /// The account's stored profile values by field name (fields no longer declared included).
    func profileValues(of accountId: Int64) throws -> [String: String] {
        var values: [String: String] = [:]
        for row in try rows("SELECT field, value FROM profileValue WHERE accountId = ?", [accountId]) {
            let field: String = try row.decode("field")
            values[field] = try row.decode("value", as: String.self)
        }
        return values
    }

    /// Sets the account's display name and language, and its `updatedAt`.
    func updateProfileHeader(of accountId: Int64, displayName: String, language: String?, updatedAt: Double) throws {
        try execute("UPDATE account SET displayName = ?, language = ?, updatedAt = ? WHERE id = ?",
                    [displayName, language, updatedAt, accountId])
    }

    /// The account's preferred language; nil when it follows the browser or the account is gone.
    func profileLanguage(of accountId: Int64) throws -> String? {
        try value(String.self, "SELECT language FROM account WHERE id = ?", [accountId])
    }

    /// Makes `language` the account's preferred language.
    func setProfileLanguage(_ language: String, of accountId: Int64) throws {
        try execute("UPDATE account SET language = ? WHERE id = ?", [language, accountId])
    }

    /// Whether an account other than `accountId` (any account when nil) holds `uniqueValue` for the unique field `field`.
    func isProfileValueTaken(field: String, uniqueValue: String, byOtherThan accountId: Int64?) throws -> Bool {
        if let accountId {
            return try value(Bool.self, """
                SELECT EXISTS (SELECT 1 FROM profileValue WHERE field = ? AND uniqueValue = ? AND accountId <> ?) AS taken
                """, [field, uniqueValue, accountId]) ?? false
        }
        return try value(Bool.self, "SELECT EXISTS (SELECT 1 FROM profileValue WHERE field = ? AND uniqueValue = ?) AS taken",
                         [field, uniqueValue]) ?? false
    }

    /// Stores the account's value of `field` (and, for a unique field, its `uniqueValue`), replacing the one it had.
    /// `StorageError.uniqueViolation` when another account holds `uniqueValue` for the field.
    func storeProfileValue(accountId: Int64, field: String, value: String, uniqueValue: String?) throws {
        try execute("""
            INSERT INTO profileValue (accountId, field, value, uniqueValue) VALUES (?, ?, ?, ?)
            ON CONFLICT (accountId, field) DO UPDATE SET value = excluded.value, uniqueValue = excluded.uniqueValue
            """, [accountId, field, value, uniqueValue])
    }

    /// Deletes the account's value of `field`, if any.
    func deleteProfileValue(accountId: Int64, field: String) throws {
        try execute("DELETE FROM profileValue WHERE accountId = ? AND field = ?", [accountId, field])
    }
}
