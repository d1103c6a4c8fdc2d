// SocialLinks.swift: an account's linked providers, for the settings page and the provider-token endpoint: list,
// unlink (refused when it is the account's last way to sign in: no password and no other provider), and the
// sealed provider tokens (opened for the operator's backend, stored again after a refresh).
//
// Options: none of its own. Tokens are sealed by the TokenVault with the identity's "<provider>\n<subject>" as
// associated data. `accountId(forEmail:)` knows verified addresses only, so an address someone merely claimed never
// leads to another account's tokens.
import AccountRules
import Foundation
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

    /// The account's linked providers, oldest first.
    public func identities(accountId: Int64) throws -> [LinkedIdentity] {
        try database.read { tx in try tx.linkedIdentities(accountId: accountId) }
    }

    var methods: SignInMethods { SignInMethods(database: database, audit: audit, clock: clock) }

    /// Whether the account has a password (accounts made through a provider have none until one is set).
    public func hasPassword(accountId: Int64) throws -> Bool {
        try methods.hasPassword(accountId: accountId)
    }

    /// Unlinks `provider`: `.notFound` when not linked; `.refused("social_last_method")` when it is the last way to
    /// sign in. Audited; the account's primary address is mailed.
    public func unlink(accountId: Int64, provider: String, client: ClientInfo) throws {
        try database.write { tx in
            // Never the last way to sign in, even with two unlinks at once (SignInMethods holds the account's row).
            guard try methods.mayRemove(.provider(provider), accountId: accountId, in: tx) else {
                throw AccountError.refused("social_last_method")
            }
            try tx.deleteSocialIdentity(accountId: accountId, provider: provider)
            let primary = try EmailAddress.primaryAddress(of: accountId, in: tx)
            try audit.record(.identityUnlinked, accountId: accountId, email: primary, client: client, detail: provider, in: tx)
            if let primary { try mail.enqueue(.identityUnlinked(provider: provider), to: primary, in: tx) }
        }
        logger.info("identity unlinked", metadata: ["account": "\(accountId)", "provider": "\(provider)"])
    }

    /// The account id for `email` (any verified address), for the token endpoint.
    public func accountId(forEmail email: String) throws -> Int64? {
        try database.read { tx in try tx.accountIdHoldingVerified(normalizedAddress: EmailFormat.normalized(email.trimmingWhitespace())) }
    }

    /// The opened tokens of the account's `provider` identity and when they expire; nil when not linked or none stored.
    ///
    /// - Throws: `TokenVaultError` when the stored tokens do not open (the key file was replaced).
    public func tokens(accountId: Int64, provider: String) throws -> (tokens: Data, expiresAt: Date?)? {
        let stored = try database.read { tx in try tx.socialTokens(accountId: accountId, provider: provider) }
        guard let stored, let sealed = stored.sealedTokens else { return nil }
        let opened = try vault.open(sealed, context: SocialStore.tokenContext(provider: provider, subject: stored.subject))
        return (opened, stored.tokenExpiresAt)
    }

    /// Stores refreshed tokens for the account's `provider` identity (sealed).
    ///
    /// - Throws: `.notFound` when the account has no such identity (unlinked meanwhile).
    public func storeTokens(accountId: Int64, provider: String, tokens: Data, expiresAt: Date?) throws {
        try database.write { tx in
            guard let subject = try tx.socialTokens(accountId: accountId, provider: provider)?.subject else { throw AccountError.notFound }
            let sealed = try vault.seal(tokens, context: SocialStore.tokenContext(provider: provider, subject: subject))
            try tx.storeSocialTokens(accountId: accountId, provider: provider, sealed: sealed, expiresAt: expiresAt)
        }
    }
}
