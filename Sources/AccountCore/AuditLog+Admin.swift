// AuditLog+Admin.swift: the audit trail as the admin pages read it (`admin/audit`, `admin/audit/csv`): a page of rows
// with the addresses of the people and admins they name, and every matching row for a download, read in pages.
//
// Options: none. Why pages for the download: up to 100,000 rows read at once would hold one read transaction (and on
// PostgreSQL one result of that size in memory) for the whole time; pages of 1,000 by id (keyset: `id < last`, on the
// primary key) each cost the same however deep, where an OFFSET would read every row it skips. Rows added meanwhile
// have higher ids and are not taken; rows pruned meanwhile may be missing: a download is a reading, not a snapshot.
import Foundation

/// One page of the audit trail for the admin page.
public struct AuditPage: Sendable, Equatable {
    /// The rows, newest first.
    public var entries: [AuditEntry]
    /// Whether more rows match after these.
    public var hasMore: Bool
    /// The primary address of each account the rows name (as the person or as the admin who acted) that still exists.
    public var addresses: [Int64: String]
}

extension AuditLog {
    /// Rows matching `filter` (its `limit` and `offset` make the page), whether more follow, and the current primary
    /// addresses of the accounts they name.
    public func page(_ filter: AuditFilter) throws -> AuditPage {
        var ask = filter
        ask.limit = max(0, filter.limit) + 1
        return try database.read { tx in
            var entries = try tx.auditEntries(ask)
            let hasMore = entries.count > max(0, filter.limit)
            if hasMore { entries.removeLast() }
            let ids = Set(entries.compactMap(\.accountId) + entries.compactMap(\.actorId))
            return AuditPage(entries: entries, hasMore: hasMore, addresses: try tx.primaryAddresses(of: Array(ids)))
        }
    }

    /// Calls `body` with every row matching `filter` (its limit and offset ignored), newest first, at most `maximum`,
    /// read in pages of `pageSize` by id. Returns how many rows there were.
    @discardableResult
    public func forEach(_ filter: AuditFilter, maximum: Int = 100_000, pageSize: Int = 1000,
                        _ body: (AuditEntry) throws -> Void) throws -> Int {
        var ask = filter
        ask.offset = 0
        var count = 0
        while count < maximum {
            ask.limit = min(max(1, pageSize), maximum - count)
            let entries = try database.read { tx in try tx.auditEntries(ask) }
            for entry in entries { try body(entry) }
            count += entries.count
            guard entries.count == ask.limit, let last = entries.last else { break }
            ask.beforeId = last.id
        }
        return count
    }
}
