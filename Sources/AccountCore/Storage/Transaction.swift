// Transaction.swift: the storage seam. Features run named store operations (Storage/Stores/*) inside a `Transaction`;
// a backend (Storage/SQLite, Storage/PostgreSQL) supplies the connection underneath.
//
// Options: none here; each backend's file lists its own.
// Statement text is written once, in the SQL both backends speak: `?` parameters (PostgreSQL's backend numbers them),
// `INSERT … ON CONFLICT`, `RETURNING`, booleans compared as truth values (`WHERE isPrimary`, `NOT isPrimary`), no
// `INSERT OR …`, no SQLite or PostgreSQL functions that the other lacks. Where the two must differ, the store asks
// `tx.dialect`. Errors leave a backend only as `StorageError`, so no feature knows which database answered.
import Foundation

/// Which SQL a backend speaks, for the few statements that differ.
public enum SQLDialect: String, Sendable {
    case sqlite
    case postgresql
}

/// What can go wrong below the seam, the same for every backend.
public enum StorageError: Error, Equatable, CustomStringConvertible {
    /// A unique index or primary key refused the row (SQLite SQLITE_CONSTRAINT_UNIQUE, PostgreSQL 23505).
    case uniqueViolation(String)
    /// Any other constraint or trigger refused the change (foreign key, check, a trigger's RAISE).
    case constraint(String)
    /// The store cannot answer now: full, read-only, unreachable, restarting, timed out. Nothing was written;
    /// callers answer 503 with Retry-After.
    case unavailable(String)
    /// A concurrent transaction conflicted with this one (PostgreSQL 40001, 40P01); the backend runs a write again a
    /// few times before letting this out, and then it is answered like `unavailable`.
    case conflict(String)
    /// A row did not have the shape the statement promised: a bug in a store operation.
    case badRow(String)
    /// Anything else the backend reported (a bug in a statement, usually).
    case failed(String)

    public var description: String {
        switch self {
        case .uniqueViolation(let detail): "unique constraint: \(detail)"
        case .constraint(let detail): "constraint: \(detail)"
        case .unavailable(let detail): "storage unavailable: \(detail)"
        case .conflict(let detail): "concurrent change: \(detail)"
        case .badRow(let detail): "unexpected row: \(detail)"
        case .failed(let detail): "storage error: \(detail)"
        }
    }
}

/// A backend's connection, inside a transaction the backend opened. Used by `Transaction` only.
public protocol SQLConnection {
    /// Runs `sql` (one statement, `?` parameters) and returns its rows.
    func query(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRow]
    /// Runs `sql` and returns how many rows it changed.
    func execute(_ sql: String, _ arguments: SQLArguments) throws -> Int
    /// Runs `body` so that its failure undoes only its own changes (a savepoint), leaving the transaction usable.
    func savepoint<T>(_ body: () throws -> T) throws -> T
    /// Hears that this transaction ended or changed sessions (a backend with a session cache forgets them at its end).
    func sessionsChanged(_ change: SessionChange)
}

extension SQLConnection {
    public func sessionsChanged(_ change: SessionChange) {}
}

/// What a transaction did to the rows the session lookup reads. Only the session store's own writes report it
/// (Storage/Stores), so no feature can forget to.
public enum SessionChange: Sendable, Equatable {
    /// Every session of the account (ended, or its primary address or its groups changed).
    case account(Int64)
    /// One session, by digest.
    case session(Data)
    /// One session was marked used at `lastSeenAt` (seconds): a cache keeps its copy in step once the write commits.
    case touched(Data, lastSeenAt: Double)
}

/// One open transaction: what store operations receive. Never kept beyond the closure that was given it.
public struct Transaction {
    let connection: any SQLConnection
    /// Which SQL the backend speaks.
    public let dialect: SQLDialect

    public init(connection: any SQLConnection, dialect: SQLDialect) {
        self.connection = connection
        self.dialect = dialect
    }

    /// The rows of `sql`.
    public func rows(_ sql: String, _ arguments: SQLArguments = []) throws -> [SQLRow] {
        try connection.query(sql, arguments)
    }

    /// The first row of `sql`, or nil.
    public func row(_ sql: String, _ arguments: SQLArguments = []) throws -> SQLRow? {
        try connection.query(sql, arguments).first
    }

    /// The first column of the first row of `sql` as `T`, or nil (no row, or NULL).
    public func value<T: SQLDecodable>(_ type: T.Type = T.self, _ sql: String, _ arguments: SQLArguments = []) throws -> T? {
        try connection.query(sql, arguments).first?.first(as: T.self)
    }

