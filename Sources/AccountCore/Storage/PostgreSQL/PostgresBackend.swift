// PostgresBackend.swift: PostgreSQL under the storage seam, through libpq, for operators who outgrow one host.
//
// Options (config section `database`, read in AppConfiguration):
//   url                 postgresql://user@host:port/db?sslmode=verify-full (any libpq URL or conninfo)
//   password_file       the role's password, read once at start (or FRONTDOOR_DATABASE_PASSWORD); never argv or logs
//   pool_size           connections per process (default 10); a request waits up to connect_timeout for one
//   statement_timeout   the longest one statement may run (default 5 s) before the server cancels it
//   connect_timeout     how long to wait for the server or a free connection (default 5 s)
// Transactions: reads are REPEATABLE READ READ ONLY (one snapshot, like SQLite's); writes are READ COMMITTED, and
// each rule that needs one winner holds by a unique index, a conditional UPDATE, or `Transaction.serialize(on:)`
// (an advisory lock). A deadlock or serialization failure runs the write again (up to 5 times). A connection the
// server dropped (restart, failover) is replaced on the next use; nobody restarts Frontdoor.
import Foundation
import Locking

/// How to reach the server and how patient to be.
public struct PostgresSettings: Sendable, Equatable {
    public var url: String
    public var password: String?
    public var poolSize: Int
    public var statementTimeout: TimeInterval
    public var connectTimeout: TimeInterval

    public static let defaultPoolSize = 10
    public static let defaultStatementTimeout: TimeInterval = 5
    public static let defaultConnectTimeout: TimeInterval = 5

    public init(url: String, password: String? = nil, poolSize: Int = defaultPoolSize,
                statementTimeout: TimeInterval = defaultStatementTimeout, connectTimeout: TimeInterval = defaultConnectTimeout) {
        self.url = url
        self.password = password
        self.poolSize = poolSize
        self.statementTimeout = statementTimeout
        self.connectTimeout = connectTimeout
    }

    /// libpq's keywords: our defaults first, so the URL's own settings (and a password in it) win; the URL last.
    var keywords: [(String, String)] {
        var keywords = [("connect_timeout", String(max(1, Int(connectTimeout.rounded(.up))))),
                        ("options", "-c statement_timeout=\(Int(statementTimeout * 1000))"),
                        ("application_name", "frontdoor")]
        if let password { keywords.append(("password", password)) }
        keywords.append(("dbname", url))
        return keywords
    }
}

/// A PostgreSQL database: a pool of libpq connections shared by every thread of the process.
public final class PostgresBackend: StorageBackend, @unchecked Sendable {
    let settings: PostgresSettings
    private let pool: Locked<Pool>

    public var dialect: SQLDialect { .postgresql }

    private struct Pool {
        var idle: [PostgresConnection] = []
        var open = 0
    }

    /// Makes the pool and opens one connection, so a wrong URL, password or server fails here, not on a request.
    public init(settings: PostgresSettings) throws {
        self.settings = settings
        pool = Locked(Pool())
        let first = try PostgresConnection(keywords: settings.keywords)
        pool.withLock { $0.idle.append(first); $0.open = 1 }
    }

