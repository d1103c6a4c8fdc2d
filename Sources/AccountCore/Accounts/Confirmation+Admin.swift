// Confirmation+Admin.swift: an admin sends the confirmation mail again to one unverified address of an account (the
// admin pages' person page; the CLI could too).
//
// Options: the confirmation's (`lifetime`, mail.throttle). The same mail as the person's own resend (sign-up's wording
// for the primary address, "confirm the address you added" for another), said to the admin rather than hidden behind
// a neutral answer: the address must be the account's and unverified, and a mail within the throttle window is not
// repeated. Unlike a stranger's resend, an account's lock or the admin's client address does not stop it (a
// confirmation link signs nobody in). Audited `confirmation_sent`.
import Foundation

extension Confirmation {
    /// Mails a new confirmation link to `email`, an unverified address of the account; returns the address as stored.
    ///
    /// - Throws: `AccountError.refused` with `admin_person_address_not_pending` (not the account's, or verified) or
    ///   `admin_person_mail_throttled`.
    @discardableResult
    public func resend(accountId: Int64, email: String, client: ClientInfo) throws -> String {
        let address = try database.write { tx -> String in
            guard let held = try EmailAddress.holding(email, in: tx), held.accountId == accountId, held.verifiedAt == nil,
                  let emailId = held.id else { throw AccountError.refused("admin_person_address_not_pending") }
            let added = !held.isPrimary
            guard try !mail.isThrottled(added ? .addressVerification(token: "") : .confirmation(token: ""), to: held.address, in: tx) else {
                throw AccountError.refused("admin_person_mail_throttled")
            }
            if added {
                let token = try tokens.issue(.confirmation, accountId: accountId, emailAddressId: emailId, lifetime: lifetime, in: tx)
                try mail.enqueue(.addressVerification(token: token.encoded), to: held.address, in: tx)
            } else {
                try start(accountId: accountId, emailAddressId: emailId, address: held.address, in: tx)
            }
            try audit.record(.confirmationSent, accountId: accountId, email: held.address, client: client, detail: "by the operator", in: tx)
            return held.address
        }
        logger.info("confirmation resent by the operator", metadata: ["account": "\(accountId)"])
        return address
    }
}
