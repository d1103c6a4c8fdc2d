// AppDatabase.swift: the database on its backend; `open` creates and migrates (for `migrate` and `serve`),
// `openExisting` only opens a file that is there and up to date (every other command: a command run from the
// wrong folder must not make a new, empty database and then succeed against it).
import Foundation
import GRDB

/// The account database on one backend (Storage/SQLite or Storage/PostgreSQL). Holding one means holding a migrated
/// database: `open` and `inMemory` migrate, `openExisting` checks.
///
/// ```swift
/// let db = try AppDatabase.open(path: "var/frontdoor.sqlite")   // SQLite, WAL
/// let memory = try AppDatabase.inMemory()                       // tests
/// try db.write { tx in try tx.execute("UPDATE account SET language = NULL WHERE id = ?", [id]) }
/// ```
public final class AppDatabase: Sendable {
    /// The backend every operation goes through.
    public let backend: any StorageBackend

    /// Wraps `backend` as it is, migrating nothing.
    public init(backend: any StorageBackend) {
        self.backend = backend
    }

    /// GRDB's writer of an SQLite backend: for SQLite-only tests (file size caps, commit hooks, query plans).
    var writer: any DatabaseWriter {
        guard let sqlite = backend as? SQLiteBackend else { preconditionFailure("not an SQLite database") }
        return sqlite.writer
    }

    /// Runs `body` in a read transaction (one snapshot).
    public func read<T>(_ body: (Transaction) throws -> T) throws -> T {
        try backend.read(body)
    }