    public func read<T>(_ body: (Transaction) throws -> T) throws -> T {
        try transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    public func write<T>(_ body: (Transaction) throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try transaction(begin: "BEGIN", body)
            } catch StorageError.conflict(let detail) {
                guard attempt < 5 else { throw StorageError.conflict(detail) }
                attempt += 1
                usleep(UInt32.random(in: 1_000...(10_000 * UInt32(attempt))))   // let the other writer finish
            }
        }
    }

    public func findBrowserSession(digest: Data) throws -> SessionRow? {
        try withConnection { connection in
            try connection.run(SessionLookup.sql, [digest]).rows.first.map { row in
                SessionRow(accountId: try row.decode("accountId"), email: try row.decode("address"), createdAt: try row.decode("createdAt"),
                           lastSeenAt: try row.decode("lastSeenAt"), expiresAt: try row.decode("expiresAt"), rememberMe: try row.decode("rememberMe"))
            }
        }
    }

    public var knownMigrations: [String] { PostgresMigrations.all.map(\.name) }

    public func appliedMigrations() throws -> [String] {
        try withConnection { connection in
            try connection.simple(PostgresMigrations.createTable)
            return try connection.run("SELECT identifier FROM schemaMigration ORDER BY appliedAt, identifier", []).rows.compactMap { $0.first() }
        }
    }

    /// Applies each pending migration in its own transaction, holding an advisory lock so two hosts starting at once
    /// migrate one after the other.
    public func migrate() throws {
        _ = try appliedMigrations()   // creates the bookkeeping table
        for migration in PostgresMigrations.all {
            try write { tx in
                try tx.execute("SELECT pg_advisory_xact_lock(?)", [PostgresMigrations.lockKey])
                guard try tx.value(Int.self, "SELECT COUNT(*) FROM schemaMigration WHERE identifier = ?", [migration.name]) == 0 else { return }
                for statement in migration.statements { try tx.execute(statement) }
                try tx.execute("INSERT INTO schemaMigration (identifier, appliedAt) VALUES (?, ?)",
                               [migration.name, Date().timeIntervalSince1970])
            }
        }
    }

    /// Runs `body` in a transaction opened with `begin` on a pooled connection.
    private func transaction<T>(begin: String, _ body: (Transaction) throws -> T) throws -> T {
        var begun = false
        return try withConnection(retryingWhile: { !begun }) { connection in
            try connection.simple(begin)
            begun = true
            do {
                let result = try body(Transaction(connection: PostgresTransaction(connection: connection), dialect: .postgresql))
                try connection.simple("COMMIT")
                return result
            } catch {
                if connection.isHealthy { try? connection.simple("ROLLBACK") }
                throw error
            }
        }
    }

    /// Runs `body` with a connection from the pool. When the connection turns out dead (the server restarted) and
    /// `retryingWhile()` says nothing was sent that could have taken effect, the idle ones are dropped too (they died
    /// with it) and `body` runs once more on a new connection.
    private func withConnection<T>(retryingWhile safe: () -> Bool = { true }, _ body: (PostgresConnection) throws -> T) throws -> T {
        var retried = false
        while true {
            let connection = try checkout()
            do {
                let result = try body(connection)
                checkin(connection)
                return result
            } catch {
                let healthy = connection.isHealthy
                checkin(connection)
                guard !healthy, !retried, safe() else { throw error }
                retried = true
                pool.change { $0.open -= $0.idle.count; $0.idle.removeAll() }
            }
        }
    }

    private func checkout() throws -> PostgresConnection {
        let taken: PostgresConnection?? = pool.withLock(waitingUntil: { !$0.idle.isEmpty || $0.open < settings.poolSize },
                                                        timeout: settings.connectTimeout) { state in
            if let idle = state.idle.popLast() { return idle }
            state.open += 1
            return nil
        }
        guard let taken else { throw StorageError.unavailable("postgresql: all \(settings.poolSize) connections busy") }
        if let connection = taken { return connection }
        do {
            return try PostgresConnection(keywords: settings.keywords)
        } catch {
            pool.change { $0.open -= 1 }
            throw error
        }
    }

    private func checkin(_ connection: PostgresConnection) {
        pool.change { state in
            if connection.isHealthy { state.idle.append(connection) } else { state.open -= 1 }
        }
    }
}

/// A pooled connection inside a transaction, as the seam's `SQLConnection`.
struct PostgresTransaction: SQLConnection {
    let connection: PostgresConnection

    func query(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRow] {
        try connection.run(sql, arguments).rows
    }

    func execute(_ sql: String, _ arguments: SQLArguments) throws -> Int {
        try connection.run(sql, arguments).changed
    }

    func savepoint<T>(_ body: () throws -> T) throws -> T {
        try connection.simple("SAVEPOINT seam")
        do {
            let result = try body()
            try connection.simple("RELEASE SAVEPOINT seam")
            return result
        } catch {
            if connection.isHealthy { try? connection.simple("ROLLBACK TO SAVEPOINT seam") }
            throw error
        }
    }
}
