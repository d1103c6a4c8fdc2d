// Sessions.swift: signed-in sessions: created at sign-in, looked up on every request, revoked at sign-out.
//
// Options (SessionPolicy, config section `session`):
//   lifetime           absolute lifetime
//   idle_timeout       ends a session unused this long (not for remember-me sessions)
//   remember_lifetime  absolute lifetime with "remember me"
//   api.token_lifetime absolute lifetime of an API token (no idle timeout)
// Only the SHA-256 digest of the cookie's token is stored. Ended rows wait, refused by `isLive`, until the pruner
// removes them (Retention+Expiry), never in a sign-in.
// A session is of one kind: `browser` (the session cookie; the gate, pages and BrowserID read only these) or `api`
// (the JSON API's X-User-Token, found by `APITokens.find`, only together with one of the account's addresses).
import Foundation
import IPAddresses

/// Who is asking: recorded with a session so its owner can recognise it later.
public struct ClientInfo: Sendable, Equatable {
    public var userAgent: String
    public var remoteAddress: String
    /// What per-address limits (lockout by address, the sign-up limit) count: the address itself for IPv4, its
    /// network of `ipv6Prefix` bits for IPv6 (`2001:db8:1:2::/64`), since one client holds a whole /64.
    public var addressGroup: String
    /// The language the request was answered in; an account created by it keeps it as its preference.
    public var language: String?
    /// The admin acting on someone else's account (their account id), written to the audit rows as `actorId`; nil
    /// when people act for themselves.
    public var actorId: Int64? = nil

    /// How many leading bits of an IPv6 client address per-address limits count by (`client.ipv6_prefix`).
    public static let defaultIPv6Prefix = 64

    public init(userAgent: String = "", remoteAddress: String = "", language: String? = nil, ipv6Prefix: Int = Self.defaultIPv6Prefix) {
        self.userAgent = String(userAgent.prefix(512))
        self.remoteAddress = String(remoteAddress.prefix(64))
        self.addressGroup = IPAddress.group(of: self.remoteAddress, ipv6Prefix: ipv6Prefix)
        self.language = language.map { String($0.prefix(35)) }
    }
}

/// Who holds a session's token: a browser (the session cookie) or a native app (the JSON API's X-User-Token).
public enum SessionKind: String, Sendable, Equatable {
    case browser
    case api
}

/// A session as the lookup reads it and a request sees it (the one session value; lists add where it was started: SessionEntry).
public struct SessionInfo: Sendable, Equatable {
    public var digest: Data
    public var accountId: Int64
    /// The account's primary address.
    public var email: String
    public var createdAt: Date
    public var lastSeenAt: Date
    public var expiresAt: Date
    public var rememberMe: Bool
    public var kind: SessionKind = .browser
    /// Whether the primary address was verified (the gate passes on and matches only a verified address); false
    /// where the row did not say (a session just made, an API token).
    public var emailVerified: Bool = false
    /// The account's username (Usernames.swift); "" where the row did not say (a session just made, an API token) or
    /// the account has none yet (made by an older host: `find` gives it one).
    public var username: String = ""
    /// The account's display name; "" when unset.
    public var displayName: String = ""
    /// The names of the account's groups, sorted (the gate's `group:` rule and `Remote-Groups`); empty where the row
    /// did not say.
    public var groups: [String] = []
    /// How many factors proved the session: 1 (a password, a provider), 2 (a password and a second factor, a passkey).
    public var factors: Int = 1
}

/// A new session: the token for the cookie (never stored) and what was stored.
public struct SessionGrant: Sendable {
    public var token: SecretToken
    public var session: SessionInfo
    /// What the browser must now hold, when the sign-in was given its tokens (see BrowserSessions).
    public var browser: BrowserState?
}

/// Creates, finds, refreshes and ends sessions.
public struct Sessions: Sendable {
    let database: AppDatabase
    let policy: SessionPolicy
    let clock: any Clock
    let random: any RandomSource
    /// The sessions this process is touching now (one touch in flight per session).
    let touches = TouchesInFlight()

    public init(database: AppDatabase, policy: SessionPolicy, clock: any Clock, random: any RandomSource) {
        self.database = database
        self.policy = policy
        self.clock = clock
        self.random = random
    }

