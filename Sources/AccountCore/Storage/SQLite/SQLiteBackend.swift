// SQLiteBackend.swift: the embedded default: one SQLite file in WAL mode through GRDB, or a private in-memory database.
//
// Options (config section `database`): `path` (or `url: sqlite:PATH`), `max_size_mb` (0: no cap; a write that would grow
// the file past it fails with SQLITE_FULL, changes nothing and answers 503).
// Writers are serialised by SQLite itself (one writer at a time, 5 s busy timeout), so every rule that needs one
// winner holds by the transaction alone here; the constraints in the schema hold it on PostgreSQL as well.
import Foundation
import GRDB
import GRDBSQLite

/// SQLite under the storage seam.
public final class SQLiteBackend: StorageBackend, Sendable {
    /// GRDB's writer (a `DatabasePool` for a file): `backup` and the migrator use it; features never see it.
    let writer: any DatabaseWriter
    /// Per-thread read-only connections for the session lookup on every request (files only; nil in memory).
    let sessionLookup: SessionLookup?
    /// The file this backend opened (nil in memory): the readiness check looks that it is still there.
    public let filePath: String?

    public var dialect: SQLDialect { .sqlite }

    init(writer: any DatabaseWriter, filePath: String?) {
        self.writer = writer
        self.sessionLookup = filePath.map(SessionLookup.init(path:))
        self.filePath = filePath
    }

    /// The file at `path` with the shared connection settings (and the size cap when `maxSizeMB` > 0). Several processes
    /// opening one new file at the same moment (hosts starting together) can find it locked while another switches it to
    /// WAL, which SQLite answers at once with SQLITE_BUSY rather than through the busy timeout: tried again for up to 10 s.
    static func file(path: String, maxSizeMB: Int) throws -> SQLiteBackend {
        let deadline = Date() + 10
        while true {
            do {
                return SQLiteBackend(writer: try DatabasePool(path: path, configuration: makeConfiguration(maxSizeMB: maxSizeMB)),
                                     filePath: path)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                usleep(UInt32.random(in: 10_000...50_000))
            }
        }
    }

    /// A private in-memory database: for tests.
    static func memory() throws -> SQLiteBackend {
        SQLiteBackend(writer: try DatabaseQueue(configuration: makeConfiguration()), filePath: nil)
    }

    /// A file's connection settings: the shared ones, and with `maxSizeMB` > 0 the size cap on every connection.
    static func makeConfiguration(maxSizeMB: Int) -> Configuration {
        var configuration = makeConfiguration()
        if maxSizeMB > 0 {
            configuration.prepareDatabase { db in
                let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
                try db.execute(sql: "PRAGMA max_page_count = \(maxSizeMB * (1 << 20) / max(pageSize, 512))")
            }
        }
        return configuration
    }

    /// Connection settings shared by files and memory: foreign keys on, wait up to 5 s for a lock.
    static func makeConfiguration() -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(5)
        config.maximumReaderCount = 8
        return config
    }

    public func read<T>(_ body: (Transaction) throws -> T) throws -> T {
        try Self.mapped { try writer.read { db in try body(Transaction(connection: SQLiteConnection(db: db), dialect: .sqlite)) } }
    }

    /// One write transaction. BEGIN IMMEDIATE and COMMIT come from the statement cache: GRDB's `write` compiles both
    /// afresh each time, which cost more than the touch's UPDATE itself (bench/callgrind-sqlite). Any failure, of the
    /// body or of COMMIT, rolls back through GRDB's `rollback`, which does nothing when SQLite already rolled back
    /// (SQLITE_FULL, I/O errors); a statement after such a rollback is refused (`SQLiteConnection.inWrite`) instead of
    /// running on its own in autocommit mode.
    public func write<T>(_ body: (Transaction) throws -> T) throws -> T {
        try Self.mapped {
            try writer.writeWithoutTransaction { db in
                try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
                do {
                    let result = try body(Transaction(connection: SQLiteConnection(db: db, inWrite: true), dialect: .sqlite))
                    try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                    return result
                } catch {
                    try? db.rollback()
                    throw error
                }
            }
        }
    }

    /// A file's lookup failing (the file cannot be opened, SQLITE_BUSY past the busy timeout, an I/O error) is storage
    /// trouble like any other here: `StorageError.unavailable`, which a page answers with 503 and Retry-After.
    public func findBrowserSession(digest: Data) throws -> SessionInfo? {
        guard let sessionLookup else { return try read { tx in try tx.browserSession(digest: digest) } }
        do {
            return try sessionLookup.find(digest: digest)
        } catch let error as SessionLookupError {
            throw StorageError.unavailable(error.description)
        }
    }

    public func appliedMigrations() throws -> [String] {
        try Self.mapped { try writer.read { db in try Self.migrator.appliedMigrations(db) } }
    }

    public var knownMigrations: [String] { Self.migrator.migrations }

    public func migrate() throws {
        try Self.mapped { try Self.migrator.migrate(writer) }
    }

    /// Runs `body`, turning GRDB's errors into `StorageError`.
    static func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw storageError(error)
        }
    }

    /// The seam's name for an SQLite error.
    static func storageError(_ error: DatabaseError) -> StorageError {
        let detail = error.message ?? "\(error.resultCode)"
        if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            return .uniqueViolation(detail)
        }
        switch error.resultCode {
        case .SQLITE_CONSTRAINT: return .constraint(detail)
        case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_CANTOPEN: return .unavailable(detail)
        default: return .failed(detail)
        }
    }
}

