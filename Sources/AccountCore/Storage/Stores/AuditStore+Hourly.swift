// AuditStore+Hourly.swift: audit rows of some events counted per UTC hour (the admin health page's charts).
//
// Options: none. One statement: the rows of the window found on the index `audit_event (event, createdAt)`, grouped
// by hour bucket (seconds since 1970 / 3600, rounded down). The rounding differs by backend: SQLite's CAST to INTEGER
// cuts toward zero (the same as down, times being positive) and has floor() only when built with its math functions;
// PostgreSQL's CAST rounds to the nearest, so it takes floor() first.
import Foundation

/// One hour's count of one event.
struct HourlyAuditCount: Sendable, Equatable {
    var event: String
    /// Hours since 1970 (UTC).
    var hour: Int64
    var count: Int
}

extension Transaction {
    /// The counts of `events` per hour bucket, for the `hours` buckets from `firstHour`; buckets without rows are absent.
    func hourlyAuditCounts(of events: [AuditEvent], firstHour: Int64, hours: Int) throws -> [HourlyAuditCount] {
        guard !events.isEmpty, hours > 0 else { return [] }
        let from = Double(firstHour) * 3600, until = Double(firstHour + Int64(hours)) * 3600
        let arguments: [(any SQLBindable)?] = events.map { $0.rawValue } + [from, until]
        return try rows(Self.hourlyAuditSQL(dialect, events: events.count), SQLArguments(arguments)).map { row in
            HourlyAuditCount(event: try row.decode("event"), hour: try row.decode("bucket"), count: try row.decode("total"))
        }
    }

    /// The statement for `events` event names (parameters: the names, then the window's start inclusive and end exclusive).
    static func hourlyAuditSQL(_ dialect: SQLDialect, events: Int) -> String {
        let bucket = dialect == .postgresql ? "CAST(floor(createdAt / 3600) AS bigint)" : "CAST(createdAt / 3600 AS INTEGER)"
        return """
            SELECT event, \(bucket) AS bucket, COUNT(*) AS total FROM audit
            WHERE event IN (\(Array(repeating: "?", count: events).joined(separator: ", "))) AND createdAt >= ? AND createdAt < ?
            GROUP BY event, \(bucket)
            """
    }
}