    /// Starts a session for `accountId`. An `api` session lasts `apiTokenLifetime` and has no
    /// idle timeout (it is stored as remembered; `rememberMe` is ignored). `recentSignIn: false` (a bearer token an app
    /// handed over, which proves nothing about who holds the device now): the session never counts as a recent sign-in,
    /// so Reauthentication asks the password before sensitive changes.
    /// `factors`: how many factors proved this sign-in (SessionInfo.factors).
    func create(in tx: Transaction, accountId: Int64, email: String, rememberMe: Bool, client: ClientInfo,
                kind: SessionKind = .browser, recentSignIn: Bool = true, factors: Int = 1) throws -> SessionGrant {
        let now = clock.now()
        let token = SecretToken(random: random)
        let remembered = kind == .api || rememberMe
        let lifetime = kind == .api ? policy.apiTokenLifetime : (rememberMe ? policy.rememberLifetime : policy.lifetime)
        let expiresAt = now + lifetime
        try tx.insertSession(digest: token.digest, accountId: accountId, now: now, expiresAt: expiresAt, rememberMe: remembered,
                             client: client, kind: kind, authenticated: recentSignIn, factors: factors)
        var info = SessionInfo(digest: token.digest, accountId: accountId, email: email, createdAt: now,
                               lastSeenAt: now, expiresAt: expiresAt, rememberMe: remembered, kind: kind)
        info.factors = factors
        (info.username, info.displayName) = try tx.names(of: accountId) ?? ("", "")
        return SessionGrant(token: token, session: info, browser: nil)
    }

    /// The live session for a cookie's token, or nil when unknown, expired or idle too long.
    ///
    /// The hot path: one prepared SELECT on this thread's own read-only connection (an autocommit SELECT is its own
    /// snapshot; see SessionLookup), and a write only when `lastSeenAt` is older than the touch interval.
    public func find(token encoded: String) throws -> SessionInfo? {
        guard let token = SecretToken(encoded: encoded) else { return nil }
        guard var info = try database.backend.findBrowserSession(digest: token.digest) else { return nil }
        if info.username.isEmpty, isLive(info, at: clock.now()) {
            info.username = try Usernames(database: database).ensure(accountId: info.accountId, address: info.email)
        }
        return try touched(info)
    }

    /// `info` when it is still live, with `lastSeenAt` written when it is older than the touch interval (at most one write
    /// a minute per session); nil when it has ended. Cookie sessions and API tokens share it. The write is best effort
    /// and never holds the request up: skipped while another request of this process touches the same session, or when
    /// the backend has no connection free at once (the next request tries again), and when the database cannot take it
    /// (full, I/O error, lock timeout) the session still counts as seen now, so people already signed in keep passing
    /// the gate while changes are refused.
    func touched(_ info: SessionInfo) throws -> SessionInfo? {
        var info = info
        let now = clock.now()
        guard isLive(info, at: now) else { return nil }
        if now.timeIntervalSince(info.lastSeenAt) >= policy.touchInterval {
            if touches.begin(info.digest) {
                defer { touches.end(info.digest) }
                do {
                    _ = try database.backend.touchSession(digest: info.digest, at: now, staleBefore: now - policy.touchInterval)
                } catch where StorageFailure.isUnavailable(error) {}
            }
            info.lastSeenAt = now
        }
        return info
    }

    /// True while `session` is within its absolute lifetime and, unless remembered, its idle timeout.
    public func isLive(_ session: SessionInfo, at now: Date) -> Bool {
        guard now < session.expiresAt else { return false }
        return session.rememberMe || now.timeIntervalSince(session.lastSeenAt) < policy.idleTimeout
    }

    /// What makes a session live now, as stored times (seconds): expiring after `now` and, unless remembered, seen
    /// after `idleSince` (the lists' SQL form of `isLive`).
    var liveBounds: (now: Double, idleSince: Double) {
        let now = clock.now().timeIntervalSince1970
        return (now, now - policy.idleTimeout)
    }

    /// Ends the session whose token is `encoded` (sign-out); unknown tokens are ignored.
    public func revoke(token encoded: String) throws {
        guard let token = SecretToken(encoded: encoded) else { return }
        try database.write { tx in try revoke(digest: token.digest, in: tx) }
    }

    /// Ends the session `digest` in the caller's transaction; an unknown digest is ignored. True when this call ended
    /// it (the DELETE's changed-row count: of two sign-outs at once, one ends the session).
    @discardableResult
    func revoke(digest: Data, in tx: Transaction) throws -> Bool {
        try tx.deleteSession(digest: digest, at: clock.now()) == 1
    }
}
