// Invitations+Admin.swift: an invitation whose link lasts as long as the admin chose on the admin page
// (`admin/invitations`), not the configured `invite.lifetime`.
//
// Options: `signup` (closed: refused, as `create`), `invite.lifetime` (the default the page offers first). Why bounds:
// a link that works for an hour is enough to send it by hand; one that works longer than 90 days outlives the reason it
// was sent and lingers in mailboxes. The work is `create`'s (Invitations.issue): one transaction, one audit row.
import AccountRules
import Foundation

extension Invitations {
    /// The lifetimes an admin may choose: one hour to 90 days.
    public static let lifetimeBounds: ClosedRange<TimeInterval> = 3600...(90 * 86400)

    /// Issues an invitation for `email` whose link works for `lifetime`; with `sendMail`, queues the invitation mail too.
    ///
    /// - Throws: `AccountError.signUpClosed` when sign-up is closed; `AccountError.invalid` when the address is
    ///   malformed (`invalid_email`) or already has an account (`taken`) on field `email`, or `lifetime` is outside
    ///   `lifetimeBounds` (`admin_invitations_lifetime_invalid`) on field `expires_in`.
    public func create(email: String, lifetime: TimeInterval, client: ClientInfo, sendMail: Bool = false) throws -> IssuedInvitation {
        guard Self.lifetimeBounds.contains(lifetime) else {
            var errors = ValidationErrors()
            errors.add(FieldError(key: "admin_invitations_lifetime_invalid"), to: "expires_in", displayName: "Expires in")
            throw AccountError.invalid(errors)
        }
        return try issue(email: email, lifetime: lifetime, client: client, sendMail: sendMail)
    }
}
