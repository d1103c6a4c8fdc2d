// EmailAddressStore.swift: the `emailAddress` changes of EmailAddresses, its primary change and Residences: list and
// look up an account's addresses, add and remove one, switch the primary address, the verification flags
// (`verifiedAt`, `makePrimaryOnVerify`). The lookups by address any account holds (`EmailAddress.holding`,
// `primaryAddress`) and the account + primary address insert live in AccountStore (accounts).
//
// One primary address per account holds by the unique partial index `emailAddress_onePrimary` (accountId WHERE
// isPrimary), so `switchPrimaryAddress` clears before it sets; only a verified address becomes primary and the primary
// address is never deleted while its account exists (triggers, same on both backends). One account per address holds
// by the unique index on `normalizedAddress`.
import Foundation

extension Transaction {
    /// The columns an `EmailAddress` is read from.
    private static let emailAddressColumns = "id, accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt"

    /// Every address of the account, primary first, then in the order they were added.
    func emailAddresses(of accountId: Int64) throws -> [EmailAddress] {
        try rows("SELECT \(Self.emailAddressColumns) FROM emailAddress WHERE accountId = ? ORDER BY isPrimary DESC, id", [accountId])
            .map(EmailAddress.init(row:))
    }

    /// The account's address `id`, or nil when there is none or it is another account's.
    func emailAddress(id: Int64, of accountId: Int64) throws -> EmailAddress? {
        try row("SELECT \(Self.emailAddressColumns) FROM emailAddress WHERE id = ? AND accountId = ?", [id, accountId])
            .map(EmailAddress.init(row:))
    }

    /// The account's verified address whose normalized form is `normalizedAddress`, or nil.
    func verifiedEmailAddress(normalized normalizedAddress: String, of accountId: Int64) throws -> EmailAddress? {
        try row("""
            SELECT \(Self.emailAddressColumns) FROM emailAddress
            WHERE accountId = ? AND normalizedAddress = ? AND verifiedAt IS NOT NULL
            """, [accountId, normalizedAddress]).map(EmailAddress.init(row:))
    }

    /// How many addresses the account holds.
    func countEmailAddresses(of accountId: Int64) throws -> Int {
        try value(Int.self, "SELECT COUNT(*) AS n FROM emailAddress WHERE accountId = ?", [accountId]) ?? 0
    }

    /// How many verified addresses the account holds.
    func countVerifiedEmailAddresses(of accountId: Int64) throws -> Int {
        try value(Int.self, "SELECT COUNT(*) AS n FROM emailAddress WHERE accountId = ? AND verifiedAt IS NOT NULL", [accountId]) ?? 0
    }

    /// Adds `address` to the account, unverified and not primary; returns the new row. A unique violation
    /// (`StorageError.uniqueViolation`) when any account holds its normalized form already.
    func insertEmailAddress(_ address: String, normalized normalizedAddress: String, accountId: Int64, createdAt: Date) throws -> EmailAddress {
        let id = try insert("""
            INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt)
            VALUES (?, ?, ?, FALSE, NULL, ?) RETURNING id
            """, [accountId, address, normalizedAddress, createdAt.timeIntervalSince1970])
        return EmailAddress(id: id, accountId: accountId, address: address, normalizedAddress: normalizedAddress, isPrimary: false,
                            verifiedAt: nil, createdAt: Date(timeIntervalSince1970: createdAt.timeIntervalSince1970))
    }

    /// Deletes the address `id` (its pending links go with it: foreign keys). A trigger refuses the primary address.
    @discardableResult
    func deleteEmailAddress(id: Int64) throws -> Int {
        try execute("DELETE FROM emailAddress WHERE id = ?", [id])
    }

    /// Deletes the address `id` only while it is still a stale claim's: never verified and not primary (its owner may
    /// have confirmed it since it was read, under their own address lock, not the taker's); true when it went.
    func deleteUnverifiedClaim(id: Int64) throws -> Bool {
        try execute("DELETE FROM emailAddress WHERE id = ? AND verifiedAt IS NULL AND NOT isPrimary", [id]) == 1
    }

    /// Makes the account's verified address `addressId` its only primary address and drops any waiting primary change;
    /// false when that address is gone (removed meanwhile): the caller throws, so the clearing is undone too.
    /// Cleared first: `emailAddress_onePrimary` allows one primary address per account at any moment, so two concurrent
    /// switches cannot leave two (callers take turns on the account's address lock, so the second one clears the first's).
    func switchPrimaryAddress(of accountId: Int64, to addressId: Int64) throws -> Bool {
        sessionsChanged(.account(accountId))   // the lookup answers with the primary address
        try execute("""
            UPDATE emailAddress SET isPrimary = FALSE, makePrimaryOnVerify = FALSE
            WHERE accountId = ? AND (isPrimary OR makePrimaryOnVerify)
            """, [accountId])
        return try execute("UPDATE emailAddress SET isPrimary = TRUE WHERE id = ? AND accountId = ? AND verifiedAt IS NOT NULL",
                           [addressId, accountId]) == 1
    }

    /// Whether the address `id` waits to become primary when confirmed.
    func isMarkedPrimaryOnVerify(addressId id: Int64) throws -> Bool {
        try value(Bool.self, "SELECT makePrimaryOnVerify FROM emailAddress WHERE id = ?", [id]) ?? false
    }

    /// Marks the address `addressId` to become primary when confirmed and unmarks the account's other addresses.
    func markPrimaryOnVerify(addressId: Int64, of accountId: Int64) throws {
        try execute("""
            UPDATE emailAddress SET makePrimaryOnVerify = (id = ?) WHERE accountId = ? AND (makePrimaryOnVerify OR id = ?)
            """, [addressId, accountId, addressId])
    }

    /// Records the address `id` as verified at `date`.
    func markEmailAddressVerified(id: Int64, at date: Date) throws {
        if let accountId = try value(Int64.self, "SELECT accountId FROM emailAddress WHERE id = ?", [id]) {
            sessionsChanged(.account(accountId))   // the lookup says whether the primary address is verified
        }
        try execute("UPDATE emailAddress SET verifiedAt = ? WHERE id = ?", [date.timeIntervalSince1970, id])
    }
}
