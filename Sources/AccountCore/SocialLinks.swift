// SocialLinks.swift: an account's linked providers, for the settings page and the provider-token endpoint: list,
// unlink (refused when it is the account's last way to sign in: no password and no other provider), and the
// sealed provider tokens (opened for the operator's backend, stored again after a refresh).
//
// Options: none of its own. Tokens are sealed by the TokenVault with the identity's "<provider>\n<subject>" as
// associated data. `accountId(forEmail:)` knows verified addresses only, so an address someone merely claimed never
// leads to another account's tokens.
import AccountRules
import Foundation
import GRDB
import Logging

/// One linked provider, as the settings page lists it.
public struct LinkedIdentity: Sendable, Equatable {
    public var provider: String
    public var email: String?
    public var displayName: String
    public var linkedAt: Date
    public var lastUsedAt: Date?
}

/// An account's linked providers.
public struct SocialLinks: Sendable {
    let database: AppDatabase
    let vault: TokenVault
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let logger: Logger

    public init(database: AppDatabase, vault: TokenVault, mail: MailQueue, audit: AuditLog, clock: any Clock, logger: Logger) {
        self.database = database
        self.vault = vault
        self.mail = mail
        self.audit = audit
        self.clock = clock
        self.logger = logger
    }

    var store: SocialStore { SocialStore(vault: vault, clock: clock) }

    /// The account's linked providers, oldest first.
    public func identities(accountId: Int64) throws -> [LinkedIdentity] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT provider, email, displayName, createdAt, lastUsedAt FROM socialIdentity WHERE accountId = ? ORDER BY createdAt, id
                """, arguments: [accountId]).map { row in
                LinkedIdentity(provider: row[0], email: row[1], displayName: row[2], linkedAt: Date(timeIntervalSince1970: row[3]),
                               lastUsedAt: (row[4] as Double?).map { Date(timeIntervalSince1970: $0) })
            }
        }
    }

    /// Whether the account has a password (accounts made through a provider have none until one is set).
    public func hasPassword(accountId: Int64) throws -> Bool {
        try database.writer.read { db in try store.hasPassword(accountId: accountId, in: db) }
    }

    /// Unlinks `provider`: `.notFound` when not linked; `.refused("social_last_method")` when it is the last way to
    /// sign in. Audited; the account's primary address is mailed.
    public func unlink(accountId: Int64, provider: String, client: ClientInfo) throws {
        try database.writer.write { db in
            guard try store.hasProvider(provider, accountId: accountId, in: db) else { throw AccountError.notFound }
            let others = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM socialIdentity WHERE accountId = ? AND provider <> ?",
                                          arguments: [accountId, provider]) ?? 0
            let hasPassword = try store.hasPassword(accountId: accountId, in: db)
            guard others > 0 || hasPassword else {
                throw AccountError.refused("social_last_method")
            }
            try db.execute(sql: "DELETE FROM socialIdentity WHERE accountId = ? AND provider = ?", arguments: [accountId, provider])
            let primary = try EmailAddress.primaryAddress(of: accountId, in: Transaction(sqlite: db))
            try audit.record(.identityUnlinked, accountId: accountId, email: primary, client: client, detail: provider, in: db)
            if let primary { try mail.enqueue(.identityUnlinked(provider: provider), to: primary, in: db) }
        }
        logger.info("identity unlinked", metadata: ["account": "\(accountId)", "provider": "\(provider)"])
    }

    /// The account id for `email` (any verified address), for the token endpoint.
    public func accountId(forEmail email: String) throws -> Int64? {
        try database.writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT accountId FROM emailAddress WHERE normalizedAddress = ? AND verifiedAt IS NOT NULL",
                               arguments: [EmailFormat.normalized(email.trimmingWhitespace())])
        }
    }

    /// The opened tokens of the account's `provider` identity and when they expire; nil when not linked or none stored.
    ///
    /// - Throws: `TokenVaultError` when the stored tokens do not open (the key file was replaced).
    public func tokens(accountId: Int64, provider: String) throws -> (tokens: Data, expiresAt: Date?)? {
        let row = try database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT subject, sealedTokens, tokenExpiresAt FROM socialIdentity WHERE accountId = ? AND provider = ?",
                             arguments: [accountId, provider])
        }
        guard let row, let sealed = row[1] as Data? else { return nil }
        let opened = try vault.open(sealed, context: SocialStore.tokenContext(provider: provider, subject: row[0]))
        return (opened, (row[2] as Double?).map { Date(timeIntervalSince1970: $0) })
    }

    /// Stores refreshed tokens for the account's `provider` identity (sealed).
    ///
    /// - Throws: `.notFound` when the account has no such identity (unlinked meanwhile).
    public func storeTokens(accountId: Int64, provider: String, tokens: Data, expiresAt: Date?) throws {
        try database.writer.write { db in
            guard let subject = try String.fetchOne(db, sql: "SELECT subject FROM socialIdentity WHERE accountId = ? AND provider = ?",
                                                    arguments: [accountId, provider]) else { throw AccountError.notFound }
            let sealed = try vault.seal(tokens, context: SocialStore.tokenContext(provider: provider, subject: subject))
            try db.execute(sql: "UPDATE socialIdentity SET sealedTokens = ?, tokenExpiresAt = ? WHERE accountId = ? AND provider = ?",
                           arguments: [sealed, expiresAt?.timeIntervalSince1970, accountId, provider])
        }
    }
}
