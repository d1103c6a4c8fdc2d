// AuditLog.swift: the `audit` table: who did what, when, from where. Written in the same transaction as the change.
//
// Options: none here; rows older than `retention.audit` are pruned (see Retention). Rows are never updated; the table
// has no foreign key, so the trail outlives a deleted account. Triggers keep each event's total (`auditCount`) and each
// account's last sign-in (`account.lastSignInAt`) beside it, so neither is lost with pruned rows.
// The detail column holds the real reason of a failure (which the person never sees). Never a password or token.
import Foundation
import GRDB

/// What happened. The raw values are what the table, `frontdoor audit list --event` and metrics use.
public enum AuditEvent: String, Sendable, CaseIterable, Codable {
    case signUp = "sign_up"
    case signIn = "sign_in"
    case signInFailed = "sign_in_failed"
    case signOut = "sign_out"
    case lockout
    case addressBlocked = "address_blocked"
    case unlock
    case passwordChanged = "password_changed"
    case passwordReset = "password_reset"
    case emailConfirmed = "email_confirmed"
    case emailChanged = "email_changed"
    case accountCreated = "account_created"
    case accountDeleted = "account_deleted"
    case sessionRevoked = "session_revoked"
    case inviteCreated = "invite_created"
    case profileUpdated = "profile_updated"
    case emailAdded = "email_added"
    case emailRemoved = "email_removed"
    case reauthenticated
    case identityLinked = "identity_linked"
    case identityUnlinked = "identity_unlinked"
    case residenceRequested = "residence_requested"
    case residenceApproved = "residence_approved"
    case residenceRefused = "residence_refused"
}

/// One audit row.
public struct AuditEntry: Sendable, Equatable, Codable {
    public var id: Int64
    public var createdAt: Date
    public var event: String
    public var accountId: Int64?
    public var email: String?
    public var remoteAddress: String
    public var userAgent: String
    public var detail: String
}

/// Which audit rows to list; nil fields do not filter.
public struct AuditFilter: Sendable, Equatable {
    public var accountId: Int64?
    /// Matches the row's address, compared without case.
    public var email: String?
    public var event: AuditEvent?
    public var remoteAddress: String?
    public var since: Date?
    public var until: Date?
    /// Newest first, at most this many.
    public var limit: Int

    public init(accountId: Int64? = nil, email: String? = nil, event: AuditEvent? = nil, remoteAddress: String? = nil,
                since: Date? = nil, until: Date? = nil, limit: Int = 100) {
        self.accountId = accountId
        self.email = email
        self.event = event
        self.remoteAddress = remoteAddress
        self.since = since
        self.until = until
        self.limit = limit
    }
}

/// Writes and reads the audit trail.
public struct AuditLog: Sendable {
    let database: AppDatabase
    let clock: any Clock

    public init(database: AppDatabase, clock: any Clock) {
        self.database = database
        self.clock = clock
    }

    /// Records `event` inside the caller's transaction.
    func record(_ event: AuditEvent, accountId: Int64?, email: String?, client: ClientInfo, detail: String = "", in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO audit (createdAt, event, accountId, email, remoteAddress, addressGroup, userAgent, detail)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [clock.now().timeIntervalSince1970, event.rawValue, accountId, email,
                                     client.remoteAddress, client.addressGroup, client.userAgent, String(detail.prefix(500))])
    }

    /// Records `event` in a transaction of its own (for actions that change nothing else, such as sign-out).
    public func record(_ event: AuditEvent, accountId: Int64?, email: String?, client: ClientInfo, detail: String = "") throws {
        try database.writer.write { db in try record(event, accountId: accountId, email: email, client: client, detail: detail, in: db) }
    }

    /// Rows matching `filter`, newest first.
    public func list(_ filter: AuditFilter) throws -> [AuditEntry] {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let accountId = filter.accountId { conditions.append("accountId = ?"); arguments.append(accountId) }
        if let email = filter.email { conditions.append("email = ? COLLATE NOCASE"); arguments.append(email) }
        if let event = filter.event { conditions.append("event = ?"); arguments.append(event.rawValue) }
        if let address = filter.remoteAddress { conditions.append("remoteAddress = ?"); arguments.append(address) }
        if let since = filter.since { conditions.append("createdAt >= ?"); arguments.append(since.timeIntervalSince1970) }
        if let until = filter.until { conditions.append("createdAt < ?"); arguments.append(until.timeIntervalSince1970) }
        let clause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        arguments.append(max(0, filter.limit))
        return try database.writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, createdAt, event, accountId, email, remoteAddress, userAgent, detail FROM audit \(clause)
                ORDER BY id DESC LIMIT ?
                """, arguments: StatementArguments(arguments)).map { row in
                AuditEntry(id: row[0], createdAt: Date(timeIntervalSince1970: row[1]), event: row[2], accountId: row[3],
                           email: row[4], remoteAddress: row[5], userAgent: row[6], detail: row[7])
            }
        }
    }

    /// How many times each of `events` was recorded since the trail began (for metrics): event name → total, events
    /// never recorded left out. Read by key from `auditCount`, which a trigger keeps up on every insert and pruning
    /// leaves alone, so the totals never fall and a scrape never counts the table.
    public func counts(of events: [AuditEvent] = AuditEvent.allCases) throws -> [String: Int] {
        try database.writer.read { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: Self.countsSQL(events.count), arguments: StatementArguments(events.map(\.rawValue))) {
                counts[row[0]] = row[1]
            }
            return counts
        }
    }

    /// The statement `counts(of:)` runs for `count` events.
    static func countsSQL(_ count: Int) -> String {
        "SELECT event, total FROM auditCount WHERE event IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))"
    }
}
