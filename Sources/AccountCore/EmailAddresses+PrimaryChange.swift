// EmailAddresses+PrimaryChange.swift: the JSON API's profile update changes "the" email, as devise's reconfirmable
// does: the new address is added unverified, marked to become primary when confirmed (`makePrimaryOnVerify`), and gets
// the verification mail; `Confirmation.confirm` then makes it primary (the old primary is told, as `makePrimary` does).
//   same as the primary              → nothing
//   a verified address of the account → primary at once
//   an unverified address of it       → marked, and the link sent again (throttled)
//   another account's, or new         → as `add` (its errors), then marked
import AccountRules
import Foundation
import GRDB
import Logging

extension EmailAddresses {
    /// Makes `address` the account's primary address, now or once confirmed; returns true when something changed.
    ///
    /// - Throws: as `add` (`AccountError.invalid` on field `email`).
    @discardableResult
    public func requestPrimaryChange(to address: String, accountId: Int64, client: ClientInfo) throws -> Bool {
        false   // TODO(helper C)
    }
}
