// OpenIDGrantStore.swift: the store operations on `openIDGrant` (one sign-in of one client: the family of its tokens),
// `openIDCode` and `openIDToken` (access and refresh tokens), and the end of grants with the Frontdoor session they came
// from.
//
// Options: none. Every secret is found by its SHA-256 and used once by a conditional UPDATE (`… WHERE usedAt IS NULL`),
// whose changed-row count decides the one winner on any host (on PostgreSQL a second UPDATE waits for the first's row
// lock, then finds usedAt set). A grant names its session by digest without a foreign key: the session store's deletes
// call `endOpenIDGrants` right after (the account's delete: before, as its grants go by cascade), which marks the
// grants revoked and queues their back-channel logouts in that same transaction. Times are seconds since 1970.
import Foundation

extension OpenIDGrant {
    /// The columns `init(row:)` reads (alias `g`).
    static let columns = "g.id AS id, g.clientId AS clientId, g.accountId AS accountId, g.scopes AS scopes, g.nonce AS nonce, "
        + "g.authTime AS authTime, g.factors AS factors, g.sid AS sid, g.createdAt AS createdAt"

    init(row: SQLRow) throws {
        self.init(id: try row.decode("id"), clientID: try row.decode("clientId"), accountID: try row.decode("accountId"),
                  scopes: OpenIDScopes.split(try row.decode("scopes")), nonce: row["nonce"],
                  authTime: Date(timeIntervalSince1970: try row.decode("authTime")), factors: try row.decode("factors"),
                  sid: try row.decode("sid"), createdAt: Date(timeIntervalSince1970: try row.decode("createdAt")))
    }
}

/// Scopes as stored: one space-separated text, as OAuth writes them.
enum OpenIDScopes {
    static func split(_ text: String) -> [String] { text.split(separator: " ").map(String.init) }
    static func join(_ scopes: [String]) -> String { scopes.joined(separator: " ") }
}

/// A stored authorization code.
struct StoredOpenIDCode {
    var clientId: String
    var accountId: Int64
    var sessionDigest: Data
    var redirectURI: String
    var scopes: [String]
    var nonce: String?
    var codeChallenge: String?
    var authTime: Double
    var factors: Int
    var expiresAt: Double
    var usedAt: Double?
    var grantId: String?
}

/// A stored token with the state of its grant.
struct StoredOpenIDToken {
    var kind: String
    var grantId: String
    var scopes: [String]
    var createdAt: Double
    var expiresAt: Double
    var usedAt: Double?
    var grantRevoked: Bool
    var grant: OpenIDGrant
    var sessionDigest: Data
}

extension Transaction {
    // MARK: Codes

