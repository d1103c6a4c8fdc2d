// AuditStore.swift: the store operations on the audit trail (`audit`, and `auditCount`, what pruning took of each
// event, kept beside it), and the retention deletes that prune old rows (audit rows, delivered mail).
//
// Options: none; retention ages are the caller's (RetentionPolicy). Times are seconds since 1970.
// The triggers that keep `auditCount` (on delete: the pruner's transaction, never a request's) and
// `account.lastSignInAt` belong to the backend's migrations (v14-audit-totals-at-prune).
import Foundation

extension Transaction {
    // MARK: Audit trail

    /// Appends one audit row at `at`; `detail` is cut to 500 characters.
    func insertAudit(_ event: AuditEvent, accountId: Int64?, email: String?, client: ClientInfo, detail: String, at: Date) throws {
        try execute("""
            INSERT INTO audit (createdAt, event, accountId, email, remoteAddress, addressGroup, userAgent, detail, actorId)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [at.timeIntervalSince1970, event.rawValue, accountId, email, client.remoteAddress, client.addressGroup,
                  client.userAgent, String(detail.prefix(500)), client.actorId])
    }

    /// The audit rows matching `filter`, newest first, at most `filter.limit` after skipping `filter.offset`.
    func auditEntries(_ filter: AuditFilter) throws -> [AuditEntry] {
        var conditions: [String] = []
        var arguments: [(any SQLBindable)?] = []
        if filter.accountOrEmail, let accountId = filter.accountId, let email = filter.email {
            conditions.append("(accountId = ? OR lower(email) = lower(?))"); arguments += [accountId, email]
        } else {
            if let accountId = filter.accountId { conditions.append("accountId = ?"); arguments.append(accountId) }
            if let email = filter.email { conditions.append("lower(email) = lower(?)"); arguments.append(email) }
        }
        if let beforeId = filter.beforeId { conditions.append("id < ?"); arguments.append(beforeId) }
        if let event = filter.event { conditions.append("event = ?"); arguments.append(event.rawValue) }
        if let address = filter.remoteAddress { conditions.append("remoteAddress = ?"); arguments.append(address) }
        if let actorId = filter.actorId { conditions.append("actorId = ?"); arguments.append(actorId) }
        if let since = filter.since { conditions.append("createdAt >= ?"); arguments.append(since.timeIntervalSince1970) }
        if let until = filter.until { conditions.append("createdAt < ?"); arguments.append(until.timeIntervalSince1970) }
        let clause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        arguments += [max(0, filter.limit), max(0, filter.offset)]
        return try rows("""
            SELECT id, createdAt, event, accountId, email, remoteAddress, userAgent, detail, actorId FROM audit \(clause)
            ORDER BY id DESC LIMIT ? OFFSET ?
            """, SQLArguments(arguments)).map { row in
            AuditEntry(id: try row.decode("id"), createdAt: try row.decode("createdAt"), event: try row.decode("event"),
                       accountId: row["accountId"] as Int64?, email: row["email"] as String?,
                       remoteAddress: try row.decode("remoteAddress"), userAgent: try row.decode("userAgent"),
                       detail: try row.decode("detail"), actorId: row["actorId"] as Int64?)
        }
    }

    /// The totals of `events` since the trail began (events never recorded left out): what pruning took, read by key
    /// from `auditCount`, plus the rows still there, counted on the index `audit_event` (index entries only: one per
    /// row kept, so a read costs in proportion to `retention.audit`).
    func auditTotals(of events: [AuditEvent]) throws -> [String: Int] {
        guard !events.isEmpty else { return [:] }
        var totals: [String: Int] = [:]
        let names = SQLArguments(events.map(\.rawValue))
        for sql in [Self.auditTotalsSQL(events.count), Self.auditRowCountsSQL(events.count)] {
            for row in try rows(sql, names) {
                totals[try row.decode("event"), default: 0] += try row.decode("total") as Int
            }
        }
        return totals.filter { $0.value > 0 }
    }

    /// What pruning took of `count` events (at least one), by key.
    static func auditTotalsSQL(_ count: Int) -> String {
        "SELECT event, total FROM auditCount WHERE event IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))"
    }

    /// The rows still there of `count` events (at least one).
    static func auditRowCountsSQL(_ count: Int) -> String {
        "SELECT event, COUNT(*) AS total FROM audit WHERE event IN (\(Array(repeating: "?", count: count).joined(separator: ", "))) GROUP BY event"
    }

    // MARK: Retention

    /// Deletes one batch of `kind`'s rows from before `cutoff` (at most `limit`, the oldest first); returns how many went.
    func pruneBatch(_ kind: Retention.Kind, before cutoff: Date, limit: Int) throws -> Int {
        try execute(Self.pruneBatchSQL(kind), [cutoff.timeIntervalSince1970, limit])
    }

    /// One batch's statement (parameters: the cutoff, the batch size): the oldest matching rows, found through an index
    /// (`audit_on_createdAt`, `mailQueue_due`), never by scanning the table. Unsent mail (`sentAt` NULL) never matches.
    static func pruneBatchSQL(_ kind: Retention.Kind) -> String {
        switch kind {
        case .audit:
            "DELETE FROM audit WHERE id IN (SELECT id FROM audit WHERE createdAt < ? ORDER BY createdAt LIMIT ?)"
        case .sentMail:
            "DELETE FROM mailQueue WHERE id IN (SELECT id FROM mailQueue WHERE sentAt < ? ORDER BY sentAt LIMIT ?)"
        }
    }
}