    /// The first column of every row of `sql` as `T` (rows where it is NULL are left out).
    public func values<T: SQLDecodable>(_ type: T.Type = T.self, _ sql: String, _ arguments: SQLArguments = []) throws -> [T] {
        try connection.query(sql, arguments).compactMap { $0.first(as: T.self) }
    }

    /// Runs `sql`; returns how many rows it changed.
    @discardableResult
    public func execute(_ sql: String, _ arguments: SQLArguments = []) throws -> Int {
        try connection.execute(sql, arguments)
    }

    /// Runs an `INSERT … RETURNING id` and returns the id.
    public func insert(_ sql: String, _ arguments: SQLArguments = []) throws -> Int64 {
        guard let id = try value(Int64.self, sql, arguments) else { throw StorageError.badRow("\(sql): no id returned") }
        return id
    }

    /// Makes concurrent writers that name the same `key` take turns until this transaction ends: for a rule that counts
    /// rows and then inserts (lockout, sign-up limits, throttles). SQLite runs one writer at a time already; PostgreSQL
    /// takes a transaction-scoped advisory lock on the key's 64-bit FNV-1a hash.
    public func serialize(on key: String) throws {
        guard dialect == .postgresql else { return }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        try execute("SELECT pg_advisory_xact_lock(?)", [Int64(bitPattern: hash)])
    }

    /// Tells the backend that this transaction changed what the session lookup reads for these sessions: a store
    /// operation that deletes or touches sessions or changes an account's primary address or groups calls it, so this
    /// host's cache of lookups (PostgreSQL) follows when the transaction ends; other hosts hear it from the database's
    /// triggers.
    func sessionsChanged(_ change: SessionChange) {
        connection.sessionsChanged(change)
    }

    /// Runs `body` in a savepoint: when it throws, only its own changes are undone and the transaction goes on
    /// (PostgreSQL aborts a whole transaction on any error otherwise).
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try connection.savepoint(body)
    }
}

/// A database: runs transactions. One per process, shared by every thread.
public protocol StorageBackend: Sendable {
    var dialect: SQLDialect { get }
    /// Runs `body` in a read-only transaction that sees one snapshot.
    func read<T>(_ body: (Transaction) throws -> T) throws -> T
    /// Runs `body` in a write transaction; commits when it returns, rolls back when it throws. A backend may run
    /// `body` again after a serialization conflict, so `body` changes nothing but the database.
    func write<T>(_ body: (Transaction) throws -> T) throws -> T
    /// The hot path: the browser session whose digest is `digest`, with its account's primary address.
    func findBrowserSession(digest: Data) throws -> SessionInfo?
    /// Marks the session `digest` used at `now` when its stored `lastSeenAt` is at or before `staleBefore`: best
    /// effort, never worth a wait. False when the backend skipped it (no connection free at once).
    func touchSession(digest: Data, at now: Date, staleBefore: Date) throws -> Bool
    /// Names of the migrations applied so far, and of all the binary has, in order.
    func appliedMigrations() throws -> [String]
    var knownMigrations: [String] { get }
    /// Applies the pending migrations.
    func migrate() throws
    /// Figures for `/metrics`: round trips to a server and the session cache; nil for an embedded database.
    var figures: StorageFigures? { get }
}

extension StorageBackend {
    public var figures: StorageFigures? { nil }

    /// An ordinary write: a backend with no pool to wait for (SQLite) always takes it.
    public func touchSession(digest: Data, at now: Date, staleBefore: Date) throws -> Bool {
        try write { tx in try tx.touchSession(digest: digest, lastSeenAt: now, staleBefore: staleBefore) }
        return true
    }
}

/// What a server backend reports about itself since the process started.
public struct StorageFigures: Sendable, Equatable {
    public var roundTrips: Int
    /// Writes run again after a deadlock or serialization failure (each one a lock-order or hot-row bug to find).
    public var retries: Int
    public var sessionCache: SessionCacheFigures?

    public init(roundTrips: Int, retries: Int = 0, sessionCache: SessionCacheFigures? = nil) {
        self.roundTrips = roundTrips
        self.retries = retries
        self.sessionCache = sessionCache
    }
}

/// The session cache's counters (lookups answered from it, lookups that went to the server, invalidations heard,
/// times it was emptied) and its state now.
public struct SessionCacheFigures: Sendable, Equatable {
    public var hits, misses, invalidations, resets, entries: Int
    public var listening: Bool
}
