// PostgresBackend.swift: PostgreSQL under the storage seam, through libpq, for operators who outgrow one host.
//
// Options (config section `database`, read in AppConfiguration):
//   url                 postgresql://user@host:port/db?sslmode=verify-full (any libpq URL or conninfo)
//   password_file       the role's password, read once at start (or FRONTDOOR_DATABASE_PASSWORD); never argv or logs
//   pool_size           connections per process; a request waits up to connect_timeout for one
//   statement_timeout   the longest one statement may run before the server cancels it
//   connect_timeout     how long to wait for the server or a free connection
//   session_cache_max_age, session_cache_size   the host's cache of session lookups (SessionCache.swift): serve
//                       turns it on; with it, one more connection LISTENs. Defaults: PostgresSettings (see the key table)
// Transactions: reads are REPEATABLE READ READ ONLY (one snapshot, like SQLite's); writes are READ COMMITTED, and
// each rule that needs one winner holds by a unique index, a conditional UPDATE, or `Transaction.serialize(on:)`
// (an advisory lock). A deadlock or serialization failure runs the write again (up to 5 times). A connection the
// server dropped (restart, failover) is replaced on the next use; nobody restarts Frontdoor.
import CLibPQ
import Foundation
import Locking

/// How to reach the server and how patient to be.
public struct PostgresSettings: Sendable, Equatable {
    public var url: String
    public var password: String?
    public var poolSize: Int
    public var statementTimeout: TimeInterval
    public var connectTimeout: TimeInterval
    /// How old a cached session lookup may get; 0 (what commands and tests use) keeps no cache and no listener.
    public var sessionCacheMaxAge: TimeInterval
    public var sessionCacheSize: Int
    /// How often the listener checks that its connection still carries notifications (PostgresListener).
    public var listenerHeartbeat: TimeInterval = defaultListenerHeartbeat

    public static let defaultPoolSize = 10
    public static let defaultStatementTimeout: TimeInterval = 5
    public static let defaultConnectTimeout: TimeInterval = 5
    /// What `frontdoor serve` uses unless configured (the config key table reads these).
    public static let defaultSessionCacheMaxAge: TimeInterval = 10
    public static let defaultSessionCacheSize = 100_000
    public static let defaultListenerHeartbeat: TimeInterval = 5

    public init(url: String, password: String? = nil, poolSize: Int = defaultPoolSize,
                statementTimeout: TimeInterval = defaultStatementTimeout, connectTimeout: TimeInterval = defaultConnectTimeout,
                sessionCacheMaxAge: TimeInterval = 0, sessionCacheSize: Int = defaultSessionCacheSize) {
        self.url = url
        self.password = password
        self.poolSize = poolSize
        self.statementTimeout = statementTimeout
        self.connectTimeout = connectTimeout
        self.sessionCacheMaxAge = sessionCacheMaxAge
        self.sessionCacheSize = sessionCacheSize
    }

    /// libpq's keywords: our defaults first, so the URL's own settings win; the URL; then `options` again, the URL's
    /// own (a search path, a work_mem) followed by the statement timeout, which no URL may drop or loosen (the last
    /// `-c` of a setting counts).
    var keywords: [(String, String)] {
        let timeout = "-c statement_timeout=\(Int(statementTimeout * 1000))"
        var keywords = [("connect_timeout", String(max(1, Int(connectTimeout.rounded(.up))))),
                        ("options", timeout),
                        ("application_name", "frontdoor")]
        if let password { keywords.append(("password", password)) }
        keywords.append(("dbname", url))
        let own = Self.urlOptions(url)
        keywords.append(("options", own.isEmpty ? timeout : own + " " + timeout))
        return keywords
    }

    /// The `options` keyword of a libpq URL or conninfo string, as libpq reads it ("" when none or unreadable).
    static func urlOptions(_ url: String) -> String {
        guard let parsed = PQconninfoParse(url, nil) else { return "" }
        defer { PQconninfoFree(parsed) }
        var option = parsed
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "options", let value = option.pointee.val { return String(cString: value) }
            option += 1
        }
        return ""
    }
}

/// A PostgreSQL database: a pool of libpq connections shared by every thread of the process.
public final class PostgresBackend: StorageBackend, @unchecked Sendable {
    let settings: PostgresSettings
    private let pool: Locked<Pool>
    /// Statements sent to the server, for `/metrics`.
    let roundTrips = RoundTrips()
    /// This host's session lookups and the listener that keeps them current (nil when the cache is off).
    let sessionCache: SessionCache?
    private let listener: PostgresListener?

    public var dialect: SQLDialect { .postgresql }

    private struct Pool {
        var idle: [PostgresConnection] = []
        var open = 0
    }

    /// Makes the pool and opens one connection, so a wrong URL, password or server fails here, not on a request.
    public init(settings: PostgresSettings) throws {
        self.settings = settings
        pool = Locked(Pool())
        let first = try PostgresConnection(keywords: settings.keywords, roundTrips: roundTrips)
        pool.withLock { $0.idle.append(first); $0.open = 1 }
        if settings.sessionCacheMaxAge > 0 {
            let cache = SessionCache(settings: .init(maxAge: settings.sessionCacheMaxAge, capacity: max(1, settings.sessionCacheSize)))
            sessionCache = cache
            listener = PostgresListener(keywords: settings.keywords, cache: cache, heartbeat: settings.listenerHeartbeat)
        } else {
            sessionCache = nil
            listener = nil
        }
    }

    deinit { listener?.stop() }

    public var figures: StorageFigures? {
        var figures = StorageFigures(roundTrips: roundTrips.count)
        figures.sessionCache = sessionCache?.currentFigures
        return figures
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

    /// The session from this host's cache when it holds it, else from the server (and then kept when live).
    public func findBrowserSession(digest: Data) throws -> SessionInfo? {
        guard let sessionCache else { return try fetchBrowserSession(digest: digest) }
        let (cached, ticket) = sessionCache.lookup(digest)
        if let cached { return cached }
        let row = try fetchBrowserSession(digest: digest)
        if let row, let ticket { sessionCache.store(row, for: digest, ticket: ticket) }
        return row
    }

    /// One prepared SELECT on a pooled connection, outside any transaction.
    private func fetchBrowserSession(digest: Data) throws -> SessionInfo? {
        try withConnection { connection in
            try connection.run(SessionLookup.sql, [digest]).rows.first.map { try SessionInfo(lookupRow: $0, digest: digest) }
        }
    }

    /// Runs `body` in a transaction opened with `begin` on a pooled connection.
    private func transaction<T>(begin: String, _ body: (Transaction) throws -> T) throws -> T {
        var begun = false
        let changes = SessionChanges()
        // Whatever happened to the transaction, forget what it may have changed (a lost COMMIT may have committed).
        defer { if let sessionCache { changes.apply(to: sessionCache) } }
        return try withConnection(retryingWhile: { !begun }) { connection in
            try connection.simple(begin)
            begun = true
            do {
                let result = try body(Transaction(connection: PostgresTransaction(connection: connection, changes: changes),
                                                  dialect: .postgresql))
                try connection.simple("COMMIT")
                changes.committed = true
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
    func withConnection<T>(retryingWhile safe: () -> Bool = { true }, _ body: (PostgresConnection) throws -> T) throws -> T {
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
            return try PostgresConnection(keywords: settings.keywords, roundTrips: roundTrips)
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
    /// Sessions this transaction ended or changed, forgotten by this host's cache when it ends.
    let changes: SessionChanges

    func sessionsChanged(_ change: SessionChange) {
        changes.list.append(change)
    }

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
