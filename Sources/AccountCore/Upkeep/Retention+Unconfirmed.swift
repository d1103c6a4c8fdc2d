// Retention+Unconfirmed.swift: accounts never confirmed, and added addresses never confirmed, expire. Anyone can type
// anyone's address at sign-up, on auth/email or in the settings; until it goes, such a claim blocks the owner's
// sign-up (the neutral answer) and, for an added address, used to send the owner's provider sign-in to the squatter's
// link page. The pruner does it, never a request.
//
// Options (RetentionPolicy, config section `retention`):
//   unconfirmed   how long after it was made an unconfirmed account or added address may live (0: forever)
// An account goes when none of its addresses was ever verified, it was made before the cutoff, it was neither signed
// in to nor used since (with `confirmation.required` off a person signs in unconfirmed: an account in use stays), and
// no confirmation link of it still works (a link resent late keeps it until the link ends). It goes as an operator's
// deletion does (AccountDeletion.deleteAccount: its rows, its unsent mail, the invitations it used; the trail keeps the
// address), audited `account_deleted` "never confirmed". An added address goes when it is not primary, was never
// verified, was made before the cutoff and its link no longer works, audited `email_removed` "never confirmed".
// Batches of `batchSize` rows, each a transaction of its own, as Retention's.
import Foundation

extension Retention {
    /// What one expiry pass did.
    public struct UnconfirmedOutcome: Sendable, Equatable {
        /// What was made before this time could go; nil: kept forever (`retention.unconfirmed` is 0).
        public var cutoff: Date?
        public var accounts: Int
        public var addresses: Int
    }

    /// Deletes the accounts and added addresses never confirmed within `retention.unconfirmed` (see the header), at
    /// most `maxBatches` batches of each.
    @discardableResult
    public func expireUnconfirmed(maxBatches: Int = .max) throws -> UnconfirmedOutcome {
        let keep = policy.unconfirmed
        guard keep > 0 else { return UnconfirmedOutcome(cutoff: nil, accounts: 0, addresses: 0) }
        let now = clock.now()
        let cutoff = now - keep
        let audit = AuditLog(database: database, clock: clock)
        let pruner = ClientInfo(userAgent: "frontdoor pruner", remoteAddress: "")
        let accounts = try batches(maxBatches) {
            try database.write { tx in
                let found = try tx.unconfirmedAccounts(before: cutoff.timeIntervalSince1970, now: now.timeIntervalSince1970, limit: batchSize)
                for accountId in found {
                    let addresses = try tx.emailAddresses(of: accountId)
                    guard try tx.deleteAccountRow(accountId, at: now) else { continue }
                    for email in addresses {
                        try tx.deleteUnsentMail(recipientKey: email.address.lowercased())
                        try tx.deleteUsedInvites(for: email.address)
                    }
                    try audit.record(.accountDeleted, accountId: accountId, email: addresses.first(where: \.isPrimary)?.address,
                                     client: pruner, detail: "never confirmed", in: tx)
                }
                return found.count
            }
        }
        let addresses = try batches(maxBatches) {
            try database.write { tx in
                let found = try tx.unconfirmedAddedAddresses(before: cutoff.timeIntervalSince1970, now: now.timeIntervalSince1970,
                                                             limit: batchSize)
                for email in found {
                    guard let id = email.id else { continue }
                    try tx.serialize(on: EmailAddresses.addressLock(email.accountId))
                    guard try tx.deleteEmailAddress(id: id) == 1 else { continue }
                    try tx.deleteUnsentMail(recipientKey: email.address.lowercased())
                    try audit.record(.emailRemoved, accountId: email.accountId, email: email.address, client: pruner,
                                     detail: "never confirmed", in: tx)
                }
                return found.count
            }
        }
        return UnconfirmedOutcome(cutoff: cutoff, accounts: accounts, addresses: addresses)
    }

    /// Runs `batch` (one transaction, returning how many rows it took) until one comes back short, at most `maxBatches` times.
    private func batches(_ maxBatches: Int, _ batch: () throws -> Int) throws -> Int {
        var total = 0
        for _ in 0..<max(maxBatches, 0) {
            let count = try batch()
            total += count
            if count < batchSize { break }
        }
        return total
    }
}
