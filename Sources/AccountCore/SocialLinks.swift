// SocialLinks.swift: an account's linked providers, for the settings page and the provider-token endpoint: list,
// unlink (refused when it is the account's last way to sign in: no password and no other provider), and the
// sealed provider tokens (opened for the operator's backend, stored again after a refresh).
// (Foundation stub: helper C implements it; the public shape below is the contract.)
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

    /// The account's linked providers, oldest first.
    public func identities(accountId: Int64) throws -> [LinkedIdentity] { [] }

    /// Whether the account has a password (accounts made through a provider have none until one is set).
    public func hasPassword(accountId: Int64) throws -> Bool { true }

    /// Unlinks `provider`: `.notFound` when not linked; `.refused("social_last_method")` when it is the last way to
    /// sign in. Audited; the account's primary address is mailed.
    public func unlink(accountId: Int64, provider: String, client: ClientInfo) throws {}

    /// The account id for `email` (any verified address), for the token endpoint.
    public func accountId(forEmail email: String) throws -> Int64? { nil }

    /// The opened tokens of the account's `provider` identity and when they expire; nil when not linked or none stored.
    public func tokens(accountId: Int64, provider: String) throws -> (tokens: Data, expiresAt: Date?)? { nil }

    /// Stores refreshed tokens for the account's `provider` identity (sealed).
    public func storeTokens(accountId: Int64, provider: String, tokens: Data, expiresAt: Date?) throws {}
}
