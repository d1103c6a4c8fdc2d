// EmailAddresses+PrimaryChange.swift: the JSON API's profile update changes "the" email, as devise's reconfirmable
// does: the new address is added unverified, marked to become primary when confirmed (`makePrimaryOnVerify`), and gets
// the verification mail; `Confirmation.confirm` then makes it primary (the old primary is told, as `makePrimary` does).
//   same as the primary              → nothing
//   a verified address of the account → primary at once
//   an unverified address of it       → marked, and the link sent again (throttled)
//   another account's, or new         → as `add` (its errors), then marked
import AccountRules
import Foundation
import Logging

extension EmailAddresses {
    /// Makes `address` the account's primary address, now or once confirmed; returns true when something changed.
    /// Only the latest request waits: marking one address unmarks the others. One write transaction, so a refusal
    /// leaves nothing behind (no address added without its mark, no mark without its link).
    ///
    /// ```swift
    /// try services.addresses.requestPrimaryChange(to: form["email"] ?? "", accountId: session.accountId, client: client)
    /// let user = try services.apiTokens.summary(of: session.accountId)   // pendingEmail shows the waiting address
    /// ```
    /// - Throws: as `add` (`AccountError.invalid` on field `email`).
    @discardableResult
    public func requestPrimaryChange(to address: String, accountId: Int64, client: ClientInfo) throws -> Bool {
        let address = try validated(address)
        let (changed, dropped) = try unavailableOnConflict {
            try database.write { tx -> (Bool, Int64?) in
                guard let own = try EmailAddress.holding(address, in: tx), own.accountId == accountId else {
                    var dropped: Int64?
                    let added = try insert(address, to: accountId, client: client, dropped: &dropped, in: tx)
                    try markPrimaryOnVerify(added, in: tx)
                    return (true, dropped)
                }
                if own.isPrimary { return (false, nil) }
                if own.verifiedAt != nil {
                    try Self.switchPrimary(to: own, client: client, mail: mail, audit: audit, in: tx)
                    return (true, nil)
                }
                let marked = try markPrimaryOnVerify(own, in: tx)
                return (try sendLinkUnlessThrottled(own, in: tx) || marked, nil)
            }
        }
        if let dropped { logger.info("stale unverified address dropped", metadata: ["account": "\(dropped)"]) }
        logger.info("primary address change requested", metadata: ["account": "\(accountId)", "changed": "\(changed)"])
        return changed
    }

    /// Marks the unverified `email` to become primary when confirmed and unmarks the account's other addresses;
    /// true when it was not marked yet.
    @discardableResult
    private func markPrimaryOnVerify(_ email: EmailAddress, in tx: Transaction) throws -> Bool {
        guard let id = email.id else { throw AccountError.notFound }
        let wasMarked = try tx.isMarkedPrimaryOnVerify(addressId: id)
        try tx.markPrimaryOnVerify(addressId: id, of: email.accountId)
        return !wasMarked
    }
}