/// A GRDB connection inside one of its transactions, as the seam's `SQLConnection`. Statements come from GRDB's
/// per-connection cache (compiling one costs several times running it) and are released after every use: a cached
/// statement otherwise keeps its last arguments (GRDB's copy and SQLite's bindings) until its next use, and
/// LeakSanitizer reported blob arguments held that way as leaked (api-fuzz).
struct SQLiteConnection: SQLConnection {
    let db: Database
    /// Inside `SQLiteBackend.write`'s transaction: every statement needs it still open.
    var inWrite = false

    /// SQLite rolls a transaction back by itself on some errors (full, I/O, busy); a body that caught such an error
    /// and went on must not have its later statements commit one by one.
    private func requireTransaction() throws {
        if inWrite && !db.isInsideTransaction { throw StorageError.unavailable("SQLite rolled the transaction back after an error") }
    }

    func query(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRow] {
        try requireTransaction()
        return try SQLiteBackend.mapped {
            let statement = try db.cachedStatement(sql: sql)
            defer { Self.release(statement) }
            try statement.setArguments(StatementArguments(arguments.values.map(Self.databaseValue)))
            let columns = SQLColumns(statement.columnNames)
            return try Row.fetchAll(statement).map { row in
                SQLRow(columns: columns, values: (0..<columns.names.count).map { Self.sqlValue(row[$0] as DatabaseValue) })
            }
        }
    }

    func execute(_ sql: String, _ arguments: SQLArguments) throws -> Int {
        try requireTransaction()
        return try SQLiteBackend.mapped {
            let statement = try db.cachedStatement(sql: sql)
            defer { Self.release(statement) }
            try statement.execute(arguments: StatementArguments(arguments.values.map(Self.databaseValue)))
            return db.changesCount
        }
    }

    func savepoint<T>(_ body: () throws -> T) throws -> T {
        try requireTransaction()
        var result: T?
        try SQLiteBackend.mapped {
            try db.inSavepoint {
                result = try body()
                return .commit
            }
        }
        guard let result else { throw StorageError.failed("savepoint ended without a result") }
        return result
    }

    /// Leaves a cached statement holding nothing of its last use: reset, its arguments forgotten and its bindings
    /// cleared (`setUncheckedArguments` with none resets, drops GRDB's copy and calls sqlite3_clear_bindings). The
    /// reset comes first and by hand because after a failed step SQLite's first reset answers that step's error, which
    /// GRDB's own reset there would not survive; a second reset answers SQLITE_OK.
    static func release(_ statement: Statement) {
        sqlite3_reset(statement.sqliteStatement)
        statement.setUncheckedArguments(StatementArguments())
    }

    static func databaseValue(_ value: SQLValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let data): data.databaseValue
        }
    }

    static func sqlValue(_ value: DatabaseValue) -> SQLValue {
        switch value.storage {
        case .null: .null
        case .int64(let number): .integer(number)
        case .double(let number): .real(number)
        case .string(let text): .text(text)
        case .blob(let data): .blob(data)
        }
    }
}
