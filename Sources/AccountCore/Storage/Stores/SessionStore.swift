// SessionStore.swift: the store operations on the `session` table (browser sessions and API tokens, which are
// sessions of kind 'api'), and the sign-in's own reads and writes of the credentials they are made from.
//
// Options: none. The hot path's lookup by digest is the backend's `findBrowserSession`, not here.
// Every statement is portable SQL (see Transaction.swift): `?` parameters, booleans as truth values, times as seconds.
import Foundation

extension Transaction {
    // MARK: Sessions

    /// Stores a new session; only `digest` (the SHA-256 of its token) is kept. The digest is the primary key.
    /// `authenticated`: the sign-in proved the person is there now, so `authenticatedAt` is `now`; else 0 (never).
    func insertSession(digest: Data, accountId: Int64, now: Date, expiresAt: Date, rememberMe: Bool, client: ClientInfo,
                       kind: SessionKind, authenticated: Bool = true, factors: Int = 1) throws {
        let at = now.timeIntervalSince1970
        try execute("""
            INSERT INTO session (digest, accountId, createdAt, lastSeenAt, expiresAt, rememberMe, userAgent, remoteAddress, authenticatedAt, kind,
                factors)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [digest, accountId, at, at, expiresAt.timeIntervalSince1970, rememberMe, client.userAgent, client.remoteAddress,
                  authenticated ? at : 0, kind.rawValue, factors])
    }

    /// The browser session `digest` with its account's primary address (the hot path's statement, in this
    /// transaction), live or not; nil when there is none.
    func browserSession(digest: Data) throws -> SessionInfo? {
        try row(SessionLookup.sql(dialect), [digest]).map { try SessionInfo(lookupRow: $0, digest: digest) }
    }

    /// Sets the session's `lastSeenAt` (the touch of a session in use) while the stored one is at or before
    /// `staleBefore`, so of several requests or hosts touching it at once only the first writes.
    func touchSession(digest: Data, lastSeenAt: Date, staleBefore: Date) throws {
        sessionsChanged(.touched(digest, lastSeenAt: lastSeenAt.timeIntervalSince1970))
        try execute(Self.touchSessionSQL, Self.touchSessionArguments(digest: digest, at: lastSeenAt, staleBefore: staleBefore))
    }

    /// The touch's one statement (a backend may run it on its own, outside a transaction) and its arguments.
    static let touchSessionSQL = "UPDATE session SET lastSeenAt = ? WHERE digest = ? AND lastSeenAt <= ?"

    /// The same touch on PostgreSQL, passing over a row another transaction holds (a sign-out ending it, another
    /// host's touch) instead of waiting for it; same arguments.
    static let touchSessionSkippingLockedSQL = """
        UPDATE session SET lastSeenAt = ?
        WHERE digest = (SELECT digest FROM session WHERE digest = ? AND lastSeenAt <= ? FOR UPDATE SKIP LOCKED)
        """

    static func touchSessionArguments(digest: Data, at now: Date, staleBefore: Date) -> SQLArguments {
        [now.timeIntervalSince1970, digest, staleBefore.timeIntervalSince1970]
    }

    /// Deletes the session `digest` (ending its OpenID grants at `now`); returns how many rows went (0 or 1).
    @discardableResult
    func deleteSession(digest: Data, at now: Date) throws -> Int {
        sessionsChanged(.session(digest))
        let deleted = try execute("DELETE FROM session WHERE digest = ?", [digest])
        try endOpenIDGrants(where: "sessionDigest = ?", [digest], at: now)
        return deleted
    }

    /// Deletes at most `limit` sessions past their absolute lifetime (`expiresAt` at or before `now`), the pruner's batch
    /// (index `session(expiresAt)`); returns how many went. No other host is told (`quietPurge`).
    func purgeExpiredSessions(endedBy now: Date, limit: Int) throws -> Int {
        try quietPurge()
        return try execute(Self.endedBatchSQL(.expiredSessions), [now.timeIntervalSince1970, limit])
    }

    /// Deletes at most `limit` sessions not remembered that were last seen at or before `idleSince`, the pruner's batch
    /// (the partial index `session_idle`); returns how many went. No other host is told (`quietPurge`).
    func purgeIdleSessions(lastSeenBy idleSince: Date, limit: Int) throws -> Int {
        try quietPurge()
        return try execute(Self.endedBatchSQL(.idleSessions), [idleSince.timeIntervalSince1970, limit])
    }

    /// Marks this transaction as the pruner's (PostgreSQL: `frontdoor.purging`, until it ends), so the session trigger
    /// sends no NOTIFY for the ended sessions it deletes: one per row, each bumping every host's cache, for rows every
    /// cache already refuses. SQLite has no other host to tell.
    private func quietPurge() throws {
        guard dialect == .postgresql else { return }
        _ = try row("SELECT set_config('frontdoor.purging', 'on', true) AS purging")
    }

    /// The live sessions (expiring after `now`; remembered, or seen after `idleSince`) of `accountId`, or of every
    /// account, each with its account's primary address ('' when none); the one whose digest is `current` is marked.
    /// Newest first, or most recently seen first (an owner's list).
    func liveSessions(of accountId: Int64?, now: Double, idleSince: Double, current: Data? = nil,
                      recentlySeenFirst: Bool = false) throws -> [SessionEntry] {
        let filter = accountId == nil ? "" : "s.accountId = ? AND "
        let arguments: SQLArguments = accountId == nil ? [now, idleSince] : [accountId, now, idleSince]
        let order = recentlySeenFirst ? "s.lastSeenAt DESC, s.createdAt DESC" : "s.createdAt DESC"
        return try rows("""
            SELECT s.digest AS digest, s.accountId AS accountId, COALESCE(e.address, '') AS email, s.createdAt AS createdAt,
                   s.lastSeenAt AS lastSeenAt, s.expiresAt AS expiresAt, s.rememberMe AS rememberMe, s.userAgent AS userAgent,
                   s.remoteAddress AS remoteAddress, s.kind AS kind
            FROM session s LEFT JOIN emailAddress e ON e.accountId = s.accountId AND e.isPrimary
            WHERE \(filter)\(Self.liveSQL("s."))
            ORDER BY \(order), s.digest
            """, arguments).map { row in
            let digest: Data = try row.decode("digest")
            let session = SessionInfo(digest: digest, accountId: try row.decode("accountId"), email: try row.decode("email"),
                                      createdAt: try row.decode("createdAt"), lastSeenAt: try row.decode("lastSeenAt"),
                                      expiresAt: try row.decode("expiresAt"), rememberMe: try row.decode("rememberMe"),
                                      kind: SessionKind(rawValue: try row.decode("kind")) ?? .browser)
            return SessionEntry(session: session, userAgent: try row.decode("userAgent"), remoteAddress: try row.decode("remoteAddress"),
                                isCurrent: digest == current)
        }
    }

    /// Deletes the account's session whose digest begins with the 16 bytes `prefix` (a session's handle); returns how
    /// many went. Digests are 32 bytes, so the prefix is the range from `prefix`+00… to `prefix`+ff… (blobs compare
    /// bytewise on both backends, and the range uses the primary key).
    func deleteSession(accountId: Int64, digestPrefix prefix: Data, at now: Date) throws -> Int {
        let low = prefix + Data(repeating: 0x00, count: 32 - prefix.count)
        let high = prefix + Data(repeating: 0xff, count: 32 - prefix.count)
        sessionsChanged(.account(accountId))
        let deleted = try execute("DELETE FROM session WHERE accountId = ? AND digest >= ? AND digest <= ?", [accountId, low, high])
        try endOpenIDGrants(where: "accountId = ? AND sessionDigest >= ? AND sessionDigest <= ?", [accountId, low, high], at: now)
        return deleted
    }

    /// The session's account and that account's primary address (nil when it has none), or nil when the session is gone.
    func sessionOwner(digest: Data) throws -> (accountId: Int64, email: String?)? {
        try row("""
            SELECT s.accountId AS accountId, e.address AS address
            FROM session s LEFT JOIN emailAddress e ON e.accountId = s.accountId AND e.isPrimary
            WHERE s.digest = ?
            """, [digest]).map { (accountId: try $0.decode("accountId"), email: $0["address"] as String?) }
    }

    // MARK: API tokens (sessions of kind 'api')

    /// The API session `digest` with its account's primary address, when the account holds an address whose normalized
    /// form is `normalizedAddress`; nil otherwise (unknown, a browser session, another account's address).
    func apiSession(digest: Data, normalizedAddress: String) throws -> SessionInfo? {
        try row("""
            SELECT s.accountId AS accountId, p.address AS address, s.createdAt AS createdAt, s.lastSeenAt AS lastSeenAt,
                   s.expiresAt AS expiresAt, s.factors AS factors
            FROM session s JOIN emailAddress p ON p.accountId = s.accountId AND p.isPrimary
            WHERE s.digest = ? AND s.kind = 'api' AND EXISTS (
                SELECT 1 FROM emailAddress e WHERE e.accountId = s.accountId AND e.normalizedAddress = ?)
            """, [digest, normalizedAddress]).map { row in
            var info = SessionInfo(digest: digest, accountId: try row.decode("accountId"), email: try row.decode("address"),
                                   createdAt: try row.decode("createdAt"), lastSeenAt: try row.decode("lastSeenAt"),
                                   expiresAt: try row.decode("expiresAt"), rememberMe: true, kind: .api)
            info.factors = try row.decode("factors")
            return info
        }
    }

    /// The account of the API session `digest`, or nil (unknown, or a browser session).
    func apiSessionAccount(digest: Data) throws -> Int64? {
        try value(Int64.self, "SELECT accountId FROM session WHERE digest = ? AND kind = 'api'", [digest])
    }

    /// The account as the JSON API describes it (primary address, and the address waiting to become primary), or nil
    /// when the account is gone.
    func apiUser(accountId: Int64) throws -> APIUser? {
        try row("""
            SELECT a.id AS id, e.address AS address, a.createdAt AS createdAt, a.updatedAt AS updatedAt, a.username, a.displayName,
                   (SELECT address FROM emailAddress WHERE accountId = a.id AND makePrimaryOnVerify AND verifiedAt IS NULL
                    ORDER BY id DESC LIMIT 1) AS pendingEmail
            FROM account a JOIN emailAddress e ON e.accountId = a.id AND e.isPrimary WHERE a.id = ?
            """, [accountId]).map { row in
            var user = APIUser(id: try row.decode("id"), email: try row.decode("address"), createdAt: try row.decode("createdAt"),
                               updatedAt: try row.decode("updatedAt"), pendingEmail: row["pendingEmail"] as String?)
            user.username = row["username"] ?? ""
            user.displayName = row["displayName"] ?? ""
            return user
        }
    }

    // MARK: Re-authentication

    /// When the password was last entered for the session `digest` (seconds since 1970; 0: never), or nil when it is gone.
    func sessionAuthenticatedAt(digest: Data) throws -> Double? {
        try value(Double.self, "SELECT authenticatedAt FROM session WHERE digest = ?", [digest])
    }

    /// Records that the password was entered for the session `digest` at `at`.
    func markSessionAuthenticated(digest: Data, at: Date) throws {
        try execute("UPDATE session SET authenticatedAt = ? WHERE digest = ?", [at.timeIntervalSince1970, digest])
    }

    /// The session's account, or nil when the session is gone.
    func sessionAccountId(digest: Data) throws -> Int64? {
        try value(Int64.self, "SELECT accountId FROM session WHERE digest = ?", [digest])
    }

    /// The session's account and its password hash ('' for none), or nil when the session is gone.
    func sessionCredentials(digest: Data) throws -> (accountId: Int64, passwordHash: String)? {
        try row("SELECT a.id AS id, a.passwordHash AS passwordHash FROM session s JOIN account a ON a.id = s.accountId WHERE s.digest = ?",
                [digest]).map { (accountId: try $0.decode("id"), passwordHash: try $0.decode("passwordHash")) }
    }

    // MARK: Sign-in

    /// The account holding the address whose normalized form is `normalizedAddress`, with its password hash and whether
    /// that address is verified and primary; nil when no account holds it.
    func signInCandidate(normalizedAddress: String) throws -> (accountId: Int64, passwordHash: String, verified: Bool, primary: Bool)? {
        try row("""
            SELECT a.id AS id, a.passwordHash AS passwordHash, e.verifiedAt IS NOT NULL AS verified, e.isPrimary AS isPrimary
            FROM emailAddress e JOIN account a ON a.id = e.accountId
            WHERE e.normalizedAddress = ?
            """, [normalizedAddress]).map { row in
            (accountId: try row.decode("id"), passwordHash: try row.decode("passwordHash"), verified: try row.decode("verified"),
             primary: try row.decode("isPrimary"))
        }
    }

    /// Records a fresh password entry on session `digest` of the account; false when that session is gone.
    func markSessionAuthenticated(digest: Data, of accountId: Int64, at now: Date) throws -> Bool {
        try execute("UPDATE session SET authenticatedAt = ? WHERE digest = ? AND accountId = ?", [now, digest, accountId]) == 1
    }

    /// Ends every session of the account (and their OpenID grants, at `now`), but the one with digest `kept` when given;
    /// returns how many ended.
    @discardableResult
    func deleteSessions(of accountId: Int64, keeping kept: Data? = nil, at now: Date) throws -> Int {
        sessionsChanged(.account(accountId))
        guard let kept else {
            let deleted = try execute("DELETE FROM session WHERE accountId = ?", [accountId])
            try endOpenIDGrants(where: "accountId = ?", [accountId], at: now)
            return deleted
        }
        let deleted = try execute("DELETE FROM session WHERE accountId = ? AND digest <> ?", [accountId, kept])
        try endOpenIDGrants(where: "accountId = ? AND sessionDigest <> ?", [accountId, kept], at: now)
        return deleted
    }
}

extension SessionInfo {
    /// The session a row of the lookup's statement (`SessionLookup.sql(_:)`) describes.
    init(lookupRow row: SQLRow, digest: Data) throws {
        self.init(digest: digest, accountId: try row.decode("accountId"), email: try row.decode("address"),
                  createdAt: try row.decode("createdAt"), lastSeenAt: try row.decode("lastSeenAt"),
                  expiresAt: try row.decode("expiresAt"), rememberMe: try row.decode("rememberMe"), emailVerified: try row.decode("verified"),
                  username: row["username"] ?? "", displayName: row["displayName"] ?? "",
                  groups: Self.groups(String(sqlValue: row.value("groupNames"))), factors: row["factors"] ?? 1)
    }

    /// The lookup's comma-joined group names as a sorted list (without case first, so `Admins` sits beside `admins`).
    static func groups(_ joined: String?) -> [String] {
        guard let joined, !joined.isEmpty else { return [] }
        return joined.split(separator: ",").map(String.init).sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
    }
}
