// PostgresBackend.swift: PostgreSQL under the storage seam, through libpq, for operators who outgrow one host.
//
// Options (config section `database`, read in AppConfiguration):
//   url                 postgresql://user@host:port/db?sslmode=verify-full (any libpq URL or conninfo)
//   password_file       the role's password, read once at start (or FRONTDOOR_DATABASE_PASSWORD); never argv or logs
//   pool_size           connections per process (PostgresPool: first come, first served)
//   pool_wait           how long a request waits for a free connection before it is answered 503
//   gate_reserve        connections only the gate's session lookup may take
//   statement_timeout   the longest one statement may run before the server cancels it
//   connect_timeout     how long to wait for the server to answer a new connection
//   session_cache_max_age, session_cache_size   the host's cache of session lookups (SessionCache.swift): serve
//                       turns it on; with it, one more connection LISTENs. Defaults: PostgresSettings (see the key table)
// Transactions: reads are REPEATABLE READ READ ONLY (one snapshot, like SQLite's); writes are READ COMMITTED, said
// at each BEGIN (a server default of REPEATABLE READ would take the snapshot before `serialize(on:)`'s lock), and
// each rule that needs one winner holds by a unique index, a conditional UPDATE, or `Transaction.serialize(on:)`
// (an advisory lock). A deadlock or serialization failure runs the write again (up to 5 times). A connection the
// server dropped (restart, failover) is replaced on the next use; nobody restarts Frontdoor. Every connection pins the
// session settings the text protocol reads by (UTF-8, hex bytea, floats to the last digit), whatever the server,
// database or role default. A touch (`touchSession`) is one statement on a connection free at once, or skipped.
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
    /// How long a request waits for a pooled connection before `StorageError.unavailable`.
    public var poolWait: TimeInterval = defaultPoolWait
    /// Connections only the gate's session lookup may take (at most `poolSize` − 1 count).
    public var gateReserve: Int = defaultGateReserve
    /// How old a cached session lookup may get; 0 (what commands and tests use) keeps no cache and no listener.
    public var sessionCacheMaxAge: TimeInterval
    public var sessionCacheSize: Int
    /// How often the listener checks that its connection still carries notifications (PostgresListener).
    public var listenerHeartbeat: TimeInterval = defaultListenerHeartbeat

    public static let defaultPoolSize = 10
    public static let defaultStatementTimeout: TimeInterval = 5
    public static let defaultConnectTimeout: TimeInterval = 5
    /// A second: long enough for a burst to drain, short enough that an overloaded host answers 503 at once.
    public static let defaultPoolWait: TimeInterval = 1
    /// One: the lookup holds its connection for one round trip, so one answers a thousand and more lookups a second.
    public static let defaultGateReserve = 1
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
    /// own (a search path, a work_mem) followed by the statement timeout and the settings rows are read by, which no
    /// URL may drop or change (the last `-c` of a setting counts), and the client encoding.
    var keywords: [(String, String)] {
        let pinned = "-c statement_timeout=\(Int(statementTimeout * 1000)) " + Self.pinnedOptions
        var keywords = [("connect_timeout", String(max(1, Int(connectTimeout.rounded(.up))))),
                        ("options", pinned),
                        ("application_name", "frontdoor")]
        if let password { keywords.append(("password", password)) }
        keywords.append(("dbname", url))
        let own = Self.urlOptions(url)
        keywords.append(("options", own.isEmpty ? pinned : own + " " + pinned))
        keywords.append(("client_encoding", "UTF8"))
        return keywords
    }

    /// What PostgresConnection's text decoding assumes: bytea as hex, and floats (times) to their last digit.
    static let pinnedOptions = "-c bytea_output=hex -c extra_float_digits=3"

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
    /// The connections, handed out first come, first served.
    let pool: PostgresPool
    /// Statements sent to the server, for `/metrics`.
    let roundTrips = Tally()
    /// Writes run again after a conflict, for `/metrics` (a counter like round trips).
    let retries = Tally()
    /// This host's session lookups and the listener that keeps them current (nil when the cache is off).
    let sessionCache: SessionCache?
    private let listener: PostgresListener?

    public var dialect: SQLDialect { .postgresql }

    /// Makes the pool and opens one connection, so a wrong URL, password or server fails here, not on a request.
    public init(settings: PostgresSettings) throws {
        self.settings = settings
        let roundTrips = roundTrips
        pool = PostgresPool(limits: .init(size: settings.poolSize, wait: settings.poolWait, gateReserve: settings.gateReserve),
                            first: try PostgresConnection(keywords: settings.keywords, roundTrips: roundTrips),
                            connect: { try PostgresConnection(keywords: settings.keywords, roundTrips: roundTrips) })
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
        var figures = StorageFigures(roundTrips: roundTrips.count, retries: retries.count)
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
                return try transaction(begin: "BEGIN ISOLATION LEVEL READ COMMITTED", body)
            } catch StorageError.conflict(let detail) {
                guard attempt < 5 else { throw StorageError.conflict(detail) }
                attempt += 1
                retries.add()
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

    /// One prepared SELECT on a pooled connection (the reserve kept for the gate too), outside any transaction.
    private func fetchBrowserSession(digest: Data) throws -> SessionInfo? {
        try withConnection(claiming: .gate) { connection in
            try connection.run(SessionLookup.sql(.postgresql), [digest]).rows.first.map { try SessionInfo(lookupRow: $0, digest: digest) }
        }
    }

    /// The touch as one autocommit statement, only on a connection free this instant (never waiting, never connecting)
    /// and only when no other transaction holds the row: a request must not queue for a write that can wait a minute.
    public func touchSession(digest: Data, at now: Date, staleBefore: Date) throws -> Bool {
        guard let connection = pool.checkoutIfFree(.ordinary) else { return false }
        defer { pool.checkin(connection, .ordinary) }
        let arguments = Transaction.touchSessionArguments(digest: digest, at: now, staleBefore: staleBefore)
        _ = try connection.run(Transaction.touchSessionSkippingLockedSQL, arguments)
        sessionCache?.touched(digest, lastSeenAt: now.timeIntervalSince1970)
        return true
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
                // A body that let a failed statement pass (try?) left an aborted transaction, whose COMMIT rolls back
                // without an error: the caller must not hear that it committed (least of all a CommittedFailure).
                guard !connection.transactionFailed else {
                    throw StorageError.failed("postgresql: the transaction was aborted by an earlier statement; nothing was committed")
                }
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
    /// `retryingWhile()` says nothing was sent that could have taken effect, `body` runs once more on another; only
    /// the dead one is dropped (the pool finds any other the server closed before handing it out).
    func withConnection<T>(retryingWhile safe: () -> Bool = { true }, _ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnection(claiming: .ordinary, retryingWhile: safe, body)
    }

    private func withConnection<T>(claiming claim: PoolClaim, retryingWhile safe: () -> Bool = { true },
                                   _ body: (PostgresConnection) throws -> T) throws -> T {
        var retried = false
        while true {
            let connection = try pool.checkout(claim)
            do {
                let result = try body(connection)
                pool.checkin(connection, claim)
                return result
            } catch {
                let healthy = connection.isHealthy
                pool.checkin(connection, claim)
                guard !healthy, !retried, safe() else { throw error }
                retried = true
            }
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
