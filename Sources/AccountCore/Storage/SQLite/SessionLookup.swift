// SessionLookup.swift: the hot path's one SELECT (a session by its digest) on a read-only SQLite connection per thread.
//
// Options: none. Why not GRDB's pool here: a pool read costs ~70k instructions of connection checkout, dispatch
// hop and BEGIN/COMMIT around a 10k-instruction lookup (measured with callgrind; ../shared/reference/grdb-fuzz-tsan.md).
// Each thread keeps its own connection (opened on first use, closed when the thread ends) and one prepared
// statement; each step is an autocommit read of the latest committed data (WAL), so a sign-out or revocation
// by any process is seen by the next request. Writes never go through here.
import Foundation
import GRDBSQLite

/// An SQLite failure of the lookup (opening the file, preparing or stepping the statement).
struct SessionLookupError: Error, CustomStringConvertible {
    let description: String
}

/// Per-thread read-only connections to the database file at `path`, each with the lookup statement prepared.
final class SessionLookup: @unchecked Sendable {
    /// The lookup in `dialect`: the session (with how many factors proved it), its account's primary address, the
    /// account's username and display name, and its group names joined by commas (NULL for none; names never hold a comma, GroupName). One statement, so
    /// PostgreSQL answers in one round trip; SQLite 3.40 has no `string_agg` and PostgreSQL no `group_concat`, and
    /// neither orders within them there, so the names are sorted when read (`SessionInfo.groups`). A subquery costs
    /// ~6 µs more per lookup on SQLite with 3 groups, a second query ~16 µs (measured; see docs/groups.md).
    /// Written once per dialect: the PostgreSQL gate runs it on every cache miss, keyed by its text.
    static func sql(_ dialect: SQLDialect) -> String { dialect == .sqlite ? sqliteSQL : postgresqlSQL }
    private static let sqliteSQL = lookupSQL(groupNames: "group_concat(g.name, ',')")
    private static let postgresqlSQL = lookupSQL(groupNames: "string_agg(g.name, ',')")

    private static func lookupSQL(groupNames names: String) -> String {
        """
            SELECT s.accountId, e.address, s.createdAt, s.lastSeenAt, s.expiresAt, s.rememberMe, e.verifiedAt IS NOT NULL AS verified,
                (SELECT \(names) FROM groupMember m JOIN accountGroup g ON g.id = m.groupId WHERE m.accountId = s.accountId) AS groupNames,
                a.username, a.displayName, s.factors
            FROM session s JOIN emailAddress e ON e.accountId = s.accountId AND e.isPrimary JOIN account a ON a.id = s.accountId
            WHERE s.digest = ? AND s.kind = 'browser'
            """
    }
    let path: String
    private var key = pthread_key_t()

    init(path: String) {
        self.path = path
        // The destructor runs when a thread that used a connection ends: it closes that connection.
        pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<ThreadConnection>.fromOpaque(raw).release()
        }
    }

    deinit { pthread_key_delete(key) }

    /// The session whose digest is `digest`, with its account's primary address (and whether it is verified), username and
    /// display name, or nil.
    func find(digest: Data) throws -> SessionInfo? {
        try connection().lookup(digest)
    }

    /// This thread's connection, opened on first use.
    private func connection() throws -> ThreadConnection {
        if let raw = pthread_getspecific(key) { return Unmanaged<ThreadConnection>.fromOpaque(raw).takeUnretainedValue() }
        let connection = try ThreadConnection(path: path, sql: Self.sql(.sqlite))
        pthread_setspecific(key, Unmanaged.passRetained(connection).toOpaque())
        return connection
    }
}

/// One thread's connection and prepared statement; never shared between threads.
private final class ThreadConnection {
    private let db: OpaquePointer
    private let statement: OpaquePointer

    init(path: String, sql: String) throws {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard opened == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SessionLookupError(description: "session lookup: cannot open \(path): \(message)")
        }
        sqlite3_busy_timeout(handle, 5000)
        // A small page cache per connection (there is one per worker thread): the lookup touches a few index pages,
        // and the operating system's cache holds the file anyway. 64 workers × 256 KiB at most.
        sqlite3_exec(handle, "PRAGMA cache_size = -256", nil, nil, nil)
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil) == SQLITE_OK, let prepared else {
            let message = String(cString: sqlite3_errmsg(handle))
            sqlite3_close_v2(handle)
            throw SessionLookupError(description: "session lookup: \(message)")
        }
        db = handle
        statement = prepared
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close_v2(db)
    }

    func lookup(_ digest: Data) throws -> SessionInfo? {
        defer { sqlite3_reset(statement) }
        let bound = digest.withUnsafeBytes { bytes in
            sqlite3_bind_blob(statement, 1, bytes.baseAddress, Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        guard bound == SQLITE_OK else { throw SessionLookupError(description: "session lookup: cannot bind the digest") }
        switch sqlite3_step(statement) {
        case SQLITE_ROW:
            let address = sqlite3_column_text(statement, 1).map { String(cString: $0) } ?? ""
            return SessionInfo(digest: digest, accountId: sqlite3_column_int64(statement, 0), email: address,
                               createdAt: Date(timeIntervalSince1970: sqlite3_column_double(statement, 2)),
                               lastSeenAt: Date(timeIntervalSince1970: sqlite3_column_double(statement, 3)),
                               expiresAt: Date(timeIntervalSince1970: sqlite3_column_double(statement, 4)),
                               rememberMe: sqlite3_column_int64(statement, 5) != 0,
                               emailVerified: sqlite3_column_int64(statement, 6) != 0,
                               username: sqlite3_column_text(statement, 8).map { String(cString: $0) } ?? "",
                               displayName: sqlite3_column_text(statement, 9).map { String(cString: $0) } ?? "",
                               groups: SessionInfo.groups(sqlite3_column_text(statement, 7).map { String(cString: $0) }),
                               factors: Int(sqlite3_column_int64(statement, 10)))
        case SQLITE_DONE:
            return nil
        default:
            throw SessionLookupError(description: "session lookup: \(String(cString: sqlite3_errmsg(db)))")
        }
    }
}
