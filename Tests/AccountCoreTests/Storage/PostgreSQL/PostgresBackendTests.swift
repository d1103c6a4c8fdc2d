// PostgresBackendTests.swift: the PostgreSQL backend on a private cluster (StorageTestKit starts one): placeholders,
// values both ways, errors by SQLSTATE, savepoints, migrations, and the advisory-lock turn-taking.
import Foundation
import Testing
import StorageTestKit
@testable import AccountCore

@Suite struct PostgresBackendTests {
    @Test func placeholdersAreNumberedOutsideQuotes() {
        #expect(PostgresConnection.numbered("SELECT ? , '?' , \"a?\" , ?") == "SELECT $1 , '?' , \"a?\" , $2")
    }

    @Test func valuesComeBackAsSQLiteWouldGiveThem() throws {
        let database = try TestDatabase.make(.postgresql)
        let row = try #require(try database.read { tx in
            try tx.row("SELECT CAST(? AS bigint) AS i, CAST(? AS double precision) AS d, CAST(? AS text) AS t, CAST(? AS bytea) AS b, TRUE AS yes, CAST(NULL AS text) AS n",
                       [Int64(42), 1.5, "héllo", Data([0, 1, 0xfe, 0xff]), ])
        })
        #expect(row["i"] as Int64 == 42 && row["d"] as Double == 1.5 && row["t"] as String == "héllo")
        #expect(row["b"] as Data == Data([0, 1, 0xfe, 0xff]) && row["yes"] as Bool && (row["n"] as String?) == nil)
        #expect(row.value("YES") == .integer(1))   // names ignore case
    }

    @Test func theSchemaIsMigratedAndRowsRoundTrip() throws {
        let database = try TestDatabase.make(.postgresql)
        #expect(try database.pendingMigrations().isEmpty)
        #expect(try database.appliedMigrations() == database.backend.knownMigrations)
        let id = try database.write { tx in
            try tx.insert("INSERT INTO account (passwordHash, createdAt, updatedAt) VALUES (?, ?, ?) RETURNING id", ["x", 1.0, 1.0])
        }
        try database.write { tx in
            try tx.execute("INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt) VALUES (?, ?, ?, ?, ?, ?)",
                           [id, "Ann@Example.com", "ann@example.com", true, 2.0, 2.0])
        }
        #expect(try database.read { tx in try tx.value(String.self, "SELECT address FROM emailAddress WHERE accountId = ? AND isPrimary", [id]) }
                == "Ann@Example.com")
    }

    @Test func constraintsAnswerAsTheSeamsErrors() throws {
        let database = try TestDatabase.make(.postgresql)
        let id = try database.write { tx in
            try tx.insert("INSERT INTO account (passwordHash, createdAt, updatedAt) VALUES ('x', 0, 0) RETURNING id")
        }
        let insert = "INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, createdAt) VALUES (?, ?, ?, FALSE, 0)"
        try database.write { tx in try tx.execute(insert, [id, "a@x.org", "a@x.org"]) }
        #expect { try database.write { tx in try tx.execute(insert, [id, "A@x.org", "a@x.org"]) } } throws: { error in
            if case StorageError.uniqueViolation = error { return true } else { return false }
        }
        // A trigger's refusal: an unverified address cannot become primary.
        #expect { try database.write { tx in try tx.execute("UPDATE emailAddress SET isPrimary = TRUE") } } throws: { error in
            if case StorageError.constraint = error { return true } else { return false }
        }
    }

    @Test func aSavepointUndoesOnlyItsOwnPartAndTheTransactionGoesOn() throws {
        let database = try TestDatabase.make(.postgresql)
        try database.write { tx in
            try tx.execute("INSERT INTO serverSecret (name, value) VALUES ('a', ?)", [Data([1])])
            do {
                try tx.savepoint { try tx.execute("INSERT INTO serverSecret (name, value) VALUES ('a', ?)", [Data([2])]) }
            } catch StorageError.uniqueViolation {}
            try tx.execute("INSERT INTO serverSecret (name, value) VALUES ('b', ?)", [Data([3])])
        }
        #expect(try database.read { tx in try tx.values(String.self, "SELECT name FROM serverSecret ORDER BY name") } == ["a", "b"])
    }

    @Test func aStatementOverTheTimeoutIsUnavailableNotAFailure() throws {
        let url = try TestDatabase.makePostgresDatabase()
        let database = AppDatabase(backend: try PostgresBackend(settings: PostgresSettings(url: url, statementTimeout: 0.2)))
        #expect { try database.read { tx in try tx.execute("SELECT pg_sleep(2)") } } throws: { StorageFailure.isUnavailable($0) }
        #expect(try database.read { tx in try tx.value(Int.self, "SELECT 1") } == 1)   // the connection is still good
    }

    /// The URL's own `options=` (a search path, a work_mem) adds to the statement timeout, never replaces it, and an
    /// earlier statement_timeout in it gives way to the configured one.
    @Test func theURLsOptionsKeepTheStatementTimeout() throws {
        let url = try TestDatabase.makePostgresDatabase() + "&options=-c%20work_mem%3D8MB%20-c%20statement_timeout%3D0"
        let database = AppDatabase(backend: try PostgresBackend(settings: PostgresSettings(url: url, statementTimeout: 0.2)))
        #expect(try database.read { tx in try tx.value(String.self, "SHOW statement_timeout") } == "200ms")
        #expect(try database.read { tx in try tx.value(String.self, "SHOW work_mem") } == "8MB")
        #expect { try database.read { tx in try tx.execute("SELECT pg_sleep(2)") } } throws: { StorageFailure.isUnavailable($0) }
    }

    @Test func aReadOnlyServerRefusesWritesAsUnavailableAndStillReads() throws {
        let url = try TestDatabase.makePostgresDatabase()
        let database = AppDatabase(backend: try PostgresBackend(settings: PostgresSettings(url: url)))
        try database.read { tx in _ = try tx.execute("SELECT 1") }
        let name = try #require(try database.read { tx in try tx.value(String.self, "SELECT current_database()") })
        try PostgresAdmin.run("ALTER DATABASE \(name) SET default_transaction_read_only = on", url: url)   // as a standby would be
        let fresh = AppDatabase(backend: try PostgresBackend(settings: PostgresSettings(url: url)))
        #expect { try fresh.write { tx in try tx.execute("INSERT INTO serverSecret (name, value) VALUES ('x', ?)", [Data([1])]) } }
            throws: { StorageFailure.isUnavailable($0) }
        #expect(try fresh.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM serverSecret") } == 0)
    }

    @Test func anUnreachableServerIsUnavailable() throws {
        let settings = PostgresSettings(url: "postgresql://frontdoor@/postgres?host=/nonexistent-folder&port=54329", connectTimeout: 1)
        #expect { try PostgresBackend(settings: settings) } throws: { StorageFailure.isUnavailable($0) }
    }

    /// Eight writers count and insert under the same key: with `serialize(on:)` none sees a stale count.
    @Test func serializeMakesCountThenInsertTakeTurns() throws {
        let database = try TestDatabase.make(.postgresql)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            _ = try? database.write { tx in
                try tx.serialize(on: "limit")
                let count = try tx.value(Int.self, "SELECT COUNT(*) FROM addressBlock") ?? 0
                if count < 3 { try tx.execute("INSERT INTO addressBlock (remoteAddress, blockedUntil) VALUES (?, 0)", [UUID().uuidString]) }
            }
        }
        #expect(try database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM addressBlock") } == 3)
    }
}
