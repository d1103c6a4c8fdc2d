// Account.swift: the `account` and `emailAddress` records (dates stored as seconds since 1970), and the lookups other
// features share. Their statements live in Storage/Stores/AccountStore.swift.
import AccountRules
import Foundation

/// A person's account: the password hash and timestamps. Addresses live in `emailAddress`.
public struct Account: Codable, Sendable, Equatable {
    public var id: Int64?
    public var passwordHash: String
    public var createdAt: Date
    public var updatedAt: Date
    /// The language pages and mail use for this account; nil: the browser's, else the site's default.
    public var language: String?
}

extension Account {
    /// Inserts a new account with `address` as its primary address (verified now when `verified`) and `language` as its
    /// preference, in the caller's transaction; returns the account's and the address's ids. Sign-up, invitations and
    /// `frontdoor user add` use it. The account's username is `username` (sign-up's chosen one, following the rule), or
    /// made from the address when empty (Usernames).
    static func insert(address: String, passwordHash: String, verified: Bool, language: String?, now: Date, username: String = "",
                       in tx: Transaction) throws -> (account: Int64, address: Int64) {
        let ids = try tx.insertAccount(address: address, passwordHash: passwordHash, verified: verified, language: language, now: now)
        try Usernames.assign(chosen: username, orMadeFrom: address, to: ids.account, in: tx)
        return ids
    }
}

extension EmailAddress {
    /// The address row holding `address` (any account, verified or not), compared normalized.
    static func holding(_ address: String, in tx: Transaction) throws -> EmailAddress? {
        try tx.emailAddress(holding: address)
    }

    /// The address as its account holds it (any account, verified or not) when `address` is held, compared normalized.
    static func heldAddress(_ address: String, in tx: Transaction) throws -> String? {
        try holding(address, in: tx)?.address
    }

    /// The account's primary address as entered, or nil when the account is gone.
    static func primaryAddress(of accountId: Int64, in tx: Transaction) throws -> String? {
        try tx.primaryAddress(of: accountId)
    }
}

/// One email address of an account, stored as entered and compared by `normalizedAddress`.
public struct EmailAddress: Codable, Sendable, Equatable {
    public var id: Int64?
    public var accountId: Int64
    public var address: String
    public var normalizedAddress: String
    public var isPrimary: Bool
    public var verifiedAt: Date?
    public var createdAt: Date
}
