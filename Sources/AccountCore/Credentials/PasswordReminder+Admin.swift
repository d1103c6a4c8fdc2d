// PasswordReminder+Admin.swift: an admin sends a person the "forgot my password" link (the admin pages' person page;
// the CLI could too), by account rather than by a typed address.
//
// Options: the reminder's (`lifetime`, mail.throttle). The same mail as "forgot my password", to the account's primary
// address, with the same rules but said to the admin instead of hidden behind a neutral page: only to a confirmed
// address (a reset link to an address nobody proved would hand the account to whoever typed it at sign-up), not while
// the account is locked (the link lifts a lock: an admin's lock is lifted by unlocking), and throttled per address.
// The client given is the admin's: its address is not checked against address blocks (that rule is for strangers
// asking), and the mail is in the person's language, not the admin's. Audited `password_reset_sent`.
import Foundation

extension PasswordReminder {
    /// Mails the account's primary address a reset link; returns that address.
    ///
    /// - Throws: `AccountError.notFound` when there is no such account; `AccountError.refused` with
    ///   `admin_person_reset_unconfirmed`, `admin_person_reset_locked` or `admin_person_mail_throttled`.
    @discardableResult
    public func sendReminder(accountId: Int64, client: ClientInfo) throws -> String {
        let address = try database.write { tx -> String in
            guard let primary = try EmailAddress.primaryAddress(of: accountId, in: tx),
                  let held = try EmailAddress.holding(primary, in: tx), held.accountId == accountId else { throw AccountError.notFound }
            guard held.verifiedAt != nil else { throw AccountError.refused("admin_person_reset_unconfirmed") }
            guard try !lockout.isLocked(accountId: accountId, in: tx) else { throw AccountError.refused("admin_person_reset_locked") }
            guard try !mail.isThrottled(.passwordReset(token: ""), to: held.address, in: tx) else {
                throw AccountError.refused("admin_person_mail_throttled")
            }
            let token = try tokens.issue(.reset, accountId: accountId, emailAddressId: nil, lifetime: lifetime, in: tx)
            try mail.enqueue(.passwordReset(token: token.encoded), to: held.address, in: tx)
            try audit.record(.passwordResetSent, accountId: accountId, email: held.address, client: client,
                             detail: "by the operator", in: tx)
            return held.address
        }
        logger.info("reset link sent by the operator", metadata: ["account": "\(accountId)"])
        return address
    }
}
