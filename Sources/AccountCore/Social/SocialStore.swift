// SocialStore.swift: what social sign-in does to an identity before and after storage, inside the caller's transaction:
// seals its tokens and trims its name, makes and finds pending identities (their token, their browser, their carried
// invitation). The statements are in Storage/Stores/SocialIdentityStore.swift and SocialFlowStore.swift.
//
// Options: none of its own (the vault seals, the clock dates). An identity's provider tokens are sealed with the
// context "<provider>\n<subject>", the same for a pending identity, so a pending row's blob moves to the identity row
// as it is; a carried invitation is sealed with "invite". Display names are kept to what the profile allows (one line,
// 100 characters). A pending identity is found only by the digest of its token, in the browser it was made for
// (digest of the binding, compared in constant time), unexpired and unused; expired ones go when a new one is made.
import AccountRules
import Foundation

/// An identity as it is stored: tokens already sealed.
struct IdentityRecord: Sendable {
    var provider: String
    var subject: String
    var email: String?
    var displayName: String
    var sealedTokens: Data?
    var tokenExpiresAt: Date?
}

/// A pending identity's row.
struct PendingRecord: Sendable {
    var digest: Data
    /// SHA-256 of the binding cookie of the browser it was made in.
    var bindingDigest: Data
    var identity: IdentityRecord
    var emailVerified: Bool
    var linkAccountId: Int64?
    var returnTo: String
    var sealedInvite: Data?
    var rememberMe: Bool
}

/// Prepares identities for storage and makes, finds and uses up pending identities (statements: the stores).
struct SocialStore: Sendable {
    let vault: TokenVault
    let clock: any Clock

    /// The associated data of an identity's sealed tokens.
    static func tokenContext(provider: String, subject: String) -> String { provider + "\n" + subject }

    /// The display name as the profile may hold it: the first line, trimmed, at most 100 characters.
    static func displayName(_ name: String) -> String {
        let line = name.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return String(line.trimmingWhitespace().prefix(100))
    }

    /// `identity` ready to store: its tokens sealed, its display name trimmed.
    func record(_ identity: ExternalIdentity) throws -> IdentityRecord {
        let context = Self.tokenContext(provider: identity.provider, subject: identity.subject)
        return IdentityRecord(provider: identity.provider, subject: identity.subject,
                              email: identity.email.map { String($0.trimmingWhitespace().prefix(320)) },
                              displayName: Self.displayName(identity.displayName),
                              sealedTokens: try identity.tokens.map { try vault.seal($0, context: context) },
                              tokenExpiresAt: identity.tokens == nil ? nil : identity.tokenExpiresAt)
    }

    // MARK: Pending identities

    /// Stores a pending identity bound to `binding` until `lifetime` passes; returns its token (for the cookie). Expired
    /// pending identities are the pruner's (Retention+Expiry).
    func createPending(_ record: IdentityRecord, emailVerified: Bool, linkAccountId: Int64?, flow: SocialFlow, binding: [UInt8],
                       lifetime: TimeInterval, random: any RandomSource, in tx: Transaction) throws -> String {
        let token = SecretToken(random: random)
        let now = clock.now()
        let invite = flow.invite.isEmpty ? nil : try vault.seal(Data(flow.invite.utf8), context: SocialFlows.inviteContext)
        let pending = PendingRecord(digest: token.digest, bindingDigest: SocialFlows.digest(binding), identity: record,
                                    emailVerified: emailVerified, linkAccountId: linkAccountId, returnTo: flow.returnTo,
                                    sealedInvite: invite, rememberMe: flow.rememberMe)
        try tx.insertSocialPending(pending, createdAt: now, expiresAt: now + lifetime)
        return token.encoded
    }

    /// The pending identity with token digest `digest`, when it is unused, unexpired and was made in this browser.
    func pending(digest: Data, binding: [UInt8], in tx: Transaction) throws -> PendingRecord? {
        guard let pending = try tx.unusedSocialPending(digest: digest, now: clock.now()),
              !binding.isEmpty, SocialFlows.constantTimeEquals(pending.bindingDigest, SocialFlows.digest(binding)) else { return nil }
        return pending
    }

    /// The invitation a pending identity carries ("" = none, or it no longer opens).
    func invite(of pending: PendingRecord) -> String {
        guard let sealed = pending.sealedInvite, let opened = try? vault.open(sealed, context: SocialFlows.inviteContext) else { return "" }
        return String(decoding: opened, as: UTF8.self)
    }

    /// Uses the pending identity up; false when it was used meanwhile (the conditional UPDATE decides the one winner).
    func markUsed(_ pending: PendingRecord, in tx: Transaction) throws -> Bool {
        try tx.markSocialPendingUsed(digest: pending.digest, now: clock.now())
    }
}
