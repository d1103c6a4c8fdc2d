// EmailAddresses.swift: an account's addresses: list, add (verified by a mailed link), resend, remove, make primary.
//
// Options: `confirmation.lifetime` (how long a verification link works; an unverified address another account added
// longer ago than that no longer blocks the address), `mail.throttle` (resends), `EmailAddresses.limit` (10 per account).
// An address belongs to one account at most (a unique index): one verified by, or waiting for, another account gets a
// neutral refusal. The primary address is never removed, only a verified address becomes primary (triggers back
// both), and the last verified address stays. Changing the primary address tells the old one.
// Every change is one write transaction (serialised on both backends), so the checks hold under concurrent requests;
// the unique indexes and triggers hold the address and primary rules even without them (EmailAddressStore).
import AccountRules
import Foundation
import Logging

/// Looks up and changes the addresses an account holds.
public struct EmailAddresses: Sendable {
    let database: AppDatabase
    /// The sign-up rules: the `email` field's rules and display name are reused for added addresses.
    let validator: Validator
    let confirmation: Confirmation
    let tokens: AccountTokens
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let logger: Logger

    /// How many addresses one account may hold.
    public static let limit = 10

    /// Every address of the account, primary first, then in the order they were added.
    public func all(of accountId: Int64) throws -> [EmailAddress] {
        try database.read { tx in try tx.emailAddresses(of: accountId) }
    }

    /// The account's verified address matching `address` (compared normalized), or nil when it is not theirs or not verified.
    public func verified(_ address: String, of accountId: Int64) throws -> EmailAddress? {
        try database.read { tx in try tx.verifiedEmailAddress(normalized: EmailFormat.normalized(address), of: accountId) }
    }

    /// Adds `address` (trimmed) to the account, unverified, and mails it a verification link.
    ///
    /// - Throws: `AccountError.invalid` on field `email`: the email rules, `address_already_yours`, `address_limit`, or
    ///   `address_unavailable` when another account holds it (verified, primary, or added within the link lifetime).
    ///   A stale claim (another account's unverified, non-primary address older than the link lifetime) is dropped.
    @discardableResult
    public func add(_ address: String, to accountId: Int64, client: ClientInfo) throws -> EmailAddress {
        let address = try validated(address)
        let (added, dropped) = try unavailableOnConflict {
            try database.write { tx -> (EmailAddress, Int64?) in
                var dropped: Int64?
                return (try insert(address, to: accountId, client: client, dropped: &dropped, in: tx), dropped)
            }
        }
        if let dropped { logger.info("stale unverified address dropped", metadata: ["account": "\(dropped)"]) }
        logger.info("address added", metadata: ["account": "\(accountId)"])
        return added
    }

    /// Mails a new verification link to the account's unverified address `addressId`, unless one went out within
    /// `mail.throttle`; says nothing either way (nor for an address already verified).
    ///
    /// - Throws: `AccountError.notFound` when the address is not this account's.
    public func resend(addressId: Int64, of accountId: Int64, client: ClientInfo) throws {
        try database.write { tx in
            let email = try address(addressId, of: accountId, in: tx)
            guard email.verifiedAt == nil else { return }
            try sendLinkUnlessThrottled(email, in: tx)
        }
    }

    /// Removes the account's address `addressId` (its pending links go with it).
    ///
    /// - Throws: `AccountError.notFound`; `.refused("address_primary_remove")` for the primary address;
    ///   `.refused("address_last_verified")` for the only verified one.
    public func remove(addressId: Int64, of accountId: Int64, client: ClientInfo) throws {
        try database.write { tx in
            let email = try address(addressId, of: accountId, in: tx)
            guard !email.isPrimary else { throw AccountError.refused("address_primary_remove") }
            if email.verifiedAt != nil {
                // Count-then-delete: the account's address changes take turns, so one verified address always stays.
                try tx.serialize(on: Self.addressLock(accountId))
                // A primary switch that went first may have made it primary since it was read: look again.
                guard try !address(addressId, of: accountId, in: tx).isPrimary else { throw AccountError.refused("address_primary_remove") }
                guard try tx.countVerifiedEmailAddresses(of: accountId) > 1 else { throw AccountError.refused("address_last_verified") }
            }
            try tx.deleteEmailAddress(id: addressId)
            try audit.record(.emailRemoved, accountId: accountId, email: email.address, client: client, in: tx)
            if email.verifiedAt != nil, let primary = try EmailAddress.primaryAddress(of: accountId, in: tx) {
                try mail.enqueue(.addressRemoved(address: email.address), to: primary, in: tx)
            }
        }
        logger.info("address removed", metadata: ["account": "\(accountId)"])
    }

    /// Makes the account's verified address `addressId` its primary one and tells the old primary address.
    /// Already primary: nothing happens.
    ///
    /// - Throws: `AccountError.notFound`; `.refused("address_unverified_primary")` for an unverified address.
    public func makePrimary(addressId: Int64, of accountId: Int64, client: ClientInfo) throws {
        try database.write { tx in
            let email = try address(addressId, of: accountId, in: tx)
            guard email.verifiedAt != nil else { throw AccountError.refused("address_unverified_primary") }
            guard !email.isPrimary else { return }
            try Self.switchPrimary(to: email, client: client, mail: mail, audit: audit, in: tx)
        }
        logger.info("primary address changed", metadata: ["account": "\(accountId)"])
    }

    // MARK: Shared steps (in the caller's transaction)

