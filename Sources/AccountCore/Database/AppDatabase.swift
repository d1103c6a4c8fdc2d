// AppDatabase.swift: owns the SQLite connection pool; `open` creates and migrates (for `migrate` and `serve`),
// `openExisting` only opens a file that is there and up to date (every other command: issue 22, a command run from the
// wrong folder must not make a new, empty database and then succeed against it).
import Foundation
import GRDB

/// The account database. Holding one means holding a migrated database: `init` migrates.
///
/// ```swift
/// let db = try AppDatabase.open(path: "var/frontdoor.sqlite")   // WAL DatabasePool
/// let memory = try AppDatabase.inMemory()                       // tests
/// ```
public final class AppDatabase: Sendable {
    /// The writer every operation goes through (a `DatabasePool` in production).
    public let writer: any DatabaseWriter
    /// Per-thread read-only connections for the session lookup on every request (files only; nil in memory).
    let sessionLookup: SessionLookup?

    /// Wraps `writer` and migrates it to the latest schema; with `filePath`, the session lookup reads that file
    /// on connections of its own.
    public init(_ writer: any DatabaseWriter, filePath: String? = nil) throws {
        self.writer = writer
        self.sessionLookup = filePath.map(SessionLookup.init(path:))
        try Self.migrator.migrate(writer)
    }

    /// Wraps `writer` as it is, migrating nothing (`openExisting` checks what is pending).
    private init(unmigrated writer: any DatabaseWriter, filePath: String) {
        self.writer = writer
        self.sessionLookup = SessionLookup(path: filePath)
    }

    /// Opens the SQLite file at `path` only when it exists and (unless `requireCurrent` is false: `backup` copies
    /// whatever is there) has every migration: creates nothing, migrates nothing. Throws `DatabaseNotReady` (naming
    /// the file, made absolute) otherwise.
    public static func openExisting(path: String, maxSizeMB: Int = 0, requireCurrent: Bool = true) throws -> AppDatabase {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path) else { throw DatabaseNotReady.missing(absolute) }
        let database = AppDatabase(unmigrated: try DatabasePool(path: path, configuration: makeConfiguration(maxSizeMB: maxSizeMB)),
                                   filePath: path)
        let pending = try database.pendingMigrations()
        guard pending.isEmpty || !requireCurrent else { throw DatabaseNotReady.outOfDate(absolute, pending: pending) }
        return database
    }

    /// Opens (creating if needed) the SQLite file at `path` in WAL mode, creating its folder.
    /// A new file is made readable by its owner only (mode 0600): it holds private keys; SQLite gives its
    /// -wal and -shm files the same mode. With `maxSizeMB` > 0 every connection caps the file at that size
    /// (SQLite's `max_page_count`): a write that would grow it further fails with SQLITE_FULL and changes nothing.
    public static func open(path: String, maxSizeMB: Int = 0) throws -> AppDatabase {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let created = Foundation.open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)   // fails harmlessly when it exists
        if created >= 0 { close(created) }
        return try AppDatabase(DatabasePool(path: path, configuration: makeConfiguration(maxSizeMB: maxSizeMB)), filePath: path)
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

    /// A private in-memory database: for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: makeConfiguration()))
    }

    /// Connection settings shared by files and memory: foreign keys on, wait up to 5 s for a lock.
    static func makeConfiguration() -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(5)
        config.maximumReaderCount = 8
        return config
    }

    /// The names of the migrations this binary has that the database has not applied yet.
    public func pendingMigrations() throws -> [String] {
        let applied = try appliedMigrations()
        return Self.migrator.migrations.filter { !applied.contains($0) }
    }

    /// Applies the pending migrations (a database opened by `openExisting(requireCurrent: false)`).
    public func migrate() throws {
        try Self.migrator.migrate(writer)
    }

    /// The names of the migrations applied so far.
    public func appliedMigrations() throws -> [String] {
        try writer.read { db in try Self.migrator.appliedMigrations(db) }
    }

    /// The secret named `name`, created from `random` (32 bytes) on first use and kept in the database.
    public func secret(named name: String, random: any RandomSource) throws -> [UInt8] {
        try writer.write { db in
            if let existing = try Data.fetchOne(db, sql: "SELECT value FROM serverSecret WHERE name = ?", arguments: [name]) {
                return [UInt8](existing)
            }
            let value = random.bytes(32)
            try db.execute(sql: "INSERT INTO serverSecret (name, value) VALUES (?, ?)", arguments: [name, Data(value)])
            return value
        }
    }
}

/// Why `AppDatabase.openExisting` refused: the file is not there, or it lacks migrations (a newer binary).
public enum DatabaseNotReady: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case outOfDate(String, pending: [String])

    public var description: String {
        switch self {
        case .missing(let path):
            return "no database at \(path) (check database.path and the folder you run from; `frontdoor migrate` creates it)"
        case .outOfDate(let path, let pending):
            return "database \(path) needs `frontdoor migrate` first (pending: \(pending.joined(separator: ", ")))"
        }
    }
}
