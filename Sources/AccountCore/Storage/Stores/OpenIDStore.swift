// OpenIDStore.swift: the store operations on the OpenID provider's other tables: `openIDClient` (clients the CLI
// added), `openIDConsent`, `openIDDevice` (RFC 8628), `openIDPushedRequest` (RFC 9126) and `openIDLogoutDelivery`
// (the back-channel logout queue).
//
// Options: none. One-winner steps are conditional UPDATEs (a device approved or denied once, its tokens issued once; a
// pushed request used once; a delivery claimed by one worker). Expired rows go with the pruner (Retention+Expiry).
import Foundation

extension OpenIDClient {
    static let columns = """
        id, name, secretDigests, isPublic, redirectURIs, postLogoutRedirectURIs, scopes, allow, requiresSecondFactor, firstParty,
        subjectType, backchannelLogoutURI, apiSignIn, createdAt
        """

    init(row: SQLRow) throws {
        let digests: Data = try row.decode("secretDigests")
        let bytes = [UInt8](digests)
        self.init(id: try row.decode("id"), name: try row.decode("name"),
                  secretDigests: stride(from: 0, to: bytes.count - bytes.count % 32, by: 32).map { Data(bytes[$0..<$0 + 32]) },
                  isPublic: try row.decode("isPublic"), redirectURIs: Self.lines(try row.decode("redirectURIs")),
                  postLogoutRedirectURIs: Self.lines(try row.decode("postLogoutRedirectURIs")),
                  scopes: OpenIDScopes.split(try row.decode("scopes")), allow: try row.decode("allow"),
                  requiresSecondFactor: try row.decode("requiresSecondFactor"), firstParty: try row.decode("firstParty"),
                  subjectType: SubjectType(rawValue: try row.decode("subjectType")) ?? .public,
                  backchannelLogoutURI: row["backchannelLogoutURI"], apiSignIn: try row.decode("apiSignIn"),
                  source: .database, createdAt: Date(timeIntervalSince1970: try row.decode("createdAt")))
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }
}

/// A stored device authorization.
struct StoredOpenIDDevice {
    var clientId: String
    var scopes: [String]
    var state: String
    var pollInterval: Double
    var lastPolledAt: Double?
    var accountId: Int64?
    var sessionDigest: Data?
    var authTime: Double?
    var factors: Int?
    var expiresAt: Double
}

extension Transaction {
    // MARK: Clients

    func openIDClients(id: String? = nil) throws -> [OpenIDClient] {
        let filter = id == nil ? "" : " WHERE id = ?"
        return try rows("SELECT \(OpenIDClient.columns) FROM openIDClient\(filter) ORDER BY id", id.map { [$0] } ?? []).map(OpenIDClient.init(row:))
    }

