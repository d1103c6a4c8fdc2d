// PostgresConnection.swift: one libpq connection, used by one thread at a time (the pool hands it out).
//
// Options: what `PostgresSettings` gives (conninfo URL, password, statement timeout, connect timeout).
// Statements are written with `?` (Transaction.swift); they are numbered `$1…$n` here, prepared once per connection
// (PQprepare, named by a counter) and run with PQexecPrepared. Parameters go as text and let the server infer their
// types from the statement, except blobs, which go in binary. Results come back as text and are turned into the
// seam's values by column type: boolean → integer 0/1, so rows decode exactly as SQLite's do.
import CLibPQ
import Foundation
import Locking

/// A libpq connection with its prepared statements. Not thread-safe: one thread at a time.
final class PostgresConnection {
    private let handle: OpaquePointer
    private var prepared: [String: String] = [:]
    /// How many statements were ever prepared here (each gets a new name), and those left to deallocate.
    private var statementCount = 0
    private var stale: [String] = []
    /// Set when a statement failed without a SQLSTATE: libpq's own failure (the server closed the connection), which
    /// PQstatus does not always report at once.
    private var broken = false
    /// Counts every statement sent (shared by the pool's connections).
    private let roundTrips: Tally?

    /// Connects with libpq's keywords (`dbname` may be a `postgresql://` URL); throws `StorageError.unavailable` with
    /// libpq's one-line reason.
    init(keywords: [(String, String)], roundTrips: Tally? = nil) throws {
        self.roundTrips = roundTrips
        let names = keywords.map { strdup($0.0) } + [nil]
        let values = keywords.map { strdup($0.1) } + [nil]
        defer { (names + values).forEach { free($0) } }
        let connection = names.withUnsafeBufferPointer { namePointers in
            values.withUnsafeBufferPointer { valuePointers in
                namePointers.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: names.count) { n in
                    valuePointers.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: values.count) { v in
                        PQconnectdbParams(n, v, 1)
                    }
                }
            }
        }
        guard let connection else { throw StorageError.unavailable("postgresql: out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.oneLine(PQerrorMessage(connection))
            PQfinish(connection)
            throw StorageError.unavailable("postgresql: \(message)")
        }
        handle = connection
        // Notices (e.g. "there is no transaction in progress") would go to stderr; they are not errors.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// False once the server went away (a restart, a network fault): the pool drops such a connection.
    var isHealthy: Bool { !broken && PQstatus(handle) == CONNECTION_OK }

    /// Whether the pool may hand this connection out again: healthy, outside any transaction (a failed ROLLBACK can leave
    /// one open), and with nothing to read: on a connection that sent no statement, anything the server says is its
    /// goodbye (a terminated backend, a shutdown), so the pool drops it rather than fail the next request on it.
    var isReusable: Bool {
        guard isHealthy, PQtransactionStatus(handle) == PQTRANS_IDLE else { return false }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        return descriptor.fd >= 0 && poll(&descriptor, 1, 0) == 0
    }

    /// Whether the open transaction was aborted by a failed statement: its COMMIT would answer ROLLBACK, not an error.
    var transactionFailed: Bool { PQtransactionStatus(handle) == PQTRANS_INERROR }

    /// Runs a statement without parameters or preparation (BEGIN, COMMIT, SAVEPOINT …).
    func simple(_ sql: String) throws {
        roundTrips?.add()
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Sends `sql` without waiting for its answer (the listener's heartbeat); `notifications` reads the answer away.
    /// Throws `StorageError.unavailable` when it cannot be sent.
    func send(_ sql: String) throws {
        guard PQsendQuery(handle, sql) == 1 else {
            broken = true
            throw StorageError.unavailable("postgresql: \(Self.oneLine(PQerrorMessage(handle)))")
        }
        _ = PQflush(handle)
    }

    /// The payloads of the notifications that arrived (LISTEN), waiting up to `seconds` for the first; throws
    /// `StorageError.unavailable` when the connection is lost. The answers of statements `send` sent are read away.
    func notifications(waitingUpTo seconds: Double) throws -> [String] {
        var payloads = drainNotifications()
        guard payloads.isEmpty else { return payloads }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard descriptor.fd >= 0 else { broken = true; throw StorageError.unavailable("postgresql: listener connection lost") }
        if poll(&descriptor, 1, Int32(seconds * 1000)) > 0 {
            guard PQconsumeInput(handle) == 1, isHealthy else {
                broken = true
                throw StorageError.unavailable("postgresql: \(Self.oneLine(PQerrorMessage(handle)))")
            }
            while PQisBusy(handle) == 0, let result = PQgetResult(handle) { PQclear(result) }
            payloads = drainNotifications()
        }
        return payloads
    }

    private func drainNotifications() -> [String] {
        var payloads: [String] = []
        while let notice = PQnotifies(handle) {
            payloads.append(String(cString: notice.pointee.extra))
            PQfreemem(notice)
        }
        return payloads
    }

    /// Runs `sql` (`?` parameters) with `arguments`; returns its rows and the number of rows it changed.
    ///
    /// A statement prepared before a migration changed a table it reads can fail with 0A000 ("cached plan must not
    /// change result type"; the columns are named everywhere, so only a changed column type does that, which a migration
    /// must not do under running hosts). Its name is dropped and it is prepared again: at once and run once more when no
    /// transaction is open, else on the transaction's next attempt (the error aborted it; the seam hears a conflict,
    /// and a write runs again).
    func run(_ sql: String, _ arguments: SQLArguments) throws -> (rows: [SQLRow], changed: Int) {
        do {
            return try runPrepared(sql, arguments)
        } catch StalePlan.idle {
            return try runPrepared(sql, arguments)
        } catch StalePlan.inTransaction(let detail) {
            throw StorageError.conflict(detail)
        }
    }

    private func runPrepared(_ sql: String, _ arguments: SQLArguments) throws -> (rows: [SQLRow], changed: Int) {
        let (name, new) = try statementName(for: sql, parameterCount: arguments.values.count)
        roundTrips?.add()
        var buffers: [Data?] = arguments.values.map(Self.parameterBytes)
        let formats: [Int32] = arguments.values.map { if case .blob = $0 { 1 } else { 0 } }
        var lengths: [Int32] = buffers.map { Int32($0?.count ?? 0) }
        let result: OpaquePointer? = withParameterPointers(&buffers) { pointers in
            PQexecPrepared(handle, name, Int32(pointers.count), pointers, &lengths, formats, 0)
        }
        defer { PQclear(result) }
        if !new, let result, PQresultStatus(result) == PGRES_FATAL_ERROR,
           PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map({ String(cString: $0) }) == "0A000" {
            prepared[sql] = nil
            let detail = "postgresql 0A000: \(Self.oneLine(PQresultErrorMessage(result)))"
            guard PQtransactionStatus(handle) == PQTRANS_IDLE else {
                stale.append(name)
                throw StalePlan.inTransaction(detail)
            }
            try simple("DEALLOCATE \(name)")
            throw StalePlan.idle
        }
        try check(result, sql: sql)
        return (Self.rows(of: result!), Int(String(cString: PQcmdTuples(result))) ?? 0)
    }

    /// The prepared statement for `sql` (and whether it was prepared just now), preparing it on first use. Statements
    /// left stale by an aborted transaction are deallocated first.
    private func statementName(for sql: String, parameterCount: Int) throws -> (String, Bool) {
        if let name = prepared[sql] { return (name, false) }
        if !stale.isEmpty, PQtransactionStatus(handle) != PQTRANS_INERROR {
            for name in stale { try simple("DEALLOCATE \(name)") }
            stale.removeAll()
        }
        statementCount += 1
        let name = "s\(statementCount)"
        let numbered = Self.numbered(sql)
        roundTrips?.add()
        let result = PQprepare(handle, name, numbered, 0, nil)
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared[sql] = name
        return (name, true)
    }

    /// Throws the seam's error for a failed result (or a lost connection).
    private func check(_ result: OpaquePointer?, sql: String) throws {
        guard let result else {
            broken = true
            throw StorageError.unavailable("postgresql: \(Self.oneLine(PQerrorMessage(handle)))")
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default: break
        }
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        let message = Self.oneLine(PQresultErrorMessage(result))
        if state.isEmpty { broken = true }   // no SQLSTATE: the connection failed, not the statement
        throw PostgresError(sqlState: state, message: message, connectionLost: !isHealthy).storageError
    }

    /// `sql` with its `?` placeholders numbered `$1…$n` (quoted text and identifiers left alone).
    static func numbered(_ sql: String) -> String {
        var output = ""
        var count = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                output.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                output.append(character)
            } else if character == "?" {
                count += 1
                output += "$\(count)"
            } else {
                output.append(character)
            }
        }
        return output
    }

    /// A parameter's bytes: text for numbers and strings, raw bytes for blobs (sent in binary), nil for NULL.
    private static func parameterBytes(_ value: SQLValue) -> Data? {
        switch value {
        case .null: nil
        case .integer(let number): Data(String(number).utf8)
        case .real(let number): Data("\(number)".utf8)
        case .text(let text): Data(text.utf8)
        case .blob(let data): data
        }
    }

    /// The rows of a successful result, each value turned into the seam's kind by its column type.
    private static func rows(of result: OpaquePointer) -> [SQLRow] {
        let columnCount = Int(PQnfields(result))
        let columns = SQLColumns((0..<columnCount).map { String(cString: PQfname(result, Int32($0))) })   // one name map per result set
        let types = (0..<columnCount).map { PQftype(result, Int32($0)) }
        return (0..<Int(PQntuples(result))).map { row in
            SQLRow(columns: columns, values: (0..<columnCount).map { column in
                guard PQgetisnull(result, Int32(row), Int32(column)) == 0 else { return .null }
                let text = String(cString: PQgetvalue(result, Int32(row), Int32(column)))
                return value(text, type: types[column])
            })
        }
    }

    /// A column's text as the seam's value, by PostgreSQL type oid (pg_type.dat).
    static func value(_ text: String, type: Oid) -> SQLValue {
        switch type {
        case 16: return .integer(text == "t" ? 1 : 0)                          // boolean
        case 20, 21, 23, 26: return Int64(text).map(SQLValue.integer) ?? .text(text)   // int8, int2, int4, oid
        case 700, 701: return Double(text).map(SQLValue.real) ?? .text(text)  // float4, float8
        case 1700: return Int64(text).map(SQLValue.integer) ?? Double(text).map(SQLValue.real) ?? .text(text)   // numeric
        case 17: return .blob(hexBytea(text))                                  // bytea, hex output
        default: return .text(text)
        }
    }

    /// Decodes bytea's hex output (`\x0a1b…`).
    static func hexBytea(_ text: String) -> Data {
        var bytes = Data()
        var utf8 = text.utf8.dropFirst(2).makeIterator()
        func nibble(_ c: UInt8) -> UInt8 { c <= 57 ? c - 48 : (c | 0x20) - 87 }
        while let high = utf8.next(), let low = utf8.next() { bytes.append(nibble(high) << 4 | nibble(low)) }
        return bytes
    }

    static func oneLine(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown error" }
        return String(cString: message).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }
}

