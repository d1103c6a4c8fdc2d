import Foundation
import GRDB
import Testing
import StorageTestKit
@testable import AccountCore

struct AppDatabaseTests {
    @Test func openingMigratesToTheLatestSchema() throws {
        let database = try AppDatabase.inMemory()
        #expect(try database.appliedMigrations() == ["v1-accounts-sessions", "v2-tokens-mail", "v3-signing-keys", "v4-lockout-audit-invites",
                                                       "v5-session-idle-index", "v6-self-service", "v7-social", "v8-native", "v9-language",
                                                       "v10-address-group", "v11-retention", "v12-session-notifications", "v13-address-proof",
                                                       "v14-expiry-indexes", "v14-quiet-purges", "v14-audit-totals-at-prune",
                                                       "v14-one-session-account-index", "v15-groups", "v15-usernames",
                                                       "v16-second-factor", "v16-one-time-codes", "v16-passkeys", "v17-openid", "v18-audit-actor"])
        let tables = try database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%' ORDER BY name")
        }
        #expect(tables == ["account", "accountGroup", "accountToken", "addressBlock", "audit", "auditCount", "emailAddress", "groupMember", "invite",
                           "mailQueue", "oneTimeCode", "openIDClient", "openIDCode", "openIDConsent", "openIDDevice", "openIDGrant",
                           "openIDLogoutDelivery", "openIDPushedRequest", "openIDToken", "passkey", "passkeyChallenge", "profileValue", "recoveryCode", "residence", "secondFactorChallenge",
                           "serverSecret", "session", "signInFailure", "signingKey", "socialFlow",
                           "socialIdentity", "socialPending"])
    }

    /// The address rules hold in the schema itself: only a verified address becomes primary, and a primary address is
    /// deleted only with its account.
    @Test func triggersGuardThePrimaryAddress() throws {
        let database = try TestDatabase.make()
        try database.write { tx in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let ids = try Account.insert(address: "ann@example.com", passwordHash: "x", verified: true, language: nil, now: now, in: tx)
            let other = try tx.insert("""
                INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt)
                VALUES (?, 'other@example.com', 'other@example.com', FALSE, NULL, 0) RETURNING id
                """, [ids.account])
            try tx.execute("UPDATE emailAddress SET isPrimary = FALSE WHERE id = ?", [ids.address])
            #expect(throws: StorageError.self) { try tx.savepoint { try tx.execute("UPDATE emailAddress SET isPrimary = TRUE WHERE id = ?", [other]) } }
            try tx.execute("UPDATE emailAddress SET isPrimary = TRUE WHERE id = ?", [ids.address])
            #expect(throws: StorageError.self) { try tx.savepoint { try tx.execute("DELETE FROM emailAddress WHERE id = ?", [ids.address]) } }
            try tx.execute("DELETE FROM account WHERE id = ?", [ids.account])
            #expect(try tx.value(Int.self, "SELECT COUNT(*) FROM emailAddress") == 0, "the account's deletion takes its addresses")
        }
    }

    @Test func foreignKeysAreEnforced() throws {
        let database = try AppDatabase.inMemory()
        #expect(try database.writer.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true)
        #expect(throws: DatabaseError.self) {
            try database.writer.write { db in
                try db.execute(sql: """
                    INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, createdAt) VALUES (99, 'a@b.c', 'a@b.c', 1, 0)
                    """)
            }
        }
    }

    @Test func deletingAnAccountDeletesItsAddressesSessionsAndTokens() throws {
        // Given an account with an address, two sessions and a confirmation token
        let fixture = try TestFixture(confirmationRequired: true)
        _ = try fixture.services.registration.signUp(TestFixture.form(email: "ann@example.com"), client: ClientInfo())
        try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 0") }
        _ = try fixture.signIn("ann@example.com")
        _ = try fixture.signIn("ann@example.com")
        #expect(try [fixture.count("account"), fixture.count("emailAddress"), fixture.count("session"), fixture.count("accountToken")] == [1, 1, 2, 1])
        // When the account is deleted
        try fixture.database.write { tx in try tx.execute("DELETE FROM account") }
        // Then everything that belonged to it is gone
        #expect(try [fixture.count("emailAddress"), fixture.count("session"), fixture.count("accountToken")] == [0, 0, 0])
    }

    @Test func aSecretIsMadeOnceAndThenKept() throws {
        let database = try TestDatabase.make()
        let first = try database.secret(named: "csrf", random: SeededRandomSource(seed: 1))
        let second = try database.secret(named: "csrf", random: SeededRandomSource(seed: 2))
        let other = try database.secret(named: "cookie", random: SeededRandomSource(seed: 1))
        #expect(first.count == 32)
        #expect(second == first, "stable across calls, whatever the random source")
        #expect(other.count == 32)
        #expect(try database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM serverSecret") } == 2)
    }

    @Test func aDatabaseFileKeepsItsSecretsAcrossOpeningsAndItsFolderIsCreated() throws {
        let folder = NSTemporaryDirectory() + "frontdoor-db-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/nested/frontdoor.sqlite"
        let made = try AppDatabase.open(path: path).secret(named: "csrf", random: SeededRandomSource(seed: 3))
        #expect(FileManager.default.fileExists(atPath: path))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the file holds private keys: owner only")
        let reopened = try AppDatabase.open(path: path)
        #expect(try reopened.appliedMigrations().count == 24)
        #expect(try reopened.secret(named: "csrf", random: SeededRandomSource(seed: 4)) == made)
    }

    /// Every command but `migrate` and `serve` (issue 22): a missing file is not made, an old one is not migrated.
    @Test func openExistingCreatesNothingAndRefusesAnOutOfDateFile() throws {
        let folder = NSTemporaryDirectory() + "frontdoor-db-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/frontdoor.sqlite"
        #expect(throws: DatabaseNotReady.missing(path)) { try AppDatabase.openExisting(path: path) }
        #expect(!FileManager.default.fileExists(atPath: folder), "not even the folder")

        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try SQLiteBackend.migrator.migrate(DatabaseQueue(path: path), upTo: "v8-native")
        chmod(path, 0o644)   // as a file made outside frontdoor may be: refused, by both ways in, before it is read
        #expect(throws: DatabaseNotReady.readableByOthers(path, mode: 0o644)) { try AppDatabase.openExisting(path: path) }
        #expect(throws: DatabaseNotReady.readableByOthers(path, mode: 0o644)) { try AppDatabase.open(path: path) }
        chmod(path, 0o640)
        #expect(throws: DatabaseNotReady.outOfDate(path, pending: ["v9-language", "v10-address-group", "v11-retention", "v12-session-notifications", "v13-address-proof", "v14-expiry-indexes",
                                                     "v14-quiet-purges", "v14-audit-totals-at-prune", "v14-one-session-account-index", "v15-groups", "v15-usernames",
                                                     "v16-second-factor", "v16-one-time-codes", "v16-passkeys", "v17-openid", "v18-audit-actor"])) {
            try AppDatabase.openExisting(path: path)
        }
        let old = try AppDatabase.openExisting(path: path, requireCurrent: false)
        #expect(try old.appliedMigrations().last == "v8-native", "opened as it is, for a backup")
        #expect(try old.pendingMigrations() == ["v9-language", "v10-address-group", "v11-retention", "v12-session-notifications", "v13-address-proof", "v14-expiry-indexes",
                                                     "v14-quiet-purges", "v14-audit-totals-at-prune", "v14-one-session-account-index", "v15-groups", "v15-usernames",
                                                     "v16-second-factor", "v16-one-time-codes", "v16-passkeys", "v17-openid", "v18-audit-actor"])
        try old.migrate()
        #expect(try old.pendingMigrations().isEmpty && AppDatabase.open(path: path).appliedMigrations().count == 24)
        #expect(try AppDatabase.openExisting(path: path).appliedMigrations().count == 24)
    }

    /// Every batch of the pruner's expiry (Retention+Expiry) finds its rows through an index: the inner SELECT searches
    /// an index on the end time, the DELETE its primary key; no step scans a table.
    @Test func purgingEndedRowsUsesIndexesNotAScan() throws {
        let database = try AppDatabase.inMemory()
        for kind in Retention.Ended.allCases {
            let plan = try database.writer.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Transaction.endedBatchSQL(kind), arguments: [1.0, 1000]).map { $0["detail"] as String }
            }
            #expect(plan.contains { $0.hasPrefix("SEARCH") && $0.contains("INDEX") && !$0.contains("PRIMARY KEY") }, "\(kind): \(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(kind): \(plan)")
        }
    }
}