    /// Runs `body` in a write transaction: all of it or none. `body` may run again after a serialization conflict.
    /// When `body` throws `CommittedFailure`, what it wrote is committed and then its inner error is thrown.
    public func write<T>(_ body: (Transaction) throws -> T) throws -> T {
        let outcome = try backend.write { tx -> Result<T, CommittedError> in
            do {
                return .success(try body(tx))
            } catch let failure as CommittedFailure {
                return .failure(CommittedError(error: failure.error))
            }
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let committed): throw committed.error
        }
    }

    /// `CommittedFailure`'s error carried out of the backend as a value (so the backend commits).
    private struct CommittedError: Error {
        let error: any Error
    }

    /// Opens the SQLite file at `path` only when it exists and (unless `requireCurrent` is false: `backup` copies
    /// whatever is there) has every migration: creates nothing, migrates nothing. Throws `DatabaseNotReady` (naming
    /// the file, made absolute) otherwise.
    public static func openExisting(path: String, maxSizeMB: Int = 0, requireCurrent: Bool = true) throws -> AppDatabase {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path) else { throw DatabaseNotReady.missing(absolute) }
        try requirePrivate(path)
        let database = AppDatabase(backend: try SQLiteBackend.file(path: path, maxSizeMB: maxSizeMB))
        let pending = try database.pendingMigrations()
        guard pending.isEmpty || !requireCurrent else { throw DatabaseNotReady.outOfDate(absolute, pending: pending) }
        return database
    }

    /// Opens (creating if needed) the SQLite file at `path` in WAL mode, creating its folder, and migrates it.
    /// A new file is made readable by its owner only (mode 0600): it holds private keys; SQLite gives its
    /// -wal and -shm files the same mode. With `maxSizeMB` > 0 every connection caps the file at that size
    /// (SQLite's `max_page_count`): a write that would grow it further fails with SQLITE_FULL and changes nothing.
    public static func open(path: String, maxSizeMB: Int = 0) throws -> AppDatabase {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let created = Foundation.open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)   // fails harmlessly when it exists
        if created >= 0 { close(created) }
        try requirePrivate(path)
        let database = AppDatabase(backend: try SQLiteBackend.file(path: path, maxSizeMB: maxSizeMB))
        try database.migrate()
        return database
    }

    /// Refuses a file others may read or write (made by hand, restored with cp, a pre-made `db copy` target): it would
    /// hand every password hash, session digest and private key to any local user. The group is the operator's choice.
    static func requirePrivate(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { return }   // missing: SQLite's own error says so
        let mode = info.st_mode & 0o777
        guard mode & 0o007 == 0 else {
            throw DatabaseNotReady.readableByOthers(URL(fileURLWithPath: path).standardizedFileURL.path, mode: Int(mode))
        }
    }

    /// A private, migrated in-memory SQLite database: for tests.
    public static func inMemory() throws -> AppDatabase {
        let database = AppDatabase(backend: try SQLiteBackend.memory())
        try database.migrate()
        return database
    }

    /// The names of the migrations this binary has that the database has not applied yet.
    public func pendingMigrations() throws -> [String] {
        let applied = try appliedMigrations()
        return backend.knownMigrations.filter { !applied.contains($0) }
    }

    /// Applies the pending migrations. Several processes may start on one new database at the same moment (two hosts'
    /// first start): PostgreSQL's migrations take turns on an advisory lock held for the whole run (PostgresMigrator),
    /// but SQLite's migrator reads what is applied before its transaction begins, so the slower process may run a
    /// migration the other has just committed. Such a failure is retried for as long as the database shows
    /// another process making progress (more migrations applied than at the previous failure); once every migration is
    /// there the failure is forgotten. A failure without progress is thrown.
    public func migrate() throws {
        var appliedAtLastFailure = -1
        while true {
            do {
                try backend.migrate()
                return try fillMissingUsernames()
            } catch {
                guard let applied = try? appliedMigrations() else { throw error }
                if Set(backend.knownMigrations).isSubset(of: applied) { return try fillMissingUsernames() }
                guard applied.count > appliedAtLastFailure else { throw error }
                appliedAtLastFailure = applied.count
            }
        }
    }

    /// `migrate()`, telling `waiting` each time PostgreSQL's run waits for another process's migration or a step gives
    /// way to a long transaction's lock and tries again (`frontdoor migrate` prints it, so a wait is never silent).
    public func migrate(waiting: @escaping @Sendable (String) -> Void) throws {
        guard let postgres = backend as? PostgresBackend else { return try migrate() }
        try postgres.migrate(PostgresMigrations.all, patience: MigrationPatience(retried: waiting))
        try fillMissingUsernames()
    }

    /// Gives every account without a username one (v15-usernames added the column; an older host still running
    /// inserts accounts without one, which their first session lookup fills). Cheap when none is missing: one probe of
    /// the index `account_withoutUsername`.
    private func fillMissingUsernames() throws {
        try Usernames(database: self).fillMissing()
    }

    /// The names of the migrations applied so far.
    public func appliedMigrations() throws -> [String] {
        try backend.appliedMigrations()
    }

    /// The secret named `name`, created from `random` (32 bytes) on first use and kept in the database: every host
    /// sharing the database gets the same one (the CSRF key).
    public func secret(named name: String, random: any RandomSource) throws -> [UInt8] {
        try agreedValue(named: name, proposing: random.bytes(32))
    }

    /// The value stored as `name`, storing `proposed` first when there is none. Of several hosts proposing at the
    /// same moment the first to commit wins and every one gets its value: the insert does nothing on a conflict (on
    /// PostgreSQL it waits for the winner's commit), and the read after it is a statement of its own, which sees that commit.
    public func agreedValue(named name: String, proposing proposed: [UInt8]) throws -> [UInt8] {
        try write { tx in
            try tx.execute("INSERT INTO serverSecret (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", [name, Data(proposed)])
            guard let value = try tx.value(Data.self, "SELECT value FROM serverSecret WHERE name = ?", [name]) else {
                throw StorageError.badRow("server secret \(name) missing after insert")
            }
            return [UInt8](value)
        }
    }

    /// The value stored as `name`, or nil.
    public func storedValue(named name: String) throws -> [UInt8]? {
        try read { tx in try tx.value(Data.self, "SELECT value FROM serverSecret WHERE name = ?", [name]).map { [UInt8]($0) } }
    }

    /// Removes the value stored as `name`; true when there was one.
    @discardableResult
    public func forgetValue(named name: String) throws -> Bool {
        try write { tx in try tx.execute("DELETE FROM serverSecret WHERE name = ?", [name]) > 0 }
    }
}

/// Why `AppDatabase.openExisting` refused: the file is not there, or it lacks migrations (a newer binary).
public enum DatabaseNotReady: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case outOfDate(String, pending: [String])
    case readableByOthers(String, mode: Int)

    public var description: String {
        switch self {
        case .missing(let path):
            return "no database at \(path) (check database.path and the folder you run from; `frontdoor migrate` creates it)"
        case .outOfDate(let path, let pending):
            return "database \(path) needs `frontdoor migrate` first (pending: \(pending.joined(separator: ", ")))"
        case .readableByOthers(let path, let mode):
            return "database \(path): mode \(String(mode, radix: 8)) lets others read it; make it 600 (chmod 600 \(path))"
        }
    }
}
