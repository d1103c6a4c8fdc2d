// SocialSignIn+Picker.swift: when a new identity could belong to several accounts, the person chooses one (the
// SocialAuth seed's "Presents Picker" row), then proves it (password, or a provider already linked to it) as on the
// link page; the identity is linked to the chosen account only.
//
// Options: `maxCandidates` (10). Candidates, in this order: each account holding one of the addresses the provider
// verified (its main address first, then `otherVerifiedEmails`), then, only when there is such an account, each
// account signed in in this browser without an identity of this provider. One candidate is the ordinary link step
// (`.needsLink`); several are one pending identity each, all bound to this browser (`.needsPick`). Choosing uses the
// others up (one write; a second choice finds them used), so only the chosen one can go on. Linking is still decided
// by socialIdentity's unique keys: of two pending identities pushed at once, one links and the other is refused
// `social_identity_taken`. A pending identity carries the address it names its account by: the vouched address the
// account holds (which the provider proved to the person), else nothing, and the account's primary address is read
// when shown (it is an account signed in in this browser; WebFront masks any address the person has not proven).
// An address another account only added, never confirmed, is nobody's yet: it makes no candidate, and when it is the
// provider's main address the claim is dropped (`releaseUnconfirmedClaim`), so its owner gets an account of their own
// instead of a link page for an account they cannot open (address squatting).
import AccountRules
import Foundation

extension SocialSignIn {
    /// At most this many accounts are offered.
    static let maxCandidates = 10

    /// An account the identity could be linked to: `address` is the provider-verified address it holds (nil: an
    /// account signed in in this browser).
    struct LinkCandidate: Equatable {
        var accountId: Int64
        var address: String?
    }

    /// The accounts a new identity could belong to (see the header), in the caller's transaction.
    func linkCandidates(_ identity: ExternalIdentity, address: String, browserAccounts: [Int64],
                        in tx: Transaction) throws -> [LinkCandidate] {
        var found: [LinkCandidate] = []
        for vouched in Self.vouchedAddresses(identity, main: address) {
            guard let held = try EmailAddress.holding(vouched, in: tx), held.isPrimary || held.verifiedAt != nil else { continue }
            let holder = held.accountId
            guard !found.contains(where: { $0.accountId == holder }) else { continue }
            found.append(LinkCandidate(accountId: holder, address: vouched))
        }
        guard !found.isEmpty else { return [] }
        for account in browserAccounts where !found.contains(where: { $0.accountId == account }) {
            guard try !tx.hasSocialIdentity(provider: identity.provider, accountId: account) else { continue }
            found.append(LinkCandidate(accountId: account, address: nil))
        }
        return Array(found.prefix(Self.maxCandidates))
    }

    /// Drops another account's claim on `address` when that account only added it and never confirmed it: the provider
    /// has just proven it to the person signing in (audited `email_removed` on that account). Returns whether it did.
    @discardableResult
    func releaseUnconfirmedClaim(on address: String, provider: String, client: ClientInfo, in tx: Transaction) throws -> Bool {
        guard let held = try EmailAddress.holding(address, in: tx), !held.isPrimary, held.verifiedAt == nil, let id = held.id else {
            return false
        }
        try tx.serialize(on: EmailAddresses.addressLock(held.accountId))
        guard try tx.deleteEmailAddress(id: id) == 1 else { return false }
        try audit.record(.emailRemoved, accountId: held.accountId, email: held.address, client: client,
                         detail: "unconfirmed claim: verified by \(provider) for someone signing in", in: tx)
        logger.info("unconfirmed address claim dropped for a provider-verified owner", metadata: ["account": "\(held.accountId)"])
        return true
    }

    /// One pending identity per candidate: `.needsLink` for one, `.needsPick` for several.
    func askToLink(_ record: IdentityRecord, candidates: [LinkCandidate], flow: SocialFlow, binding: [UInt8],
                   in tx: Transaction) throws -> SocialOutcome {
        var tokens: [String] = []
        for candidate in candidates {
            var named = record
            if let address = candidate.address { named.email = address }
            tokens.append(try store.createPending(named, emailVerified: true, linkAccountId: candidate.accountId, flow: flow,
                                                  binding: binding, lifetime: pendingLifetime, random: random, in: tx))
        }
        logger.info("social sign-in: the identity's addresses have accounts; linking needs their owner",
                    metadata: ["candidates": "\(candidates.map(\.accountId))"])
        return tokens.count == 1 ? .needsLink(pendingToken: tokens[0]) : .needsPick(pendingTokens: tokens)
    }

    /// The picker's choices: each still usable pending identity among `tokens` (this browser's), in order, with its token.
    public func pickChoices(tokens: [String], binding: [UInt8]) throws -> [(token: String, pending: PendingIdentity)] {
        try database.read { tx in
            try tokens.prefix(Self.maxCandidates).compactMap { token in
                guard let digest = SecretToken(encoded: token)?.digest,
                      let pending = try store.pending(digest: digest, binding: binding, in: tx), pending.linkAccountId != nil else { return nil }
                return (token, try describe(pending, in: tx))
            }
        }
    }

    /// The person chose `chosen` among `tokens`: the other pending identities are used up, so only the chosen one can
    /// be linked. Throws `.refused("social_pending_invalid")` when `chosen` is not one of them or no longer usable.
    public func choosePending(_ chosen: String, among tokens: [String], binding: [UInt8]) throws {
        guard tokens.contains(chosen), let digest = SecretToken(encoded: chosen)?.digest else {
            throw AccountError.refused("social_pending_invalid")
        }
        try database.write { tx in
            guard let picked = try store.pending(digest: digest, binding: binding, in: tx), picked.linkAccountId != nil else {
                throw AccountError.refused("social_pending_invalid")
            }
            for token in tokens where token != chosen {
                guard let other = SecretToken(encoded: token)?.digest,
                      let pending = try store.pending(digest: other, binding: binding, in: tx) else { continue }
                _ = try store.markUsed(pending, in: tx)
            }
        }
        logger.info("social sign-in: an account was chosen in the picker")
    }

    /// A pending identity as the pages show it (see `pending(token:binding:)`).
    func describe(_ pending: PendingRecord, in tx: Transaction) throws -> PendingIdentity {
        var providers: [String] = []
        var hasPassword = false
        var accountAddress: String?
        if let target = pending.linkAccountId {
            let methods = try SignInMethods(database: database, audit: audit, clock: clock).methods(accountId: target, in: tx)
            providers = methods.compactMap { if case .provider(let name) = $0 { name } else { nil } }
            hasPassword = methods.contains(.password)
            if let email = pending.identity.email, try EmailAddress.holding(email, in: tx)?.accountId == target {
                accountAddress = email
            } else {
                accountAddress = try EmailAddress.primaryAddress(of: target, in: tx)
            }
        }
        return PendingIdentity(provider: pending.identity.provider, email: pending.identity.email, displayName: pending.identity.displayName,
                               linkProviders: providers, linkHasPassword: hasPassword, returnTo: pending.returnTo,
                               rememberMe: pending.rememberMe, accountId: pending.linkAccountId, accountAddress: accountAddress)
    }

    /// The identity's main address, then the other addresses the provider verified (well-formed, each once).
    static func vouchedAddresses(_ identity: ExternalIdentity, main: String) -> [String] {
        var seen: Set<String> = []
        return ([main] + identity.otherVerifiedEmails.map { $0.trimmingWhitespace() }).filter { address in
            EmailFormat.isValid(address) && seen.insert(EmailFormat.normalized(address)).inserted
        }
    }
}
