// DatabaseCopyTests.swift: `db copy`'s engine (DatabaseCopy) on real backends: an SQLite database with rows in every
// table (every nullable column set in one row and NULL in another, blobs, booleans, fractional times, pruned audit rows,
// a deleted account) → PostgreSQL (a private cluster, StorageTestKit) → SQLite gives the same rows, ids and counts;
// auditCount and lastSignInAt are not counted twice; ids go on past the highest ever given; a non-empty target or an
// unknown table is refused; a copy that fails half-way leaves the target empty and can run again.
import Foundation
import Testing
import StorageTestKit
@testable import AccountCore

@Suite struct DatabaseCopyTests {
    @Test func sqliteToPostgresAndBackKeepsEveryRowIdAndCount() throws {
        let source = try TestDatabase.make(.sqlite)
        try Self.fill(source)
        let middle = try TestDatabase.make(.postgresql)
        var events: [DatabaseCopy.Event] = []
        let reports = try DatabaseCopy.run(from: source, to: middle, batchSize: 3, progressEvery: 4) { events.append($0) }
        #expect(reports.map(\.table) == DatabaseCopy.tables.map(\.name))
        #expect(reports.allSatisfy { $0.rows > 0 }, "every table has rows: \(reports.filter { $0.rows == 0 }.map(\.table))")
        #expect(events.contains(.progress(table: "session", copied: 6, total: 8)))   // pages of 3: 3, 6 (passes 4), 8 (passes 8)
        #expect(events.contains(.progress(table: "session", copied: 8, total: 8)))
        #expect(events.filter { if case .copied = $0 { true } else { false } }.count == DatabaseCopy.tables.count)

        let back = try TestDatabase.make(.sqlite)
        _ = try DatabaseCopy.run(from: middle, to: back)
        let original = try Self.dump(source)
        #expect(try Self.dump(middle) == original)
        #expect(try Self.dump(back) == original)
        // Pruned audit rows: what pruning took and the last sign-ins are copied as they are, not recounted or counted twice.
        #expect(try middle.read { tx in try tx.value(Int.self, "SELECT total FROM auditCount WHERE event = 'sign_in'") } == 6)
        #expect(try AuditLog(database: middle, clock: FixedClock()).counts(of: [.signIn]) == ["sign_in": 10])
        #expect(try middle.read { tx in try tx.value(Double.self, "SELECT lastSignInAt FROM account WHERE id = 3") } == 1_700_000_302.75)

        // Account 5 was deleted: its id is never given again, on either backend; the audit trigger counts again.
        for database in [middle, back] {
            try database.write { tx in
                try Self.insert(tx, "audit", ["createdAt": 1_700_000_000.25 + 9, "event": "sign_in", "accountId": 4, "remoteAddress": "::1", "userAgent": "",
                                         "detail": "", "addressGroup": "::1"])
            }
            #expect(try AuditLog(database: database, clock: FixedClock()).counts(of: [.signIn]) == ["sign_in": 11])
            #expect(try database.read { tx in try tx.value(Double.self, "SELECT lastSignInAt FROM account WHERE id = 4") } == 1_700_000_000.25 + 9)
            let id = try database.write { tx in
                try tx.insert("INSERT INTO account (passwordHash, createdAt, updatedAt) VALUES ('x', 1, 1) RETURNING id")
            }
            #expect(id == 6)
            let address = try database.write { tx in
                try tx.insert("INSERT INTO emailAddress (accountId, address, normalizedAddress, createdAt) VALUES (?, 'n@x.org', 'n@x.org', 1) RETURNING id", [id])
            }
            #expect(address == 11)
        }
    }

    @Test func aTargetWithAnyRowIsRefusedAndKeepsItsRows() throws {
        let source = try TestDatabase.make(.sqlite)
        try Self.fill(source)
        let target = try TestDatabase.make(.postgresql)
        try target.write { tx in try tx.execute("INSERT INTO addressBlock (remoteAddress, blockedUntil) VALUES ('192.0.2.1', 5)") }
        #expect(throws: DatabaseCopyError.targetNotEmpty(table: "addressBlock")) { try DatabaseCopy.run(from: source, to: target) }
        #expect(try target.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } == 0)
        #expect(try target.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM addressBlock") } == 1)
        #expect(throws: DatabaseCopyError.targetNotEmpty(table: "audit")) { try DatabaseCopy.run(from: target, to: source) }
    }

