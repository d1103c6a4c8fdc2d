// PostgresMigratorTests.swift: the migration runner on a live PostgreSQL database (StorageTestKit's private cluster):
// a step waiting behind a long transaction gives way to readers and finishes once it ends; a long step and a second
// host's wait are not cut by the statement timeout; a step outside a transaction (CREATE INDEX CONCURRENTLY); reading
// what is applied changes nothing; a statement prepared before a column was added still runs after.
import Foundation
import Locking
import Testing
import StorageTestKit
@testable import AccountCore

@Suite struct PostgresMigratorTests {
    typealias Migration = PostgresMigrations.Migration

    /// A backend on a new migrated database, with `statementTimeout`, and a table `t` of its own.
    private func backendWithTable(statementTimeout: TimeInterval = PostgresSettings.defaultStatementTimeout) throws -> (PostgresBackend, String) {
        let url = try TestDatabase.makePostgresDatabase()
        let backend = try PostgresBackend(settings: PostgresSettings(url: url, statementTimeout: statementTimeout))
        try backend.write { tx in
            try tx.execute("CREATE TABLE t (id bigint PRIMARY KEY)")
            try tx.execute("INSERT INTO t (id) VALUES (1)")
        }
        return (backend, url)
    }

    private func connection(_ url: String, statementTimeout: TimeInterval = 30) throws -> PostgresConnection {
        try PostgresConnection(keywords: PostgresSettings(url: url, statementTimeout: statementTimeout).keywords)
    }

    private func applied(_ backend: PostgresBackend) throws -> [String] { try backend.appliedMigrations() }

