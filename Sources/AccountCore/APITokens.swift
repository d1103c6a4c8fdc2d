// APITokens.swift: the tokens native apps authenticate with (the JSON API's X-User-Email + X-User-Token).
//
// Options: `api.token_lifetime` (SessionPolicy.apiTokenLifetime, default 90 days, no idle timeout).
// An API token is a session of kind `api` (see Sessions): issued by the API's sign-in and sign-up, a provider token's
// sign-in and a collected email residence; stored only as its SHA-256 digest; listed and revocable on the sessions page
// like a browser's session; ended by a password change (except the token that made it) or reset, and with its account.
// It is accepted only together with one of its account's addresses, as simple_token_authentication pairs X-User-Email
// with X-User-Token: the token is the secret, the address names whose it is. Any address the account holds does (an
// app keeps the address it signed in with, which may stop being primary, or stay unconfirmed with confirmation off,
// while the app is away); the session cookie never carries one.
import AccountRules
import Foundation
import GRDB
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
    let clock: any Clock
    let logger: Logger

    /// The live API session for `token` when `email` is one of its account's addresses, compared normalized; nil
    /// otherwise (unknown, expired, a browser session's token, an address the account does not hold).
    public func find(email: String, token encoded: String) throws -> SessionInfo? {
        guard let token = SecretToken(encoded: encoded), !email.isEmpty else { return nil }
        let digest = token.digest
        let row = try database.writer.read { db in
            try Row.fetchOne(db, sql: """
                SELECT s.accountId, p.address, s.createdAt, s.lastSeenAt, s.expiresAt
                FROM session s JOIN emailAddress p ON p.accountId = s.accountId AND p.isPrimary
                WHERE s.digest = ? AND s.kind = 'api' AND EXISTS (
                    SELECT 1 FROM emailAddress e WHERE e.accountId = s.accountId AND e.normalizedAddress = ?)
                """, arguments: [digest, EmailFormat.normalized(email)])
        }
        guard let row else { return nil }
        return try sessions.touched(SessionInfo(digest: digest, accountId: row[0], email: row[1],
                                                createdAt: Date(timeIntervalSince1970: row[2]), lastSeenAt: Date(timeIntervalSince1970: row[3]),
                                                expiresAt: Date(timeIntervalSince1970: row[4]), rememberMe: true, kind: .api))
    }

    /// The account as the API describes it.
    ///
    /// - Throws: `AccountError.notFound` when the account is gone.
    public func summary(of accountId: Int64) throws -> APIUser {
        try database.writer.read { db in try Self.summary(of: accountId, in: db) }
    }

    static func summary(of accountId: Int64, in db: Database) throws -> APIUser {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT a.id, e.address, a.createdAt, a.updatedAt,
                   (SELECT address FROM emailAddress WHERE accountId = a.id AND makePrimaryOnVerify AND verifiedAt IS NULL
                    ORDER BY id DESC LIMIT 1)
            FROM account a JOIN emailAddress e ON e.accountId = a.id AND e.isPrimary WHERE a.id = ?
            """, arguments: [accountId]) else { throw AccountError.notFound }
        return APIUser(id: row[0], email: row[1], createdAt: Date(timeIntervalSince1970: row[2]),
                              updatedAt: Date(timeIntervalSince1970: row[3]), pendingEmail: row[4])
    }

    /// Issues an API token for `accountId` in the caller's transaction (residences, provider tokens).
    func issue(accountId: Int64, client: ClientInfo, in db: Database) throws -> SessionGrant {
        let primary = try EmailAddress.primaryAddress(of: accountId, in: Transaction(sqlite: db)) ?? ""
        return try sessions.create(in: db, accountId: accountId, email: primary, rememberMe: true, client: client, kind: .api)
    }

    /// Ends the API session `digest` (the API's sign-out) and records it; an unknown digest is ignored.
    public func signOut(session digest: Data, client: ClientInfo) throws {
        try database.writer.write { db in
            guard let accountId = try Int64.fetchOne(db, sql: "SELECT accountId FROM session WHERE digest = ? AND kind = 'api'",
                                                     arguments: [digest]) else { return }
            try sessions.revoke(digest: digest, in: db)
            try audit.record(.signOut, accountId: accountId, email: try EmailAddress.primaryAddress(of: accountId, in: Transaction(sqlite: db)),
                             client: client, detail: "api", in: db)
        }
    }
}
