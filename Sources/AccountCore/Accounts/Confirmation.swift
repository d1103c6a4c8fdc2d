// Confirmation.swift: proves a person owns an address: a mailed single-use link marks it verified.
//
// Options (config section `confirmation`):
//   required   accounts cannot sign in until their address is confirmed
//   lifetime   how long a confirmation link works
// Resending is throttled per address (mail.throttle) and always answers the same way. An address marked to become
// primary when confirmed (the JSON API's email change, EmailAddresses+PrimaryChange) becomes primary as it is confirmed,
// in the same transaction, and the old primary address is told. Identities linked while the account had no verified
// address are settled as the address is confirmed: kept when the link is followed in the browser that linked them,
// unlinked otherwise (IdentityProof).
import AccountRules
import Foundation
import Logging

/// What following a confirmation link did.
public struct ConfirmedAddress: Sendable, Equatable {
    /// The address, as entered.
    public var address: String
    /// Providers unlinked because they were linked, before any address of the account was proven, in another browser.
    public var unlinkedProviders: [String]
}

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
    func noteSignUpAttempt(to address: String, in tx: Transaction) throws -> Bool {
        guard try !mail.isThrottled(.signUpAttempt, to: address, in: tx) else { return false }
        try mail.enqueue(.signUpAttempt, to: address, in: tx)
        return true
    }

    /// Issues a token for the address and queues the mail, in the caller's transaction.
    func start(accountId: Int64, emailAddressId: Int64, address: String, in tx: Transaction) throws {
        let token = try tokens.issue(.confirmation, accountId: accountId, emailAddressId: emailAddressId, lifetime: lifetime, in: tx)
        try mail.enqueue(.confirmation(token: token.encoded), to: address, in: tx)
    }

    /// Marks the token's address verified and returns it; identities still to be proven are unlinked (no browser).
    ///
    /// - Throws: `AccountError.invalidToken` when the link is unknown, used or expired.
    public func confirm(token: String, client: ClientInfo = ClientInfo()) throws -> String {
        try confirmAddress(token: token, client: client, binding: nil).address
    }

    /// Marks the token's address verified, in the browser whose social binding cookie is `binding` (nil: none). The
    /// account's identities linked while it had no verified address stay only when linked in that browser; the others
    /// are unlinked and named in the answer (IdentityProof).
    ///
    /// - Throws: `AccountError.invalidToken` when the link is unknown, used or expired.
    public func confirmAddress(token: String, client: ClientInfo = ClientInfo(), binding: [UInt8]?) throws -> ConfirmedAddress {
        let confirmed = try database.write { tx -> (email: EmailAddress, madePrimary: Bool, unlinked: [String])? in
            // One winner: the token's redemption is a conditional UPDATE (AccountTokens.redeem); a second confirmation
            // with the same link gets nil.
            guard let redeemed = try tokens.redeem(token, purpose: .confirmation, in: tx), let id = redeemed.emailAddressId else { return nil }
            // The account's address lock before the address row: a primary switch holds the lock and then updates the
            // account's addresses (this one too while it waits to become primary); the other order would deadlock.
            try tx.serialize(on: EmailAddresses.addressLock(redeemed.accountId))
            guard let verified = try tx.markAddressVerified(id: id, at: mail.clock.now()) else { return nil }
            let email = verified.email
            try audit.record(.emailConfirmed, accountId: redeemed.accountId, email: email.address, client: client, in: tx)
            let unlinked = try IdentityProof.settle(accountId: redeemed.accountId, browser: binding,
                                                    reason: "address confirmed in another browser", client: client, audit: audit, in: tx)
            if verified.makePrimaryOnVerify, !email.isPrimary {
                try EmailAddresses.switchPrimary(to: email, client: client, mail: mail, audit: audit, detail: "primary, confirmed", in: tx)
                return (email, true, unlinked)
            } else if !email.isPrimary, let primary = try EmailAddress.primaryAddress(of: email.accountId, in: tx) {
                // The new address can sign in and receive reset links now: the primary address hears of it (ASVS 2.5.5).
                try mail.enqueue(.addressAdded(address: email.address), to: primary, in: tx)
            }
            return (email, false, unlinked)
        }
        guard let confirmed else { throw AccountError.invalidToken }
        if confirmed.madePrimary { logger.info("confirmed address made primary", metadata: ["account": "\(confirmed.email.accountId)"]) }
        if !confirmed.unlinked.isEmpty {
            logger.notice("address confirmed in another browser than the provider sign-in that gave it; identity unlinked",
                          metadata: ["account": "\(confirmed.email.accountId)", "providers": "\(confirmed.unlinked)"])
        }
        logger.info("address confirmed")
        return ConfirmedAddress(address: confirmed.email.address, unlinkedProviders: confirmed.unlinked)
    }

    /// Sends a new link when `email` belongs to an unconfirmed address and none was sent within the throttle window.
    /// An address added in the settings (not primary) gets the "confirm the address you added" wording, not sign-up's.
    /// Answers nothing either way: the caller shows one neutral page.
    public func resend(email: String, client: ClientInfo = ClientInfo()) throws {
        // Why nothing was resent, logged after the transaction (a retried body would log twice).
        let unsent = try database.write { tx -> String? in
            guard let held = try EmailAddress.holding(email, in: tx), held.verifiedAt == nil, let emailId = held.id else { return nil }
            guard try lockout.allowsMail(accountId: held.accountId, client: client, in: tx) else {
                return "confirmation not resent: account locked or client address blocked"
            }
            let added = !held.isPrimary
            guard try !mail.isThrottled(added ? .addressVerification(token: "") : .confirmation(token: ""), to: held.address, in: tx) else {
                return "confirmation resend throttled"
            }
            guard added else {
                try start(accountId: held.accountId, emailAddressId: emailId, address: held.address, in: tx)
                return nil
            }
            let token = try tokens.issue(.confirmation, accountId: held.accountId, emailAddressId: emailId, lifetime: lifetime, in: tx)
            try mail.enqueue(.addressVerification(token: token.encoded), to: held.address, fallback: client.language, in: tx)
            return nil
        }
        if let unsent { logger.info("\(unsent)") }
    }
}
