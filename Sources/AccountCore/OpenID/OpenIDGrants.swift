// OpenIDGrants.swift: the OpenID Connect provider's state (services.openID): authorization codes, grants and their
// access and refresh tokens, introspection, revocation, subjects and session ids. Consent, the device flow, pushed
// requests and the back-channel logout queue are in OpenIDGrants+*.swift.
//
// Options (OpenIDPolicy, config `oidc`): code, access token, refresh token, device code and pushed request lifetimes, the
// device poll interval, logout delivery attempts. The session's idle timeout (`session.idle_timeout`) decides, as for the
// gate, whether the Frontdoor session behind a grant is still live.
// Rules:
// - Every secret (code, access and refresh token, device code) is 32 random bytes, base64url; only its SHA-256 is stored.
// - A code is used once (conditional UPDATE) within its lifetime, by its client, with its redirect URI; PKCE S256 is
//   checked when the code has a challenge, and a public client's code must have one.
// - Replay: a used code or a used (rotated) refresh token presented again, even by a racer a moment later, revokes the
//   whole grant (every token of the family), commits that (CommittedFailure), then answers invalid_grant. So of two
//   racers redeeming one code or rotating one refresh token exactly one gets tokens, and those die at once with the
//   loser's replay: a secret sent twice may have been stolen, and the spec (RFC 6749 §4.1.2, OAuth 2.0 Security BCP
//   §4.14) prefers a sign-in again to a thief's use.
// - A grant lives no longer than the Frontdoor session it came from: ending the session (any delete of its row) revokes
//   it in that transaction (SessionStore), and a refresh or access token of a grant whose session has expired or gone
//   idle is refused even before the pruner deletes the row.
import Crypto
import Encodings
import Foundation
import Logging

/// The provider's grants and tokens.
///
/// ```swift
/// let code = try services.openID.issueCode(OpenIDCodeRequest(clientID: "grafana", redirectURI: uri, scopes: ["openid"],
///                                                            authentication: who))
/// let issued = try services.openID.redeemCode(code, client: grafana, redirectURI: uri, codeVerifier: nil)
/// let again = try services.openID.refresh(issued.refreshToken!, client: grafana, scopes: nil)
/// ```
public struct OpenIDGrants: Sendable {
    let database: AppDatabase
    public let policy: OpenIDPolicy
    let sessionIdleTimeout: TimeInterval
    let audit: AuditLog
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
    /// Counts wrong user codes against the client address, as failed sign-ins are (OpenIDGrants+Device); nil: not counted.
    let lockout: Lockout?

    public init(database: AppDatabase, policy: OpenIDPolicy = .default, sessionIdleTimeout: TimeInterval = SessionPolicy.default.idleTimeout,
                audit: AuditLog, clock: any Clock, random: any RandomSource, logger: Logger, lockout: Lockout? = nil) {
        self.lockout = lockout
        self.database = database
        self.policy = policy
        self.sessionIdleTimeout = sessionIdleTimeout
        self.audit = audit
        self.clock = clock
        self.random = random
        self.logger = logger
    }

    static let accessKind = "access"
    static let refreshKind = "refresh"

    // MARK: Codes

    /// A new authorization code for the signed-in person; only its digest is stored.
    public func issueCode(_ request: OpenIDCodeRequest) throws -> String {
        let code = SecretToken(random: random)
        let now = clock.now()
        try database.write { tx in try tx.insertOpenIDCode(digest: code.digest, request: request, now: now, expiresAt: now + policy.codeLifetime) }
        return code.encoded
    }