    func insertOpenIDCode(digest: Data, request: OpenIDCodeRequest, now: Date, expiresAt: Date) throws {
        let who = request.authentication
        try execute("""
            INSERT INTO openIDCode (digest, clientId, accountId, sessionDigest, redirectURI, scopes, nonce, codeChallenge, authTime,
                factors, createdAt, expiresAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [digest, request.clientID, who.accountID, who.sessionDigest, request.redirectURI, OpenIDScopes.join(request.scopes),
                  request.nonce, request.codeChallenge, who.authTime.timeIntervalSince1970, who.factors, now.timeIntervalSince1970,
                  expiresAt.timeIntervalSince1970])
    }

    func openIDCode(digest: Data) throws -> StoredOpenIDCode? {
        try row("""
            SELECT clientId, accountId, sessionDigest, redirectURI, scopes, nonce, codeChallenge, authTime, factors, expiresAt, usedAt, grantId
            FROM openIDCode WHERE digest = ?
            """, [digest]).map { row in
            StoredOpenIDCode(clientId: try row.decode("clientId"), accountId: try row.decode("accountId"),
                             sessionDigest: try row.decode("sessionDigest"), redirectURI: try row.decode("redirectURI"),
                             scopes: OpenIDScopes.split(try row.decode("scopes")), nonce: row["nonce"],
                             codeChallenge: row["codeChallenge"], authTime: try row.decode("authTime"),
                             factors: try row.decode("factors"), expiresAt: try row.decode("expiresAt"), usedAt: row["usedAt"],
                             grantId: row["grantId"])
        }
    }

    /// Uses the code up; false when it was used already (by a racer too: on PostgreSQL this waits for its commit).
    func useOpenIDCode(digest: Data, now: Date) throws -> Bool {
        try execute("UPDATE openIDCode SET usedAt = ? WHERE digest = ? AND usedAt IS NULL", [now.timeIntervalSince1970, digest]) == 1
    }

    func setOpenIDCodeGrant(digest: Data, grantId: String) throws {
        try execute("UPDATE openIDCode SET grantId = ? WHERE digest = ?", [grantId, digest])
    }

    /// The grant a used code issued (read again after losing the race: a new statement sees the winner's commit).
    func openIDCodeGrant(digest: Data) throws -> String? {
        try value(String.self, "SELECT grantId FROM openIDCode WHERE digest = ?", [digest])
    }

    // MARK: Grants

    func insertOpenIDGrant(_ grant: OpenIDGrant, sessionDigest: Data, backchannel: Bool, expiresAt: Date) throws {
        try execute("""
            INSERT INTO openIDGrant (id, clientId, accountId, sessionDigest, sid, scopes, nonce, authTime, factors, backchannel, createdAt,
                expiresAt, lastUsedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [grant.id, grant.clientID, grant.accountID, sessionDigest, grant.sid, OpenIDScopes.join(grant.scopes), grant.nonce,
                  grant.authTime.timeIntervalSince1970, grant.factors, backchannel, grant.createdAt.timeIntervalSince1970,
                  expiresAt.timeIntervalSince1970, grant.createdAt.timeIntervalSince1970])
    }

    /// Revokes one grant; true when this call did.
    @discardableResult
    func revokeOpenIDGrant(id: String, at now: Date) throws -> Bool {
        try execute("UPDATE openIDGrant SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL", [now.timeIntervalSince1970, id]) == 1
    }

    /// Marks the grant used now; false when it is revoked (a sign-out that committed while this transaction ran: on
    /// PostgreSQL this UPDATE waits for its row lock, then sees revokedAt set).
    func touchOpenIDGrant(id: String, at now: Date) throws -> Bool {
        try execute("UPDATE openIDGrant SET lastUsedAt = ? WHERE id = ? AND revokedAt IS NULL", [now.timeIntervalSince1970, id]) == 1
    }

    /// Ends the unrevoked grants matching `condition` (on `openIDGrant`'s columns, with `arguments`): queues one
    /// back-channel logout per client and session for those whose client has a back-channel URI, then marks them all
    /// revoked. The session store calls it before each delete of sessions, in the same transaction.
    func endOpenIDGrants(where condition: String, _ arguments: SQLArguments, at now: Date) throws {
        let at = now.timeIntervalSince1970
        var queued: SQLArguments = [at, at]
        queued.values += arguments.values
        var revoked: SQLArguments = [at]
        revoked.values += arguments.values
        try execute("""
            INSERT INTO openIDLogoutDelivery (clientId, accountId, sid, grantId, attempts, dueAt, createdAt)
            SELECT clientId, MIN(accountId), sid, MIN(id), 0, ?, ? FROM openIDGrant
            WHERE revokedAt IS NULL AND backchannel AND \(condition)
            GROUP BY clientId, sid
            """, queued)
        try execute("UPDATE openIDGrant SET revokedAt = ? WHERE revokedAt IS NULL AND \(condition)", revoked)
    }

    /// Whether the session `digest` is live at `now` (the lookup's rule: before its end, and remembered or seen since
    /// `idleSince`). `holding`: on PostgreSQL the row is share-locked until this transaction ends, so a sign-out's DELETE
    /// waits for the grant this transaction makes and its `endOpenIDGrants` (after the DELETE) sees and ends it; a
    /// sign-out already under way makes this wait and then find no row. SQLite runs one writer at a time already.
    func openIDSessionIsLive(digest: Data, now: Date, idleSince: Date, holding: Bool = false) throws -> Bool {
        let lock = holding && dialect == .postgresql ? " FOR SHARE" : ""
        return try value(Int.self, "SELECT 1 FROM session WHERE digest = ? AND " + Self.liveSQL() + lock,
                         [digest, now.timeIntervalSince1970, idleSince.timeIntervalSince1970]) != nil
    }

    /// The session's end (`expiresAt`), nil when there is none.
    func openIDSessionEnd(digest: Data) throws -> Double? {
        try value(Double.self, "SELECT expiresAt FROM session WHERE digest = ?", [digest])
    }

    // MARK: Tokens

    func insertOpenIDToken(digest: Data, kind: String, grantId: String, scopes: [String], now: Date, expiresAt: Date) throws {
        try execute("INSERT INTO openIDToken (digest, kind, grantId, scopes, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?)",
                    [digest, kind, grantId, OpenIDScopes.join(scopes), now.timeIntervalSince1970, expiresAt.timeIntervalSince1970])
    }

    func openIDToken(digest: Data) throws -> StoredOpenIDToken? {
        try row("""
            SELECT t.kind AS kind, t.grantId AS grantId, t.scopes AS tokenScopes, t.createdAt AS tokenCreatedAt, t.expiresAt AS expiresAt,
                   t.usedAt AS usedAt, g.revokedAt IS NOT NULL AS revoked, g.sessionDigest AS sessionDigest, \(OpenIDGrant.columns)
            FROM openIDToken t JOIN openIDGrant g ON g.id = t.grantId WHERE t.digest = ?
            """, [digest]).map { row in
            StoredOpenIDToken(kind: try row.decode("kind"), grantId: try row.decode("grantId"),
                              scopes: OpenIDScopes.split(try row.decode("tokenScopes")), createdAt: try row.decode("tokenCreatedAt"),
                              expiresAt: try row.decode("expiresAt"), usedAt: row["usedAt"],
                              grantRevoked: try row.decode("revoked"), grant: try OpenIDGrant(row: row),
                              sessionDigest: try row.decode("sessionDigest"))
        }
    }

    /// Marks a refresh token used (rotated); false when it was used already.
    func useOpenIDToken(digest: Data, now: Date) throws -> Bool {
        try execute("UPDATE openIDToken SET usedAt = ? WHERE digest = ? AND usedAt IS NULL", [now.timeIntervalSince1970, digest]) == 1
    }

    @discardableResult
    func deleteOpenIDToken(digest: Data) throws -> Int {
        try execute("DELETE FROM openIDToken WHERE digest = ?", [digest])
    }
}
