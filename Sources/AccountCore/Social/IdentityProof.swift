// IdentityProof.swift: a provider identity counts for an account only once the person who signed in at the provider
// has proven an address of that account. A provider that gives no address (X), or one it does not vouch for, lets the
// person type any address on auth/email; the account made for it must not keep the typist's identity when the
// address's real owner confirms it (account pre-hijacking).
//
// Options: none. An identity linked while its account holds no verified address is stored with the digest of the
// browser binding cookie it was linked in (`socialIdentity.unprovenBinding`; the empty digest, which no browser
// matches, when there was no browser). When an address of the account is then proven (a confirmation link followed,
// a password reset, the operator's `user confirm`, a device's approval link), each such identity is settled: kept, as
// proven, when the proof came from that same browser; otherwise unlinked, and every session of the account ends (only
// the identity could have started them while no address was proven). Why settle at the proof rather than keep the
// identity pending until the link is followed: with `confirmation.required` off the person is signed in at once and
// must be able to come back through the provider before confirming, and one rule then covers every way an address
// gets proven and the identities linked from the settings of an unconfirmed account too.
import Foundation

enum IdentityProof {
    /// What to store with an identity linked to `accountId` now, in the caller's transaction: nil when the account
    /// holds a verified address (nothing left to prove), else the digest of `binding` (empty: no browser).
    static func unprovenBinding(for accountId: Int64, browser binding: [UInt8]?, in tx: Transaction) throws -> Data? {
        guard try !tx.hasVerifiedAddress(accountId: accountId) else { return nil }
        return digest(binding)
    }

    /// Settles the account's unproven identities after an address of it was proven by `binding`'s browser (nil: no
    /// browser, such as the JSON API or the operator): kept when linked in that browser, else unlinked (audited as
    /// `identity_unlinked` with "<provider>: `reason`") and the account's sessions end. Returns the unlinked providers.
    @discardableResult
    static func settle(accountId: Int64, browser binding: [UInt8]?, reason: String, client: ClientInfo, audit: AuditLog,
                       in tx: Transaction) throws -> [String] {
        let unproven = try tx.unprovenIdentities(accountId: accountId)
        guard !unproven.isEmpty else { return [] }
        let proof = digest(binding)
        var unlinked: [String] = []
        let primary = try EmailAddress.primaryAddress(of: accountId, in: tx)
        for identity in unproven {
            if proof.count == 32, SocialFlows.constantTimeEquals(identity.binding, proof) {
                try tx.markIdentityProven(accountId: accountId, provider: identity.provider)
                continue
            }
            try tx.deleteSocialIdentity(accountId: accountId, provider: identity.provider)
            try audit.record(.identityUnlinked, accountId: accountId, email: primary, client: client,
                             detail: "\(identity.provider): \(reason)", in: tx)
            unlinked.append(identity.provider)
        }
        if !unlinked.isEmpty { try tx.deleteSessions(of: accountId, at: audit.clock.now()) }
        return unlinked
    }

    /// The stored form of a browser binding: its SHA-256, or empty (matching no browser) when there is none.
    private static func digest(_ binding: [UInt8]?) -> Data {
        guard let binding, !binding.isEmpty else { return Data() }
        return SocialFlows.digest(binding)
    }
}