    /// Tokens for a code: see the rules in the header. Throws `OpenIDError.invalidGrant` (reason in the text) otherwise.
    public func redeemCode(_ code: String, client: OpenIDClient, redirectURI: String, codeVerifier: String?) throws -> OpenIDIssued {
        guard let token = SecretToken(encoded: code) else { throw OpenIDError.invalidGrant("malformed code") }
        let now = clock.now()
        return try database.write { tx in
            guard let stored = try tx.openIDCode(digest: token.digest) else { throw OpenIDError.invalidGrant("unknown code") }
            guard stored.clientId == client.id else { throw OpenIDError.invalidGrant("another client's code") }
            if stored.usedAt == nil {
                guard stored.expiresAt > now.timeIntervalSince1970 else { throw OpenIDError.invalidGrant("expired code") }
                guard stored.redirectURI == redirectURI else { throw OpenIDError.invalidGrant("redirect_uri differs") }
                try Self.checkPKCE(challenge: stored.codeChallenge, verifier: codeVerifier, required: client.isPublic)
            }
            guard stored.usedAt == nil, try tx.useOpenIDCode(digest: token.digest, now: now) else {
                try replayed(code: token.digest, accountId: stored.accountId, client: client, now: now, in: tx)
            }
            guard try tx.openIDSessionIsLive(digest: stored.sessionDigest, now: now, idleSince: now - sessionIdleTimeout, holding: true) else {
                throw OpenIDError.invalidGrant("the session ended")
            }
            let who = OpenIDAuthentication(accountID: stored.accountId, sessionDigest: stored.sessionDigest,
                                           authTime: Date(timeIntervalSince1970: stored.authTime), factors: stored.factors)
            let grant = try newGrant(client: client, scopes: stored.scopes, nonce: stored.nonce, who: who, now: now, in: tx)
            try tx.setOpenIDCodeGrant(digest: token.digest, grantId: grant.id)
            return try issueTokens(grant: grant, scopes: grant.scopes, sessionDigest: who.sessionDigest, now: now, in: tx)
        }
    }

    /// A used code came again: revoke what it issued, keep that, refuse.
    private func replayed(code digest: Data, accountId: Int64, client: OpenIDClient, now: Date, in tx: Transaction) throws -> Never {
        if let grantId = try tx.openIDCodeGrant(digest: digest) { try tx.revokeOpenIDGrant(id: grantId, at: now) }
        try audit.record(.openIDCodeReused, accountId: accountId, email: nil, client: ClientInfo(), detail: "client \(client.id)", in: tx)
        logger.notice("authorization code reused; its grant is revoked", metadata: ["client": "\(client.id)", "account": "\(accountId)"])
        throw CommittedFailure(OpenIDError.invalidGrant("code already used"))
    }