    func insertOpenIDClient(_ client: OpenIDClient, at now: Date) throws {
        try execute("""
            INSERT INTO openIDClient (\(OpenIDClient.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [client.id, client.name, Data(client.secretDigests.joined()), client.isPublic, client.redirectURIs.joined(separator: "\n"),
                  client.postLogoutRedirectURIs.joined(separator: "\n"), OpenIDScopes.join(client.scopes), client.allow,
                  client.requiresSecondFactor, client.firstParty, client.subjectType.rawValue, client.backchannelLogoutURI, client.apiSignIn,
                  now.timeIntervalSince1970])
    }

    func deleteOpenIDClient(id: String) throws -> Bool {
        try execute("DELETE FROM openIDClient WHERE id = ?", [id]) == 1
    }

    func setOpenIDClientSecret(id: String, digest: Data) throws -> Bool {
        try execute("UPDATE openIDClient SET secretDigests = ? WHERE id = ? AND NOT isPublic", [digest, id]) == 1
    }

    // MARK: Consent

    func openIDConsentScopes(accountId: Int64, clientId: String) throws -> [String]? {
        try value(String.self, "SELECT scopes FROM openIDConsent WHERE accountId = ? AND clientId = ?", [accountId, clientId])
            .map(OpenIDScopes.split)
    }

    func upsertOpenIDConsent(accountId: Int64, clientId: String, scopes: [String], at now: Date) throws {
        try execute("""
            INSERT INTO openIDConsent (accountId, clientId, scopes, grantedAt) VALUES (?, ?, ?, ?)
            ON CONFLICT (accountId, clientId) DO UPDATE SET scopes = excluded.scopes, grantedAt = excluded.grantedAt
            """, [accountId, clientId, OpenIDScopes.join(scopes), now.timeIntervalSince1970])
    }

    func deleteOpenIDConsent(accountId: Int64, clientId: String) throws -> Bool {
        try execute("DELETE FROM openIDConsent WHERE accountId = ? AND clientId = ?", [accountId, clientId]) == 1
    }

    /// The account's consents, and the clients it holds live grants of without one (first-party clients).
    func openIDConnectedApps(accountId: Int64, now: Date) throws -> [OpenIDConnectedApp] {
        let consents = try rows("""
            SELECT c.clientId AS clientId, c.scopes AS scopes, c.grantedAt AS grantedAt,
                   (SELECT MAX(g.lastUsedAt) FROM openIDGrant g WHERE g.accountId = c.accountId AND g.clientId = c.clientId) AS lastUsedAt
            FROM openIDConsent c WHERE c.accountId = ? ORDER BY c.clientId
            """, [accountId])
        let grants = try rows("""
            SELECT clientId, MIN(createdAt) AS grantedAt, MAX(lastUsedAt) AS lastUsedAt FROM openIDGrant
            WHERE accountId = ? AND revokedAt IS NULL AND expiresAt > ? GROUP BY clientId ORDER BY clientId
            """, [accountId, now.timeIntervalSince1970])
        var apps = try consents.map { row in
            OpenIDConnectedApp(clientID: try row.decode("clientId"), scopes: OpenIDScopes.split(try row.decode("scopes")),
                               grantedAt: Date(timeIntervalSince1970: try row.decode("grantedAt")),
                               lastUsedAt: (row["lastUsedAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
        }
        for row in grants {
            let clientId: String = try row.decode("clientId")
            guard !apps.contains(where: { $0.clientID == clientId }) else { continue }
            let scopes = try values(String.self, "SELECT scopes FROM openIDGrant WHERE accountId = ? AND clientId = ? AND revokedAt IS NULL",
                                    [accountId, clientId]).flatMap(OpenIDScopes.split)
            apps.append(OpenIDConnectedApp(clientID: clientId, scopes: Array(Set(scopes)).sorted(),
                                           grantedAt: Date(timeIntervalSince1970: try row.decode("grantedAt")),
                                           lastUsedAt: (row["lastUsedAt"] as Double?).map(Date.init(timeIntervalSince1970:))))
        }
        return apps.sorted { $0.clientID < $1.clientID }
    }

    // MARK: Devices

    func insertOpenIDDevice(digest: Data, userCodeDigest: Data, clientId: String, scopes: [String], interval: Double, now: Date,
                            expiresAt: Date) throws {
        try execute("""
            INSERT INTO openIDDevice (digest, userCodeDigest, clientId, scopes, state, pollInterval, createdAt, expiresAt)
            VALUES (?, ?, ?, ?, 'pending', ?, ?, ?)
            """, [digest, userCodeDigest, clientId, OpenIDScopes.join(scopes), interval, now.timeIntervalSince1970, expiresAt.timeIntervalSince1970])
    }

    func openIDDevice(_ column: String, _ digest: Data) throws -> StoredOpenIDDevice? {
        try row("""
            SELECT clientId, scopes, state, pollInterval, lastPolledAt, accountId, sessionDigest, authTime, factors, expiresAt
            FROM openIDDevice WHERE \(column) = ?
            """, [digest]).map { row in
            StoredOpenIDDevice(clientId: try row.decode("clientId"), scopes: OpenIDScopes.split(try row.decode("scopes")),
                               state: try row.decode("state"), pollInterval: try row.decode("pollInterval"),
                               lastPolledAt: row["lastPolledAt"], accountId: row["accountId"],
                               sessionDigest: row["sessionDigest"], authTime: row["authTime"],
                               factors: row["factors"], expiresAt: try row.decode("expiresAt"))
        }
    }

    /// Approves (with who) or denies a pending, unexpired device; false when it was not pending.
    func settleOpenIDDevice(userCodeDigest: Data, approvedBy who: OpenIDAuthentication?, now: Date) throws -> Bool {
        guard let who else {
            return try execute("UPDATE openIDDevice SET state = 'denied' WHERE userCodeDigest = ? AND state = 'pending' AND expiresAt > ?",
                               [userCodeDigest, now.timeIntervalSince1970]) == 1
        }
        return try execute("""
            UPDATE openIDDevice SET state = 'approved', accountId = ?, sessionDigest = ?, authTime = ?, factors = ?
            WHERE userCodeDigest = ? AND state = 'pending' AND expiresAt > ?
            """, [who.accountID, who.sessionDigest, who.authTime.timeIntervalSince1970, who.factors, userCodeDigest,
                  now.timeIntervalSince1970]) == 1
    }

    func recordOpenIDDevicePoll(digest: Data, at now: Date, interval: Double) throws {
        try execute("UPDATE openIDDevice SET lastPolledAt = ?, pollInterval = ? WHERE digest = ?", [now.timeIntervalSince1970, interval, digest])
    }

    /// Marks an approved device issued; false when another poll did it first.
    func issueOpenIDDevice(digest: Data, grantId: String) throws -> Bool {
        try execute("UPDATE openIDDevice SET state = 'issued', grantId = ? WHERE digest = ? AND state = 'approved'", [grantId, digest]) == 1
    }

    // MARK: Pushed requests

    func insertOpenIDPushedRequest(digest: Data, clientId: String, parameters: String, now: Date, expiresAt: Date) throws {
        try execute("INSERT INTO openIDPushedRequest (digest, clientId, parameters, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?)",
                    [digest, clientId, parameters, now.timeIntervalSince1970, expiresAt.timeIntervalSince1970])
    }

    func openIDPushedRequest(digest: Data, clientId: String, now: Date) throws -> String? {
        try value(String.self, "SELECT parameters FROM openIDPushedRequest WHERE digest = ? AND clientId = ? AND usedAt IS NULL AND expiresAt > ?",
                  [digest, clientId, now.timeIntervalSince1970])
    }

    func useOpenIDPushedRequest(digest: Data, now: Date) throws -> Bool {
        try execute("UPDATE openIDPushedRequest SET usedAt = ? WHERE digest = ? AND usedAt IS NULL", [now.timeIntervalSince1970, digest]) == 1
    }

    // MARK: Logout deliveries

    /// Claims up to `limit` due deliveries for `lease` seconds (another worker's claim of the same row loses).
    func claimOpenIDLogoutDeliveries(now: Date, lease: TimeInterval, limit: Int) throws -> [OpenIDLogoutDelivery] {
        let due = try rows("""
            SELECT id, clientId, accountId, sid, attempts, dueAt FROM openIDLogoutDelivery
            WHERE deliveredAt IS NULL AND abandonedAt IS NULL AND dueAt <= ? ORDER BY dueAt LIMIT ?
            """, [now.timeIntervalSince1970, limit])
        return try due.compactMap { row in
            let id: Int64 = try row.decode("id")
            let dueAt: Double = try row.decode("dueAt")
            guard try execute("UPDATE openIDLogoutDelivery SET dueAt = ? WHERE id = ? AND dueAt = ? AND deliveredAt IS NULL",
                              [now.timeIntervalSince1970 + lease, id, dueAt]) == 1 else { return nil }
            return OpenIDLogoutDelivery(id: id, clientID: try row.decode("clientId"), accountID: try row.decode("accountId"),
                                        sid: try row.decode("sid"), attempts: try row.decode("attempts"))
        }
    }

    func markOpenIDLogoutDelivered(id: Int64, at now: Date) throws {
        try execute("UPDATE openIDLogoutDelivery SET deliveredAt = ? WHERE id = ? AND deliveredAt IS NULL", [now.timeIntervalSince1970, id])
    }

    /// Counts a failed attempt; gives up (abandonedAt) at `maxAttempts`. Returns the delivery when it was given up now.
    func failOpenIDLogoutDelivery(id: Int64, retryAt: Date, now: Date, maxAttempts: Int) throws -> OpenIDLogoutDelivery? {
        try execute("UPDATE openIDLogoutDelivery SET attempts = attempts + 1, dueAt = ? WHERE id = ? AND deliveredAt IS NULL AND abandonedAt IS NULL",
                    [retryAt.timeIntervalSince1970, id])
        guard try execute("""
            UPDATE openIDLogoutDelivery SET abandonedAt = ? WHERE id = ? AND attempts >= ? AND deliveredAt IS NULL AND abandonedAt IS NULL
            """, [now.timeIntervalSince1970, id, maxAttempts]) == 1 else { return nil }
        return try row("SELECT id, clientId, accountId, sid, attempts FROM openIDLogoutDelivery WHERE id = ?", [id]).map { row in
            OpenIDLogoutDelivery(id: id, clientID: try row.decode("clientId"), accountID: try row.decode("accountId"),
                                 sid: try row.decode("sid"), attempts: try row.decode("attempts"))
        }
    }
}
