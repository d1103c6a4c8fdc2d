// APITokens.swift: the tokens native apps authenticate with (the JSON API's X-User-Email + X-User-Token).
//
// Options: `api.token_lifetime` (SessionPolicy.apiTokenLifetime; no idle timeout).
// An API token is a session of kind `api` (see Sessions): issued by the API's sign-in and sign-up, a provider token's
// sign-in and a collected email residence; stored only as its SHA-256 digest; listed and revocable on the sessions page
// like a browser's session; ended by a password change (except the token that made it) or reset, and with its account.
// It is accepted only together with one of its account's addresses, as simple_token_authentication pairs X-User-Email
// with X-User-Token: the token is the secret, the address names whose it is. Any address the account holds does (an
// app keeps the address it signed in with, which may stop being primary, or stay unconfirmed with confirmation off,
// while the app is away); the session cookie never carries one.
import AccountRules
import Foundation
import Logging

/// What the JSON API says about an account (devise-ios's user: id, email, createdAt, updatedAt).
public struct APIUser: Sendable, Equatable {
    public var id: Int64
    /// The primary address.
    public var email: String
    public var createdAt: Date
    public var updatedAt: Date
    /// An address the API's profile update asked for, waiting for its confirmation to become primary.
    public var pendingEmail: String?
    /// The account's username ("" only for an account an older host made that was never looked up since).
    public var username: String = ""
    /// The display name; "" when unset.
    public var displayName: String = ""
    /// The operator's declared profile fields that have a value, by field name (filled by the caller that knows them).
    public var profile: [String: String] = [:]

    public init(id: Int64, email: String, createdAt: Date, updatedAt: Date, pendingEmail: String? = nil) {
        self.id = id
        self.email = email
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.pendingEmail = pendingEmail
    }
}

/// Finding, describing and ending API tokens.
public struct APITokens: Sendable {
    let database: AppDatabase
    let sessions: Sessions
    let audit: AuditLog
    let logger: Logger

    /// The live API session for `token` when `email` is one of its account's addresses, compared normalized; nil
    /// otherwise (unknown, expired, a browser session's token, an address the account does not hold).
    public func find(email: String, token encoded: String) throws -> SessionInfo? {
        guard let token = SecretToken(encoded: encoded), !email.isEmpty else { return nil }
        let digest = token.digest
        let found = try database.read { tx in try tx.apiSession(digest: digest, normalizedAddress: EmailFormat.normalized(email)) }
        guard let found else { return nil }
        return try sessions.touched(found)
    }

    /// The account as the API describes it.
    ///
    /// - Throws: `AccountError.notFound` when the account is gone.
    public func summary(of accountId: Int64) throws -> APIUser {
        try database.read { tx in try Self.summary(of: accountId, in: tx) }
    }

    static func summary(of accountId: Int64, in tx: Transaction) throws -> APIUser {
        guard let user = try tx.apiUser(accountId: accountId) else { throw AccountError.notFound }
        return user
    }

    /// Issues an API token for `accountId` in the caller's transaction (residences, provider tokens).
    func issue(accountId: Int64, client: ClientInfo, in tx: Transaction) throws -> SessionGrant {
        let primary = try EmailAddress.primaryAddress(of: accountId, in: tx) ?? ""
        return try sessions.create(in: tx, accountId: accountId, email: primary, rememberMe: true, client: client, kind: .api)
    }

    /// Ends the API session `digest` (the API's sign-out) and records it; an unknown digest is ignored.
    public func signOut(session digest: Data, client: ClientInfo) throws {
        try database.write { tx in
            // Recorded once: only the sign-out whose DELETE ended the session writes the audit row.
            guard let accountId = try tx.apiSessionAccount(digest: digest), try sessions.revoke(digest: digest, in: tx) else { return }
            try audit.record(.signOut, accountId: accountId, email: try EmailAddress.primaryAddress(of: accountId, in: tx),
                             client: client, detail: "api", in: tx)
        }
    }
}