    /// Makes the verified address `email` its account's primary one, tells the old primary address and records it.
    /// A primary change waiting for confirmation (`makePrimaryOnVerify`) is dropped: the latest choice wins.
    /// `makePrimary`, `requestPrimaryChange` and `Confirmation.confirm` share it.
    static func switchPrimary(to email: EmailAddress, client: ClientInfo, mail: MailQueue, audit: AuditLog, detail: String = "primary",
                              in tx: Transaction) throws {
        guard let addressId = email.id else { throw AccountError.notFound }
        // One primary address per account: the unique partial index emailAddress_onePrimary (cleared first, then set).
        // Switches of one account take turns (its address lock, taken before any of its address rows), so each clears the
        // primary the one before it set: at READ COMMITTED a later switch would not see that new primary and would meet
        // the index (a bare storage error) instead. An address removed meanwhile is not made primary (nothing changes).
        try tx.serialize(on: addressLock(email.accountId))
        let old = try EmailAddress.primaryAddress(of: email.accountId, in: tx)
        guard try tx.switchPrimaryAddress(of: email.accountId, to: addressId) else { throw AccountError.notFound }
        if let old { try mail.enqueue(.primaryAddressChanged(newAddress: email.address), to: old, in: tx) }
        try audit.record(.emailChanged, accountId: email.accountId, email: email.address, client: client, detail: detail, in: tx)
    }

    /// `add`'s checks and row: the address (valid, trimmed) becomes the account's, unverified, and is mailed a link.
    /// `dropped`: set to the account whose stale claim on the address was dropped (for the log after the commit).
    func insert(_ address: String, to accountId: Int64, client: ClientInfo, dropped: inout Int64?, in tx: Transaction) throws -> EmailAddress {
        let now = clock.now()
        let held = try EmailAddress.holding(address, in: tx)
        if held?.accountId == accountId { throw invalid("address_already_yours") }
        // The limit is a count-then-insert: the account's address changes take turns. One account per address is the
        // unique index on normalizedAddress (a race reads as address_unavailable: unavailableOnConflict).
        try tx.serialize(on: Self.addressLock(accountId))
        guard try tx.countEmailAddresses(of: accountId) < Self.limit else { throw invalid("address_limit", ["count": String(Self.limit)]) }
        if let held {
            // `held` was read before any lock: the owner may confirm it meanwhile (under their own address lock), so the
            // DELETE takes it only while it is still unverified and not primary, and its count decides.
            guard !held.isPrimary, held.verifiedAt == nil, now.timeIntervalSince(held.createdAt) > confirmation.lifetime,
                  let heldId = held.id, try tx.deleteUnverifiedClaim(id: heldId) else {
                throw invalid("address_unavailable")
            }
            try audit.record(.emailRemoved, accountId: held.accountId, email: held.address, client: client,
                             detail: "stale claim: added by account \(accountId)", in: tx)
            dropped = held.accountId
        }
        let email = try tx.insertEmailAddress(address, normalized: EmailFormat.normalized(address), accountId: accountId, createdAt: now)
        try sendLink(email, in: tx)
        try audit.record(.emailAdded, accountId: accountId, email: address, client: client, in: tx)
        return email
    }

    /// Mails `email` a new verification link unless one went out within `mail.throttle`; true when it did.
    @discardableResult
    func sendLinkUnlessThrottled(_ email: EmailAddress, in tx: Transaction) throws -> Bool {
        guard try !mail.isThrottled(.addressVerification(token: ""), to: email.address, in: tx) else {
            logger.info("address verification resend throttled")
            return false
        }
        try sendLink(email, in: tx)
        return true
    }

    // MARK: Helpers

    /// The key an account's address changes take turns on (`Transaction.serialize(on:)`): adding and removing addresses,
    /// and switching the primary one (Confirmation takes it too, before it touches the address it confirms).
    static func addressLock(_ accountId: Int64) -> String { "addresses.\(accountId)" }

    /// The `email` field as `validator` (the sign-up rules) declares it: rules and display name. Residences use it too.
    static func emailRules(of validator: Validator) -> Validator {
        Validator([validator.field(named: "email") ?? Field("email", displayName: "Email", rules: [.required, .email])])
    }

    private var emailRules: Validator { Self.emailRules(of: validator) }

    /// `address` trimmed, or `AccountError.invalid` on field `email` when it breaks the email rules.
    func validated(_ address: String) throws -> String {
        let address = address.trimmingWhitespace()
        let errors = emailRules.validate(["email": address])
        guard errors.isEmpty else { throw AccountError.invalid(errors) }
        return address
    }

    /// Runs `body` (a write), answering `address_unavailable` when a unique key refused its address: another account got
    /// it between the check and the insert, and the transaction was rolled back.
    func unavailableOnConflict<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch StorageError.uniqueViolation {
            throw invalid("address_unavailable")
        }
    }

    private var emailDisplayName: String { validator.field(named: "email")?.displayName ?? "Email" }

    private func invalid(_ key: String, _ arguments: [String: String] = [:]) -> AccountError {
        var errors = ValidationErrors()
        errors.add(FieldError(key: key, arguments: arguments), to: "email", displayName: emailDisplayName)
        return .invalid(errors)
    }

    /// The account's address `id`, or `AccountError.notFound`.
    private func address(_ id: Int64, of accountId: Int64, in tx: Transaction) throws -> EmailAddress {
        guard let email = try tx.emailAddress(id: id, of: accountId) else { throw AccountError.notFound }
        return email
    }

    /// Issues a confirmation token for `email` and queues the verification mail, in the caller's transaction.
    private func sendLink(_ email: EmailAddress, in tx: Transaction) throws {
        let token = try tokens.issue(.confirmation, accountId: email.accountId, emailAddressId: email.id, lifetime: confirmation.lifetime,
                                     in: tx)
        try mail.enqueue(.addressVerification(token: token.encoded), to: email.address, in: tx)
    }
}
