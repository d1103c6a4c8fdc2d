// PostgresMigrator.swift: applies PostgresMigrations' steps to a PostgreSQL database that running hosts keep using.
//
// Options (MigrationPatience; `migrate()` uses its defaults): lockTimeout (3 s: how long one attempt of a step waits
// for a table lock), pause (1 s between attempts), attempts (150: about ten minutes behind long transactions).
//
// A run, on a connection of its own (not the pool's: its statement timeout would cut a long step, and a session-level
// lock must not go back to the pool):
// - statement_timeout 0: a backfill or an index build on a large table runs to its end;
// - the advisory lock `PostgresMigrations.lockKey` at session level for the whole run, asked for with
//   pg_try_advisory_lock every `pause`: a host starting while another migrates waits for as long as that takes
//   (instead of failing after its statement timeout), and its wait holds no snapshot between tries (a blocked
//   pg_advisory_lock would hold one, which the other's CREATE INDEX CONCURRENTLY waits for: a deadlock);
// - the bookkeeping table `schemaMigration`, made here and only here: reading what is applied runs no DDL, so a runtime
//   role without CREATE can start (a missing table means nothing is applied);
// - each pending step: in one transaction with its bookkeeping row, under `lock_timeout`: a step that cannot get its
//   lock in time (waiting behind a long transaction, its ACCESS EXCLUSIVE request would queue every reader of the table
//   behind it) is rolled back and tried again after `pause`. A step marked `transactional: false` (CREATE INDEX
//   CONCURRENTLY, which blocks no reader or writer) runs statement by statement without a lock timeout, and its
//   bookkeeping row is written after its last statement: each statement must be safe to run again.
import Foundation

extension PostgresBackend {
    public var knownMigrations: [String] { PostgresMigrations.all.map(\.name) }

    /// The steps applied so far, oldest first; none when `schemaMigration` is not there yet.
    public func appliedMigrations() throws -> [String] {
        try withConnection { connection in try Self.applied(on: connection) }
    }

    /// Applies the pending steps of this binary.
    public func migrate() throws {
        try migrate(PostgresMigrations.all)
    }

    /// Applies the steps of `migrations` not yet applied, in order (see the header); `patience` says how long a step
    /// waits for its locks.
    func migrate(_ migrations: [PostgresMigrations.Migration], patience: MigrationPatience = .init()) throws {
        let connection = try PostgresConnection(keywords: settings.keywords, roundTrips: roundTrips)
        let known = Set(try Self.applied(on: connection))
        let pending = migrations.map(\.name).filter { !known.contains($0) }
        guard !pending.isEmpty else { return }   // nothing to do: no lock, no DDL (a runtime role gets this far)
        do {
            try connection.simple("SET statement_timeout = 0")
            try connection.simple(patience.lockTimeoutSetting)
            try takeTurn(on: connection, patience)
            defer { _ = try? connection.run("SELECT pg_advisory_unlock(?)", [PostgresMigrations.lockKey]) }
            try connection.simple(PostgresMigrations.createTable)
            let applied = Set(try Self.applied(on: connection))   // another process may have applied some meanwhile
            for migration in migrations where !applied.contains(migration.name) {
                try apply(migration, on: connection, patience)
            }
        } catch StorageError.failed(let detail) where detail.hasPrefix("postgresql 42501:") {
            throw StorageError.failed("\(detail) (this role may not change the schema; pending: \(pending.joined(separator: ", ")); "
                                      + "run `frontdoor migrate` as the schema's owner)")
        }
    }

    static func applied(on connection: PostgresConnection) throws -> [String] {
        guard try connection.run("SELECT to_regclass('schemaMigration') IS NOT NULL AS present", []).rows.first?
            .decode("present", as: Bool.self) == true else { return [] }
        return try connection.run("SELECT identifier FROM schemaMigration ORDER BY appliedAt, identifier", []).rows.compactMap { $0.first() }
    }

    /// Waits for the migration lock, holding nothing between tries.
    private func takeTurn(on connection: PostgresConnection, _ patience: MigrationPatience) throws {
        while try connection.run("SELECT pg_try_advisory_lock(?) AS taken", [PostgresMigrations.lockKey]).rows.first?
            .decode("taken", as: Bool.self) != true {
            patience.retried("another process is migrating; waiting for it")
            usleep(UInt32(patience.pause * 1_000_000))
        }
    }

    /// Runs `migration` and records it, trying again after a pause while a lock it needs is held too long.
    private func apply(_ migration: PostgresMigrations.Migration, on connection: PostgresConnection, _ patience: MigrationPatience) throws {
        var attempt = 1
        while true {
            do {
                return try migration.transactional ? applyInTransaction(migration, on: connection)
                    : applyAlone(migration, on: connection, patience)
            } catch where Self.waitedTooLong(error) && attempt < patience.attempts && connection.isHealthy {
                patience.retried("\(migration.name): attempt \(attempt) gave way after waiting \(patience.lockTimeout) s for a lock")
                attempt += 1
                usleep(UInt32(patience.pause * 1_000_000))
            }
        }
    }

    private func applyInTransaction(_ migration: PostgresMigrations.Migration, on connection: PostgresConnection) throws {
        try connection.simple("BEGIN ISOLATION LEVEL READ COMMITTED")
        do {
            for statement in migration.statements { try connection.simple(statement) }
            try Self.record(migration, on: connection)
            try connection.simple("COMMIT")
        } catch {
            if connection.isHealthy { try? connection.simple("ROLLBACK") }
            throw error
        }
    }

    private func applyAlone(_ migration: PostgresMigrations.Migration, on connection: PostgresConnection,
                            _ patience: MigrationPatience) throws {
        try connection.simple("SET lock_timeout = 0")
        defer { try? connection.simple(patience.lockTimeoutSetting) }   // not RESET: that is the role's default, not ours
        for statement in migration.statements { try connection.simple(statement) }
        try Self.record(migration, on: connection)
    }

    private static func record(_ migration: PostgresMigrations.Migration, on connection: PostgresConnection) throws {
        _ = try connection.run("INSERT INTO schemaMigration (identifier, appliedAt) VALUES (?, ?)", [migration.name, Date().timeIntervalSince1970])
    }

    /// A lock not granted within `lock_timeout` (55P03), or a deadlock the server broke (40P01): the step may try again.
    private static func waitedTooLong(_ error: any Error) -> Bool {
        switch error {
        case StorageError.unavailable(let detail): detail.hasPrefix("postgresql 55P03:")
        case StorageError.conflict(let detail): detail.hasPrefix("postgresql 40P01:")
        default: false
        }
    }
}

/// How long a step waits for its locks (see PostgresMigrator.swift's header); `retried` hears each retry (for tests).
struct MigrationPatience: Sendable {
    var lockTimeout: TimeInterval = 3
    var pause: TimeInterval = 1
    var attempts = 150
    var retried: @Sendable (String) -> Void = { _ in }

    var lockTimeoutSetting: String { "SET lock_timeout = \(max(1, Int(lockTimeout * 1000)))" }
}