    @Test func aTableTheCopyDoesNotKnowIsRefusedOnEitherSide() throws {
        let source = try TestDatabase.make(.sqlite)
        try source.write { tx in try tx.execute("CREATE TABLE newerFeature (id INTEGER PRIMARY KEY)") }
        let target = try TestDatabase.make(.postgresql)
        #expect(throws: DatabaseCopyError.unknownTable(side: "source", table: "newerFeature")) { try DatabaseCopy.run(from: source, to: target) }
        try target.write { tx in try tx.execute("CREATE TABLE stray (id bigint PRIMARY KEY)") }
        #expect(throws: DatabaseCopyError.unknownTable(side: "target", table: "stray")) {
            try DatabaseCopy.run(from: try TestDatabase.make(.sqlite), to: target)
        }
    }

    @Test func theMigrationsMakeExactlyTheTablesTheCopyKnows() throws {
        for backend in [SQLDialect.sqlite, .postgresql] {
            let tables = try TestDatabase.make(backend).read { tx in
                try (backend == .sqlite ? SQLiteCatalog.tables(tx) : PostgresCatalog.tables(tx)).map { $0.lowercased() }
            }
            #expect(Set(tables).subtracting(DatabaseCopy.bookkeeping) == Set(DatabaseCopy.tables.map { $0.name.lowercased() }), "\(backend)")
        }
    }

    @Test func aCopyThatFailsHalfWayLeavesTheTargetEmptyAndRunsAgain() throws {
        let source = try TestDatabase.make(.sqlite)
        try Self.fill(source)
        let target = try TestDatabase.make(.postgresql)
        try target.write { tx in try tx.installTrigger("refuseResidence", "BEFORE", "INSERT", on: "residence") }   // copied late
        #expect(throws: StorageError.self) { try DatabaseCopy.run(from: source, to: target) }
        for table in DatabaseCopy.tables {
            #expect(try target.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM \(table.name)") } == 0, "\(table.name)")
        }
        try target.write { tx in try tx.dropTrigger("refuseResidence", on: "residence") }
        _ = try DatabaseCopy.run(from: source, to: target)
        #expect(try Self.dump(target) == (try Self.dump(source)))
    }

    /// Every table's rows, ordered by key, each as column (lower case) → value: comparable across backends.
    static func dump(_ database: AppDatabase) throws -> [String: [[String: SQLValue]]] {
        try database.read { tx in
            var tables: [String: [[String: SQLValue]]] = [:]
            for table in DatabaseCopy.tables {
                tables[table.name] = try tx.rows("SELECT * FROM \(table.name) ORDER BY \(table.key.joined(separator: ", "))").map { row in
                    Dictionary(uniqueKeysWithValues: zip(row.columns.map { $0.lowercased() }, row.values))
                }
            }
            return tables
        }
    }

    /// 32 bytes made from `seed`.
    static func digest(_ seed: Int) -> Data { Data((0..<32).map { UInt8(truncatingIfNeeded: $0 * 7 + seed * 31) }) }

    static func insert(_ tx: Transaction, _ table: String, _ values: KeyValuePairs<String, (any SQLBindable)?>) throws {
        try tx.execute("INSERT INTO \(table) (\(values.map(\.key).joined(separator: ", "))) VALUES (\(values.map { _ in "?" }.joined(separator: ", ")))",
                       SQLArguments(values.map(\.value)))
    }

    /// Rows in every table, through plain statements (the audit trigger keeps auditCount and lastSignInAt as in use).
    static func fill(_ database: AppDatabase) throws {
        try database.write { tx in
            let t0 = 1_700_000_000.25
            for i in 1...5 {
                let odd = i % 2 == 1
                try insert(tx, "account", ["id": i, "passwordHash": "argon2id$\(i)", "createdAt": t0 + Double(i), "updatedAt": t0 + Double(i) + 0.5,
                                           "lockedUntil": i == 2 ? t0 + 900 : nil, "displayName": "Zoë \(i) “quoted”", "language": odd ? nil : "de"])
                try insert(tx, "emailAddress", ["id": 2 * i - 1, "accountId": i, "address": "P\(i)@Example.org", "normalizedAddress": "p\(i)@example.org",
                                                "isPrimary": true, "verifiedAt": t0 + 10, "createdAt": t0, "makePrimaryOnVerify": false])
                try insert(tx, "emailAddress", ["id": 2 * i, "accountId": i, "address": "s\(i)@example.org", "normalizedAddress": "s\(i)@example.org",
                                                "isPrimary": false, "verifiedAt": nil, "createdAt": t0 + 0.125, "makePrimaryOnVerify": odd])
                for s in 0..<2 {
                    try insert(tx, "session", ["digest": digest(10 * i + s), "accountId": i, "createdAt": t0, "lastSeenAt": t0 + 60.75, "expiresAt": t0 + 86_400,
                                               "rememberMe": s == 0, "userAgent": "Firefox/\(i)", "remoteAddress": "2001:db8::\(i)",
                                               "authenticatedAt": s == 0 ? t0 : 0, "kind": s == 0 ? "browser" : "api", "factors": s == 0 ? 2 : 1])
                    try insert(tx, "profileValue", ["accountId": i, "field": s == 0 ? "team" : "badge", "value": "v\(i)\(s)", "uniqueValue": s == 0 ? nil : "v\(i)\(s)"])
                }
                try insert(tx, "accountToken", ["digest": digest(100 + i), "purpose": odd ? "confirm" : "reset", "accountId": i,
                                                "emailAddressId": odd ? 2 * i : nil, "createdAt": t0, "expiresAt": t0 + 3600, "usedAt": odd ? nil : t0 + 5])
                try insert(tx, "signInFailure", ["id": i, "accountId": odd ? i : nil, "remoteAddress": "192.0.2.\(i)", "createdAt": t0 + 1])
                try insert(tx, "socialIdentity", ["id": i, "accountId": i, "provider": "github", "subject": "sub-\(i)", "email": odd ? "p\(i)@example.org" : nil,
                                                  "displayName": "GH \(i)", "sealedTokens": odd ? digest(200 + i) : nil, "tokenExpiresAt": odd ? t0 + 7200 : nil,
                                                  "createdAt": t0, "lastUsedAt": odd ? nil : t0 + 3])
                try insert(tx, "socialFlow", ["digest": digest(300 + i), "provider": "github", "purpose": odd ? "sign_in" : "link", "accountId": odd ? nil : i,
                                              "bindingDigest": digest(310 + i), "returnTo": "/after?\(i)", "sealedInvite": odd ? digest(320 + i) : nil,
                                              "rememberMe": odd, "pendingDigest": odd ? digest(330 + i) : nil, "createdAt": t0, "expiresAt": t0 + 600,
                                              "usedAt": odd ? t0 + 2 : nil])
                try insert(tx, "socialPending", ["digest": digest(400 + i), "bindingDigest": digest(410 + i), "provider": "google", "subject": "g-\(i)",
                                                 "email": odd ? nil : "g\(i)@example.org", "emailVerified": !odd, "displayName": "G \(i)",
                                                 "sealedTokens": odd ? nil : digest(420 + i), "tokenExpiresAt": odd ? nil : t0 + 1,
                                                 "linkAccountId": odd ? i : nil, "returnTo": "", "sealedInvite": odd ? digest(430 + i) : nil,
                                                 "rememberMe": !odd, "createdAt": t0, "expiresAt": t0 + 600, "usedAt": nil])
                try insert(tx, "residence", ["id": "res-\(i)", "address": "r\(i)@example.org", "normalizedAddress": "r\(i)@example.org",
                                             "secretDigest": digest(500 + i), "linkDigest": digest(510 + i), "state": odd ? "pending" : "verified",
                                             "accountId": odd ? nil : i, "userAgent": "App/\(i)", "remoteAddress": "198.51.100.\(i)", "createdAt": t0,
                                             "expiresAt": t0 + 900, "verifiedAt": odd ? nil : t0 + 4, "usedAt": nil])
                for (n, event) in ["sign_up", "sign_in", "sign_in"].enumerated() {   // the trigger counts them and sets lastSignInAt
                    try insert(tx, "audit", ["createdAt": t0 + Double(100 * i + n) + 0.5, "event": event, "accountId": i, "email": "p\(i)@example.org",
                                             "remoteAddress": "192.0.2.\(i)", "userAgent": "Firefox", "detail": n == 0 ? "" : "via=\(n)",
                                             "addressGroup": "192.0.2.\(i)"])
                }
            }
            try insert(tx, "audit", ["createdAt": t0, "event": "sign_in_failed", "accountId": nil, "email": nil, "remoteAddress": "203.0.113.9",
                                     "userAgent": "", "detail": "unknown address", "addressGroup": "203.0.113.9"])
            try insert(tx, "serverSecret", ["name": "csrf", "value": digest(600)])
            for (i, sent) in [(1, true), (2, false), (3, false)] {
                try insert(tx, "mailQueue", ["id": i, "kind": "confirmation", "sender": "Frontdoor <no-reply@example.org>", "recipient": "p\(i)@example.org",
                                             "recipientKey": "p\(i)@example.org", "subject": "Bitte bestätigen", "message": "Line 1\r\nLine 2 ✓",
                                             "messageId": "<m\(i)@example.org>", "createdAt": t0, "attempts": sent ? 1 : i, "nextAttemptAt": t0 + 30,
                                             "lastError": i == 3 ? "connection refused" : nil, "sentAt": sent ? t0 + 1 : nil])
            }
            try insert(tx, "signingKey", ["id": 1, "purpose": "browserid", "privateKey": "-----BEGIN PRIVATE KEY-----\nold", "publicKey": "{\"n\":\"1\"}",
                                          "createdAt": t0, "retiredAt": t0 + 50])
            try insert(tx, "signingKey", ["id": 2, "purpose": "browserid", "privateKey": "-----BEGIN PRIVATE KEY-----\nnew", "publicKey": "{\"n\":\"2\"}",
                                          "createdAt": t0 + 50, "retiredAt": nil])
            try insert(tx, "addressBlock", ["remoteAddress": "192.0.2.66", "blockedUntil": t0 + 1800])
            for (id, name) in [(1, "Admins"), (2, "ops")] {
                try insert(tx, "accountGroup", ["id": id, "name": name, "normalizedName": name.lowercased(), "createdAt": t0 + Double(id) + 0.5])
            }
            for (accountId, groupId) in [(1, 1), (1, 2), (3, 2)] {
                try insert(tx, "groupMember", ["accountId": accountId, "groupId": groupId, "createdAt": t0 + 7.25])
            }
            for (n, used) in [(0, true), (1, false)] {
                try insert(tx, "secondFactorChallenge", ["digest": digest(850 + n), "accountId": 1 + n, "rememberMe": used, "kind": used ? "api" : "browser",
                                                         "bindingDigest": used ? Data() : digest(860 + n), "createdAt": t0 + 0.5, "expiresAt": t0 + 300.5,
                                                         "usedAt": used ? t0 + 3.25 : nil])
            }
            for accountId in [1, 2] {   // one-time codes: account 1 confirmed, account 2 still enrolling
                try insert(tx, "oneTimeCode", ["accountId": accountId, "sealedSecret": digest(800 + accountId), "createdAt": t0,
                                               "confirmedAt": accountId == 1 ? t0 + 9 : nil, "lastUsedStep": accountId == 1 ? 56_666_667 : 0])
            }
            for (id, used) in [(1, false), (2, true)] {
                try insert(tx, "recoveryCode", ["id": id, "accountId": 1, "digest": digest(810 + id), "createdAt": t0 + 9, "usedAt": used ? t0 + 11 : nil])
            }
            for (id, used) in [(1, true), (2, false)] {
                try insert(tx, "passkey", ["id": id, "accountId": id, "credentialId": digest(800 + id), "publicKey": digest(810 + id), "algorithm": -7,
                                           "signCount": used ? 4_000_000_000 : 0, "aaguid": Data(count: 16), "name": "Clé \(id)", "backupEligible": used,
                                           "backedUp": used, "createdAt": t0 + 8.5, "lastUsedAt": used ? t0 + 9.25 : nil,
                                           "counterWentBackAt": used ? t0 + 9.5 : nil])
                try insert(tx, "passkeyChallenge", ["digest": digest(820 + id), "purpose": used ? "sign_in" : "register", "accountId": used ? nil : id,
                                                    "bindingDigest": digest(830 + id), "createdAt": t0, "expiresAt": t0 + 300, "usedAt": used ? t0 + 1 : nil])
            }
            try insert(tx, "openIDClient", ["id": "cli", "name": "Clé", "secretDigests": digest(900) + digest(901), "isPublic": false,
                                            "redirectURIs": "https://a.example/cb\nhttps://b.example/cb", "postLogoutRedirectURIs": "",
                                            "scopes": "openid email", "allow": "group:staff", "requiresSecondFactor": true, "firstParty": false,
                                            "subjectType": "pairwise", "backchannelLogoutURI": nil, "apiSignIn": false, "createdAt": t0])
            try insert(tx, "openIDGrant", ["id": "g1", "clientId": "cli", "accountId": 1, "sessionDigest": digest(1), "sid": "s1",
                                           "scopes": "openid", "nonce": nil, "authTime": t0, "factors": 2, "backchannel": true, "createdAt": t0,
                                           "expiresAt": t0 + 86_400, "lastUsedAt": t0 + 1, "revokedAt": nil])
            try insert(tx, "openIDCode", ["digest": digest(910), "clientId": "cli", "accountId": 1, "sessionDigest": digest(1),
                                          "redirectURI": "https://a.example/cb", "scopes": "openid", "nonce": "n", "codeChallenge": nil,
                                          "authTime": t0, "factors": 1, "createdAt": t0, "expiresAt": t0 + 60, "usedAt": t0 + 1, "grantId": "g1"])
            try insert(tx, "openIDToken", ["digest": digest(911), "kind": "refresh", "grantId": "g1", "scopes": "openid", "createdAt": t0,
                                           "expiresAt": t0 + 600, "usedAt": nil])
            try insert(tx, "openIDConsent", ["accountId": 1, "clientId": "cli", "scopes": "openid email", "grantedAt": t0, "lastUsedAt": nil])
            try insert(tx, "openIDDevice", ["digest": digest(912), "userCodeDigest": digest(913), "clientId": "cli", "scopes": "openid",
                                            "state": "pending", "pollInterval": 5.0, "lastPolledAt": nil, "accountId": nil, "sessionDigest": nil,
                                            "authTime": nil, "factors": nil, "grantId": nil, "createdAt": t0, "expiresAt": t0 + 600])
            try insert(tx, "openIDPushedRequest", ["digest": digest(914), "clientId": "cli", "parameters": "{\"scope\":\"openid\"}",
                                                   "createdAt": t0, "expiresAt": t0 + 90, "usedAt": nil])
            try insert(tx, "openIDLogoutDelivery", ["id": 7, "clientId": "cli", "accountId": 5, "sid": "s0", "grantId": "g0", "attempts": 2,
                                                    "dueAt": t0 + 30, "createdAt": t0, "deliveredAt": nil, "abandonedAt": nil])
            try insert(tx, "invite", ["digest": digest(700), "address": "New@Example.org", "normalizedAddress": "new@example.org", "createdAt": t0,
                                      "expiresAt": t0 + 86_400, "usedAt": nil])
            try insert(tx, "invite", ["digest": digest(701), "address": "used@example.org", "normalizedAddress": "used@example.org", "createdAt": t0,
                                      "expiresAt": t0 + 86_400, "usedAt": t0 + 7])
            // Retention pruned some audit rows: what it took is kept (sign_in: 6 pruned, 4 rows kept), and account 3
            // keeps its last sign-in with none of its sign_in rows left.
            try tx.execute("DELETE FROM audit WHERE event = 'sign_in' AND (accountId = 3 OR detail = 'via=1')")
            try tx.execute("DELETE FROM account WHERE id = 5")   // its ids are never given again
        }
    }
}
