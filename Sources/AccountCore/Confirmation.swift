// Confirmation.swift: proves a person owns an address: a mailed single-use link marks it verified.
//
// Options (config section `confirmation`):
//   required   accounts cannot sign in until their address is confirmed (default true)
//   lifetime   how long a confirmation link works (default 3 days)
// Resending is throttled per address (mail.throttle) and always answers the same way. An address marked to become
// primary when confirmed (the JSON API's email change, EmailAddresses+PrimaryChange) becomes primary as it is confirmed,
// in the same transaction, and the old primary address is told.
import AccountRules
import Foundation
import GRDB
import Logging

/// Confirmation of email addresses.
public struct Confirmation: Sendable {
    let database: AppDatabase
    let tokens: AccountTokens
    let mail: MailQueue
    let lockout: Lockout
    let audit: AuditLog
    let logger: Logger
    /// Whether sign-in waits for confirmation.
    public let required: Bool
    /// Lifetime of a confirmation link.
    public let lifetime: TimeInterval

    /// Tells the owner of `address` (as their account holds it) that someone tried to sign up with it, at most once per
    /// throttle window: sign-up, and an address given for a provider identity, answer such an address like a free one.
    /// Returns whether a mail was queued.
    @discardableResult
    func noteSignUpAttempt(to address: String, in db: Database) throws -> Bool {
        guard try !mail.isThrottled(.signUpAttempt, to: address, in: Transaction(sqlite: db)) else { return false }
        try mail.enqueue(.signUpAttempt, to: address, in: Transaction(sqlite: db))
        return true
    }

    /// Issues a token for the address and queues the mail, in the caller's transaction.
    func start(accountId: Int64, emailAddressId: Int64, address: String, in db: Database) throws {
        let token = try tokens.issue(.confirmation, accountId: accountId, emailAddressId: emailAddressId, lifetime: lifetime, in: db)
        try mail.enqueue(.confirmation(token: token.encoded), to: address, in: Transaction(sqlite: db))
    }

    /// Marks the token's address verified and returns it.
    ///
    /// - Throws: `AccountError.invalidToken` when the link is unknown, used or expired.
    public func confirm(token: String, client: ClientInfo = ClientInfo()) throws -> String {
        let address = try database.writer.write { db -> String? in
            guard let redeemed = try tokens.redeem(token, purpose: .confirmation, in: db), let id = redeemed.emailAddressId else { return nil }
            try db.execute(sql: "UPDATE emailAddress SET verifiedAt = COALESCE(verifiedAt, ?) WHERE id = ?",
                           arguments: [mail.clock.now().timeIntervalSince1970, id])
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM emailAddress WHERE id = ?", arguments: [id]) else { return nil }
            let email = try EmailAddress(row: row)
            try audit.record(.emailConfirmed, accountId: redeemed.accountId, email: email.address, client: client, in: db)
            if row["makePrimaryOnVerify"] as Bool, !email.isPrimary {
                try EmailAddresses.switchPrimary(to: email, client: client, mail: mail, audit: audit, detail: "primary, confirmed", in: Transaction(sqlite: db))
                logger.info("confirmed address made primary", metadata: ["account": "\(email.accountId)"])
            } else if !email.isPrimary, let primary = try EmailAddress.primaryAddress(of: email.accountId, in: db) {
                // The new address can sign in and receive reset links now: the primary address hears of it (ASVS 2.5.5).
                try mail.enqueue(.addressAdded(address: email.address), to: primary, in: Transaction(sqlite: db))
            }
            return email.address
        }
        guard let address else { throw AccountError.invalidToken }
        logger.info("address confirmed")
        return address
    }

    /// Sends a new link when `email` belongs to an unconfirmed address and none was sent within the throttle window.
    /// An address added in the settings (not primary) gets the "confirm the address you added" wording, not sign-up's.
    /// Answers nothing either way: the caller shows one neutral page.
    public func resend(email: String, client: ClientInfo = ClientInfo()) throws {
        try database.writer.write { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT id, accountId, address, isPrimary FROM emailAddress WHERE normalizedAddress = ? AND verifiedAt IS NULL
                """, arguments: [EmailFormat.normalized(email)]) else { return }
            let address: String = row["address"]
            guard try lockout.allowsMail(accountId: row["accountId"], client: client, in: db) else {
                logger.info("confirmation not resent: account locked or client address blocked")
                return
            }
            let added = !(row["isPrimary"] as Bool)
            guard try !mail.isThrottled(added ? .addressVerification(token: "") : .confirmation(token: ""), to: address, in: Transaction(sqlite: db)) else {
                logger.info("confirmation resend throttled")
                return
            }
            guard added else { return try start(accountId: row["accountId"], emailAddressId: row["id"], address: address, in: db) }
            let token = try tokens.issue(.confirmation, accountId: row["accountId"], emailAddressId: row["id"], lifetime: lifetime, in: db)
            try mail.enqueue(.addressVerification(token: token.encoded), to: address, fallback: client.language, in: Transaction(sqlite: db))
        }
    }
}