    /// PKCE (RFC 7636), S256 only: BASE64URL(SHA256(verifier)) == challenge, verifier 43–128 unreserved characters.
    static func checkPKCE(challenge: String?, verifier: String?, required: Bool) throws {
        guard let challenge else {
            if required { throw OpenIDError.invalidGrant("a public client's code needs PKCE") }
            if verifier != nil { throw OpenIDError.invalidGrant("code_verifier without a challenge") }
            return
        }
        guard let verifier, (43...128).contains(verifier.utf8.count),
              verifier.utf8.allSatisfy({ $0.isUnreservedURICharacter }) else { throw OpenIDError.invalidGrant("code_verifier missing or malformed") }
        let computed = Base64URL.encode([UInt8](SHA256.hash(data: Data(verifier.utf8))))
        guard constantTimeEqual(computed, challenge) else { throw OpenIDError.invalidGrant("code_verifier does not match") }
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<x.count { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    // MARK: Grants and tokens

    /// A new grant for `who` (its session still there), ending with that session (and never later).
    func newGrant(client: OpenIDClient, scopes: [String], nonce: String?, who: OpenIDAuthentication, now: Date,
                  in tx: Transaction) throws -> OpenIDGrant {
        guard let sessionEnd = try tx.openIDSessionEnd(digest: who.sessionDigest) else { throw OpenIDError.invalidGrant("the session ended") }
        let grant = OpenIDGrant(id: Base64URL.encode(random.bytes(16)), clientID: client.id, accountID: who.accountID, scopes: scopes,
                                nonce: nonce, authTime: who.authTime, factors: who.factors, sid: sid(sessionDigest: who.sessionDigest),
                                createdAt: now)
        try tx.insertOpenIDGrant(grant, sessionDigest: who.sessionDigest, backchannel: client.backchannelLogoutURI?.isEmpty == false,
                                 expiresAt: Date(timeIntervalSince1970: sessionEnd))
        return grant
    }

    /// A new access token and refresh token in `grant` (the refresh token ends with the session at the latest).
    func issueTokens(grant: OpenIDGrant, scopes: [String], sessionDigest: Data, now: Date, in tx: Transaction) throws -> OpenIDIssued {
        let access = SecretToken(random: random)
        let refresh = SecretToken(random: random)
        let sessionEnd = try tx.openIDSessionEnd(digest: sessionDigest) ?? now.timeIntervalSince1970
        try tx.insertOpenIDToken(digest: access.digest, kind: Self.accessKind, grantId: grant.id, scopes: scopes, now: now,
                                 expiresAt: now + policy.accessTokenLifetime)
        try tx.insertOpenIDToken(digest: refresh.digest, kind: Self.refreshKind, grantId: grant.id, scopes: grant.scopes, now: now,
                                 expiresAt: min(now + policy.refreshTokenLifetime, Date(timeIntervalSince1970: sessionEnd)))
        guard try tx.touchOpenIDGrant(id: grant.id, at: now) else { throw OpenIDError.invalidGrant("grant revoked") }
        return OpenIDIssued(accessToken: access.encoded, refreshToken: refresh.encoded, expiresIn: Int(policy.accessTokenLifetime),
                            scopes: scopes, grant: grant)
    }

    /// Rotates a refresh token: see the rules in the header. `scopes` may narrow the new access token's (never widen).
    public func refresh(_ token: String, client: OpenIDClient, scopes: [String]?) throws -> OpenIDIssued {
        guard let secret = SecretToken(encoded: token) else { throw OpenIDError.invalidGrant("malformed refresh token") }
        let now = clock.now()
        return try database.write { tx in
            guard let stored = try tx.openIDToken(digest: secret.digest), stored.kind == Self.refreshKind else {
                throw OpenIDError.invalidGrant("unknown refresh token")
            }
            guard stored.grant.clientID == client.id else { throw OpenIDError.invalidGrant("another client's refresh token") }
            guard !stored.grantRevoked else { throw OpenIDError.invalidGrant("grant revoked") }
            guard stored.usedAt == nil, try tx.useOpenIDToken(digest: secret.digest, now: now) else {
                try tx.revokeOpenIDGrant(id: stored.grantId, at: now)
                try audit.record(.openIDRefreshTokenReused, accountId: stored.grant.accountID, email: nil, client: ClientInfo(),
                                 detail: "client \(client.id)", in: tx)
                logger.notice("refresh token reused; its grant is revoked", metadata: ["client": "\(client.id)"])
                throw CommittedFailure(OpenIDError.invalidGrant("refresh token already used"))
            }
            guard stored.expiresAt > now.timeIntervalSince1970 else { throw OpenIDError.invalidGrant("refresh token expired") }
            guard try tx.openIDSessionIsLive(digest: stored.sessionDigest, now: now, idleSince: now - sessionIdleTimeout) else {
                throw OpenIDError.invalidGrant("the session ended")
            }
            let asked = scopes ?? stored.grant.scopes
            guard Set(asked).isSubset(of: stored.grant.scopes) else { throw OpenIDError.invalidScope }
            // An app refreshing is the person at work: a use of the session, as a page view is (so a session without
            // "remember me" lives while its apps are used; access tokens live shorter than the idle timeout for that).
            try tx.touchSession(digest: stored.sessionDigest, lastSeenAt: now, staleBefore: now)
            return try issueTokens(grant: stored.grant, scopes: asked, sessionDigest: stored.sessionDigest, now: now, in: tx)
        }
    }

    /// A token of `kind` that is live now: unexpired, unused (refresh), its grant unrevoked and its session live.
    private func liveToken(_ token: String, in tx: Transaction, now: Date) throws -> StoredOpenIDToken? {
        guard let secret = SecretToken(encoded: token), let stored = try tx.openIDToken(digest: secret.digest),
              !stored.grantRevoked, stored.usedAt == nil, stored.expiresAt > now.timeIntervalSince1970,
              try tx.openIDSessionIsLive(digest: stored.sessionDigest, now: now, idleSince: now - sessionIdleTimeout) else { return nil }
        return stored
    }

    /// The live access token `token` (userinfo, the API exchange), or nil.
    public func accessToken(_ token: String) throws -> OpenIDAccess? {
        let now = clock.now()
        return try database.read { tx in
            guard let stored = try liveToken(token, in: tx, now: now), stored.kind == Self.accessKind else { return nil }
            return OpenIDAccess(grant: stored.grant, scopes: stored.scopes, issuedAt: Date(timeIntervalSince1970: stored.createdAt),
                                expiresAt: Date(timeIntervalSince1970: stored.expiresAt))
        }
    }

    /// RFC 7662: an access or refresh token of `client` that is live, or nil (inactive; another client's tokens are
    /// inactive to it).
    public func introspect(_ token: String, client: OpenIDClient) throws -> OpenIDIntrospection? {
        let now = clock.now()
        return try database.read { tx in
            guard let stored = try liveToken(token, in: tx, now: now), stored.grant.clientID == client.id else { return nil }
            return OpenIDIntrospection(kind: stored.kind == Self.accessKind ? .accessToken : .refreshToken, grant: stored.grant,
                                       scopes: stored.scopes, issuedAt: Date(timeIntervalSince1970: stored.createdAt),
                                       expiresAt: Date(timeIntervalSince1970: stored.expiresAt))
        }
    }

    /// RFC 7009: an access token ends alone; a refresh token ends its grant. Unknown tokens and other clients' are ignored.
    public func revoke(_ token: String, client: OpenIDClient) throws {
        guard let secret = SecretToken(encoded: token) else { return }
        let now = clock.now()
        try database.write { tx in
            guard let stored = try tx.openIDToken(digest: secret.digest), stored.grant.clientID == client.id else { return }
            if stored.kind == Self.accessKind {
                try tx.deleteOpenIDToken(digest: secret.digest)
            } else {
                try tx.revokeOpenIDGrant(id: stored.grantId, at: now)
            }
        }
    }

    // MARK: Identifiers

    /// The account's `sub` for `client`: HMAC-SHA256(server secret "openid_subject", "public:<account id>"), or
    /// "pairwise:<client id>:<account id>" for a pairwise client; base64url. Stable, the same on every host, never
    /// reassigned (account ids are never reused).
    public func subject(accountID: Int64, client: OpenIDClient) throws -> String {
        let key = try database.secret(named: "openid_subject", random: random)
        let input = client.subjectType == .pairwise ? "pairwise:\(client.id):\(accountID)" : "public:\(accountID)"
        return Base64URL.encode([UInt8](HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: key))))
    }

    /// The `sid` of a Frontdoor session: the same for every client; base64url of SHA-256 over a label and the session's
    /// digest (which only the database holds), so it tells nothing of the session's token.
    public func sid(sessionDigest: Data) -> String {
        Base64URL.encode([UInt8](SHA256.hash(data: Data("frontdoor-oidc-sid:".utf8) + sessionDigest)))
    }
}

extension UInt8 {
    /// RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~".
    var isUnreservedURICharacter: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5a).contains(self) || (0x61...0x7a).contains(self) || self == 0x2d || self == 0x2e
            || self == 0x5f || self == 0x7e
    }
}