    /// A long reader holds `t`; the step adding a column asks for ACCESS EXCLUSIVE, gives up after its lock timeout and
    /// tries again, so a second reader is not queued behind it; once the long reader ends, the step is applied.
    @Test func aStepBehindALongTransactionLetsReadersByAndFinishesOnceItEnds() throws {
        let (backend, url) = try backendWithTable()
        let holder = try connection(url)
        try holder.simple("BEGIN")
        _ = try holder.run("SELECT id FROM t", [])
        let retried = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Void, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let patience = MigrationPatience(lockTimeout: 0.2, pause: 0.05, attempts: 10_000, retried: { _ in retried.signal() })
        Thread.detachNewThread {
            // A step outside a transaction first: the lock timeout it turns off must be back for the next step.
            let result = Result { try backend.migrate([Migration(name: "test-outside-first", statements: ["SELECT 1"], transactional: false),
                                                      Migration(name: "test-add-column", statements: ["ALTER TABLE t ADD COLUMN note text"])],
                                                     patience: patience) }
            outcome.change { $0 = result }
            done.signal()
        }
        #expect(retried.wait(timeout: .now() + 30) == .success, "the step gave way after its lock timeout")
        let reader = try connection(url, statementTimeout: 10)
        #expect(try reader.run("SELECT id FROM t", []).rows.count == 1, "a reader gets by while the step waits")
        #expect(outcome.withLock { $0 } == nil, "the step waits while the long transaction runs")
        try holder.simple("COMMIT")
        #expect(done.wait(timeout: .now() + 60) == .success)
        try outcome.withLock { try #require($0).get() }
        #expect(try applied(backend).contains("test-add-column"))
        #expect(try reader.run("SELECT note FROM t", []).rows.count == 1)
    }

    /// Steps longer than the pool's statement timeout, in a transaction and outside one, run to their end.
    @Test func aLongStepIsNotCutByTheStatementTimeout() throws {
        let (backend, _) = try backendWithTable(statementTimeout: 0.3)
        try backend.migrate([Migration(name: "test-slow", statements: ["SELECT pg_sleep(0.6)"]),
                             Migration(name: "test-slow-outside", statements: ["SELECT pg_sleep(0.6)"], transactional: false)])
        #expect(try applied(backend).suffix(2) == ["test-slow", "test-slow-outside"])
    }

    /// CREATE INDEX CONCURRENTLY cannot run in a transaction block: a step outside one builds a valid index.
    @Test func aConcurrentIndexBuildRunsOutsideATransaction() throws {
        let (backend, _) = try backendWithTable()
        try backend.migrate([Migration(name: "test-concurrent-index", statements: [
            "DROP INDEX CONCURRENTLY IF EXISTS t_concurrent", "CREATE INDEX CONCURRENTLY t_concurrent ON t (id)",
        ], transactional: false)])
        #expect(try backend.read { tx in
            try tx.value(Bool.self, "SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('t_concurrent')")
        } == true)
        #expect(try applied(backend).last == "test-concurrent-index")
        try backend.migrate([Migration(name: "test-concurrent-index", statements: ["SELECT no_such_function()"], transactional: false)])
    }

    /// A second host starting while the first runs a step longer than the statement timeout waits for it, then finds
    /// the step applied (once).
    @Test func aSecondHostWaitsForTheFirstsLongStep() throws {
        let (first, url) = try backendWithTable(statementTimeout: 0.3)
        let second = try PostgresBackend(settings: PostgresSettings(url: url, statementTimeout: 0.3))
        let steps = [Migration(name: "test-long-first", statements: ["SELECT pg_sleep(1.2)"])]
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Void, any Error>?>(nil)
        Thread.detachNewThread {
            let result = Result { try first.migrate(steps) }
            outcome.change { $0 = result }
            done.signal()
        }
        let watcher = try connection(url)
        while try watcher.run("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(1.2)' AND state = 'active'", [])
            .rows.first?.decode("n", as: Int.self) == 0 {
            guard outcome.withLock({ $0 }) == nil else { break }   // the first host failed before its step: reported below
            usleep(10_000)
        }
        try second.migrate(steps)
        #expect(done.wait(timeout: .now() + 60) == .success)
        try outcome.withLock { try #require($0).get() }
        #expect(try watcher.run("SELECT COUNT(*) AS n FROM schemaMigration WHERE identifier = 'test-long-first'", []).rows.first?
            .decode("n", as: Int.self) == 1)
    }

    /// Reading what is applied runs no DDL: on an empty database nothing is applied and no table appears (a runtime
    /// role without CREATE can ask).
    @Test func appliedMigrationsOnAnEmptyDatabaseCreatesNothing() throws {
        let url = try TestDatabase.makePostgresDatabase(migrated: false)
        let backend = try PostgresBackend(settings: PostgresSettings(url: url))
        #expect(try backend.appliedMigrations() == [])
        #expect(try backend.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM pg_class WHERE relname = 'schemamigration'") } == 0)
        #expect(try AppDatabase(backend: backend).pendingMigrations() == backend.knownMigrations)
    }

    /// A statement prepared before a column was added runs after it, outside a transaction (prepared again at once)
    /// and inside a write (which runs again).
    @Test func aStatementPreparedBeforeAColumnWasAddedStillRuns() throws {
        let url = try TestDatabase.makePostgresDatabase()
        let lone = try connection(url)
        let backend = try PostgresBackend(settings: PostgresSettings(url: url, poolSize: 1))
        let whole = "SELECT * FROM serverSecret WHERE name <> ?"
        try backend.write { tx in try tx.execute("INSERT INTO serverSecret (name, value) VALUES ('a', ?)", [Data([1])]) }
        #expect(try lone.run(whole, ["x"]).rows.count == 1)
        #expect(try backend.write { tx in try tx.rows(whole, ["x"]) }.count == 1)
        try PostgresAdmin.run("ALTER TABLE serverSecret ADD COLUMN note text", url: url)
        #expect(try lone.run(whole, ["x"]).rows.first?.columns.contains("note") == true)
        #expect(try backend.write { tx in try tx.rows(whole, ["x"]) }.first?.columns.contains("note") == true)
    }
}
