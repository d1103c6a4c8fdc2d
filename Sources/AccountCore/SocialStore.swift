// SocialStore.swift: the `socialIdentity` and `socialPending` rows as SocialSignIn and SocialLinks read and write
// them, always inside the caller's transaction.
//
// Options: none of its own (the vault seals, the clock dates). An identity's provider tokens are sealed with the
// context "<provider>\n<subject>", the same for a pending identity, so a pending row's blob moves to the identity row
// as it is; a carried invitation is sealed with "invite". Display names are kept to what the profile allows (one line,
// 100 characters). A pending identity is found only by the digest of its token, in the browser it was made for
// (digest of the binding, compared in constant time), unexpired and unused; expired ones go when a new one is made.
import AccountRules
import Foundation
import GRDB

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
    var identity: IdentityRecord
    var emailVerified: Bool
    var linkAccountId: Int64?
    var returnTo: String
    var sealedInvite: Data?
    var rememberMe: Bool
}

/// Reads and writes identities and pending identities.
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

    // MARK: Identities

    /// The account the identity is linked to.
    func owner(provider: String, subject: String, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT accountId FROM socialIdentity WHERE provider = ? AND subject = ?", arguments: [provider, subject])
    }

    /// Whether the account has an identity of `provider` (whatever its subject).
    func hasProvider(_ provider: String, accountId: Int64, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM socialIdentity WHERE accountId = ? AND provider = ?)",
                          arguments: [accountId, provider]) ?? false
    }

    /// Links `record` to the account (the unique keys refuse a second owner or a second identity of one provider).
    func insert(_ record: IdentityRecord, accountId: Int64, in db: Database) throws {
        let now = clock.now().timeIntervalSince1970
        try db.execute(sql: """
            INSERT INTO socialIdentity (accountId, provider, subject, email, displayName, sealedTokens, tokenExpiresAt, createdAt, lastUsedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [accountId, record.provider, record.subject, record.email, record.displayName, record.sealedTokens,
                             record.tokenExpiresAt?.timeIntervalSince1970, now, now])
    }

    /// Notes a use of the linked identity: when, and what the provider says now (address, name, fresh tokens if any).
    func refresh(_ record: IdentityRecord, in db: Database) throws {
        try db.execute(sql: """
            UPDATE socialIdentity SET lastUsedAt = ?, email = ?, displayName = ?,
                sealedTokens = COALESCE(?, sealedTokens), tokenExpiresAt = CASE WHEN ? IS NULL THEN tokenExpiresAt ELSE ? END
            WHERE provider = ? AND subject = ?
            """, arguments: [clock.now().timeIntervalSince1970, record.email, record.displayName, record.sealedTokens,
                             record.sealedTokens, record.tokenExpiresAt?.timeIntervalSince1970, record.provider, record.subject])
    }

    // MARK: Accounts

    /// The account holding `address` (any of its addresses, verified or not), compared normalized.
    func holder(of address: String, in db: Database) throws -> Int64? {
        try EmailAddress.holding(address, in: Transaction(sqlite: db))?.accountId
    }

    /// True when the account's primary address is not verified yet.
    func isUnconfirmed(accountId: Int64, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT verifiedAt IS NULL FROM emailAddress WHERE accountId = ? AND isPrimary", arguments: [accountId]) ?? false
    }

    /// Whether the account has a password ('' means none: made through a provider).
    func hasPassword(accountId: Int64, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT passwordHash <> '' FROM account WHERE id = ?", arguments: [accountId]) ?? false
    }

    // MARK: Pending identities

    /// Stores a pending identity bound to `binding` until `lifetime` passes; returns its token (for the cookie).
    func createPending(_ record: IdentityRecord, emailVerified: Bool, linkAccountId: Int64?, flow: SocialFlow, binding: [UInt8],
                       lifetime: TimeInterval, random: any RandomSource, in db: Database) throws -> String {
        let token = SecretToken(random: random)
        let now = clock.now()
        let invite = flow.invite.isEmpty ? nil : try vault.seal(Data(flow.invite.utf8), context: SocialFlows.inviteContext)
        try db.execute(sql: "DELETE FROM socialPending WHERE expiresAt <= ?", arguments: [now.timeIntervalSince1970])
        try db.execute(sql: """
            INSERT INTO socialPending (digest, bindingDigest, provider, subject, email, emailVerified, displayName, sealedTokens,
                                       tokenExpiresAt, linkAccountId, returnTo, sealedInvite, rememberMe, createdAt, expiresAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [token.digest, SocialFlows.digest(binding), record.provider, record.subject, record.email, emailVerified,
                             record.displayName, record.sealedTokens, record.tokenExpiresAt?.timeIntervalSince1970, linkAccountId,
                             flow.returnTo, invite, flow.rememberMe, now.timeIntervalSince1970, (now + lifetime).timeIntervalSince1970])
        return token.encoded
    }

    /// The pending identity with token digest `digest`, when it is unused, unexpired and was made in this browser.
    func pending(digest: Data, binding: [UInt8], in db: Database) throws -> PendingRecord? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM socialPending WHERE digest = ? AND usedAt IS NULL AND expiresAt > ?",
                                         arguments: [digest, clock.now().timeIntervalSince1970]),
              !binding.isEmpty, SocialFlows.constantTimeEquals(row["bindingDigest"], SocialFlows.digest(binding)) else { return nil }
        let identity = IdentityRecord(provider: row["provider"], subject: row["subject"], email: row["email"], displayName: row["displayName"],
                                      sealedTokens: row["sealedTokens"],
                                      tokenExpiresAt: (row["tokenExpiresAt"] as Double?).map { Date(timeIntervalSince1970: $0) })
        return PendingRecord(digest: digest, identity: identity, emailVerified: row["emailVerified"], linkAccountId: row["linkAccountId"],
                             returnTo: row["returnTo"], sealedInvite: row["sealedInvite"], rememberMe: row["rememberMe"])
    }

    /// The invitation a pending identity carries ("" = none, or it no longer opens).
    func invite(of pending: PendingRecord) -> String {
        guard let sealed = pending.sealedInvite, let opened = try? vault.open(sealed, context: SocialFlows.inviteContext) else { return "" }
        return String(decoding: opened, as: UTF8.self)
    }

    /// Uses the pending identity up; false when it was used meanwhile.
    func markUsed(_ pending: PendingRecord, in db: Database) throws -> Bool {
        try db.execute(sql: "UPDATE socialPending SET usedAt = ? WHERE digest = ? AND usedAt IS NULL",
                       arguments: [clock.now().timeIntervalSince1970, pending.digest])
        return db.changesCount == 1
    }
}