/// Calls `body` with C pointers to each buffer's bytes, NUL-terminated (NULL for nil), valid for the call.
private func withParameterPointers<R>(_ buffers: inout [Data?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    var pointers: [UnsafePointer<CChar>?] = []
    var copies: [UnsafeMutablePointer<CChar>] = []
    defer { copies.forEach { $0.deallocate() } }
    for buffer in buffers {
        guard let buffer else { pointers.append(nil); continue }
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: buffer.count + 1)
        buffer.withUnsafeBytes { raw in
            if let base = raw.baseAddress { copy.update(from: base.assumingMemoryBound(to: CChar.self), count: buffer.count) }
        }
        copy[buffer.count] = 0   // text parameters are read up to their NUL; binary ones by length
        copies.append(copy)
        pointers.append(UnsafePointer(copy))
    }
    return body(pointers)
}

/// A prepared statement whose result columns changed under it (0A000), dropped: prepare it again now (`idle`), or
/// let the aborted transaction run again.
private enum StalePlan: Error {
    case idle
    case inTransaction(String)
}

/// A count the threads of the process add to (statements sent to the server, writes run again), for `/metrics`.
final class Tally: Sendable {
    private let value = Locked(0)

    func add() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// A failed statement: its SQLSTATE class decides what the seam hears.
struct PostgresError: Error {
    let sqlState: String
    let message: String
    let connectionLost: Bool

    var storageError: StorageError {
        let detail = "postgresql \(sqlState): \(message)"
        if connectionLost { return .unavailable(detail) }
        switch sqlState {
        case "23505": return .uniqueViolation(detail)
        case _ where sqlState.hasPrefix("23"), "P0001": return .constraint(detail)
        case "40001", "40P01": return .conflict(detail)
        // connection exceptions, shutdown/restart, out of resources, read-only, statement/lock timeout, too many connections
        case _ where sqlState.hasPrefix("08") || sqlState.hasPrefix("53") || sqlState.hasPrefix("57P"): return .unavailable(detail)
        case "25006", "57014", "55P03": return .unavailable(detail)
        default: return .failed(detail)
        }
    }
}
