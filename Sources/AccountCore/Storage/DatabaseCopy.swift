// DatabaseCopy.swift: `frontdoor db copy`'s engine: a whole Frontdoor database into an empty one, from either backend
// to either backend (SQLite → PostgreSQL and back), over the storage seam, keeping every id.
//
// Options (arguments of `run`): batchSize, rows per page read and per INSERT statement (default 1000; fewer when a
// table's columns would pass 30 000 parameters); progressEvery, a progress event per that many rows of one table
// (default 100 000).
// How it goes:
// - The source is read in ONE read transaction (one snapshot: SQLite's read transaction, PostgreSQL's REPEATABLE READ),
//   table by table in primary-key order, a page at a time (keyset, so memory holds one page, never a table).
// - The target is written in ONE write transaction: all or nothing. A copy that fails or is interrupted leaves the
//   target as empty as it was, so it can be run again, and the "target not empty" refusal never meets half a copy.
// - Before anything is written: both sides must hold exactly the tables of `tables` (the migrations' list; anything
//   else, e.g. a newer Frontdoor's table, is refused), with the same columns; every target table must be empty.
// - At the end, still inside that transaction, each table's count must equal the source's, else nothing is committed;
//   after the commit they are counted once more on a fresh read.
// - Audit triggers (account.lastSignInAt on insert; before v14 also auditCount on insert, since v14 auditCount on
//   delete, which a copy never does): paused on the target for the copy, inside its transaction (PostgreSQL: DISABLE
//   TRIGGER USER; SQLite: dropped and made again from their own text), so auditCount and lastSignInAt are copied as
//   they are, never counted twice, and a failed copy restores them with the rest.
//   (Not merely undone afterwards: on PostgreSQL a trigger bumping one auditCount row per copied audit row, all in
//   one transaction, grows that row's version chain with every row: 100 000 audit rows took minutes.)
// - Ids: each identity table's high-water mark (its highest id, or the source's sequence when higher: an id once given
//   is never given again, even after its row was deleted) is set on the target (PostgreSQL setval, SQLite
//   sqlite_sequence), so new rows get fresh ids. (PostgreSQL's setval is not undone by a rollback: a copy refused at
//   its final count check leaves the target empty but its sequences advanced, which only skips ids.)
import Foundation

/// Copies a whole database. See the file's header for the rules.
public enum DatabaseCopy {
    /// A table the copy knows: its primary key (the order pages are read in) and whether `id` comes from a sequence.
    public struct Table: Sendable, Equatable {
        public let name: String
        public let key: [String]
        public let identity: Bool
    }

    /// Every table of the migrations (SQLiteMigrations.swift, PostgresMigrations.swift), in the order they are copied:
    /// parents before children (`audit` has no foreign key).
    public static let tables: [Table] = [
        Table(name: "audit", key: ["id"], identity: true),
        Table(name: "account", key: ["id"], identity: true),
        Table(name: "emailAddress", key: ["id"], identity: true),
        Table(name: "session", key: ["digest"], identity: false),
        Table(name: "accountToken", key: ["digest"], identity: false),
        Table(name: "serverSecret", key: ["name"], identity: false),
        Table(name: "mailQueue", key: ["id"], identity: true),
        Table(name: "signingKey", key: ["id"], identity: true),
        Table(name: "signInFailure", key: ["id"], identity: true),
        Table(name: "addressBlock", key: ["remoteAddress"], identity: false),
        Table(name: "invite", key: ["digest"], identity: false),
        Table(name: "profileValue", key: ["accountId", "field"], identity: false),
        Table(name: "socialIdentity", key: ["id"], identity: true),
        Table(name: "socialFlow", key: ["digest"], identity: false),
        Table(name: "socialPending", key: ["digest"], identity: false),
        Table(name: "residence", key: ["id"], identity: false),
        Table(name: "auditCount", key: ["event"], identity: false),
        Table(name: "accountGroup", key: ["id"], identity: true),
        Table(name: "groupMember", key: ["accountId", "groupId"], identity: false),
        Table(name: "secondFactorChallenge", key: ["digest"], identity: false),
        Table(name: "oneTimeCode", key: ["accountId"], identity: false),
        Table(name: "recoveryCode", key: ["id"], identity: true),
        Table(name: "passkey", key: ["id"], identity: true),
        Table(name: "passkeyChallenge", key: ["digest"], identity: false),
        Table(name: "openIDClient", key: ["id"], identity: false),
        Table(name: "openIDGrant", key: ["id"], identity: false),
        Table(name: "openIDCode", key: ["digest"], identity: false),
        Table(name: "openIDToken", key: ["digest"], identity: false),
        Table(name: "openIDConsent", key: ["accountId", "clientId"], identity: false),
        Table(name: "openIDDevice", key: ["digest"], identity: false),
        Table(name: "openIDPushedRequest", key: ["digest"], identity: false),
        Table(name: "openIDLogoutDelivery", key: ["id"], identity: true),
    ]

    /// The migrations' own bookkeeping (GRDB's on SQLite, ours on PostgreSQL): each side keeps its own, not copied.
    static let bookkeeping: Set<String> = ["grdb_migrations", "schemamigration"]

    /// What the copy tells its caller as it goes.
    public enum Event: Sendable, Equatable {
        /// `copied` of `total` rows of `table` are written (every `progressEvery` rows).
        case progress(table: String, copied: Int, total: Int)
        /// Every row of `table` is written (not committed yet).
        case copied(table: String, rows: Int, seconds: Double)
    }

    /// One table's result: its rows, the same number on both sides after the commit.
    public struct TableReport: Sendable, Equatable {
        public let table: String
        public let rows: Int
    }

    /// Copies every row of `source` into `target` (migrated to the same step, and empty); returns each table's count.
    public static func run(from source: AppDatabase, to target: AppDatabase, batchSize: Int = 1000, progressEvery: Int = 100_000,
                           progress: (Event) -> Void = { _ in }) throws -> [TableReport] {
        let reports = try source.read { from in
            let sourceColumns = try schema(from, side: "source")
            let counts = try tables.map { try count(from, $0.name) }
            let highWater = try tables.filter(\.identity).map { table in
                (table.name, max(try from.value(Int64.self, "SELECT MAX(id) FROM \(table.name)") ?? 0, try sequence(from, of: table.name)))
            }
            return try target.write { to in
                let targetColumns = try schema(to, side: "target")
                for table in tables {
                    let (mine, theirs) = (sourceColumns[table.name] ?? [], targetColumns[table.name] ?? [])
                    guard Set(mine.map { $0.lowercased() }) == Set(theirs.map { $0.lowercased() }) else {
                        throw DatabaseCopyError.columnsDiffer(table: table.name, source: mine, target: theirs)
                    }
                    if try to.row("SELECT 1 FROM \(table.name) LIMIT 1") != nil { throw DatabaseCopyError.targetNotEmpty(table: table.name) }
                }
                let resume = try to.dialect == .sqlite ? SQLiteCatalog.pauseTriggers(to, on: "audit") : PostgresCatalog.pauseTriggers(to, on: "audit")
                for (table, total) in zip(tables, counts) {
                    let started = Date()
                    try copyRows(of: table, columns: sourceColumns[table.name] ?? [], total: total, from: from, to: to,
                                 batchSize: batchSize, progressEvery: progressEvery, progress: progress)
                    progress(.copied(table: table.name, rows: total, seconds: Date().timeIntervalSince(started)))
                }
                for statement in resume { try to.execute(statement) }
                for (table, value) in highWater where value > 0 { try setSequence(to, of: table, to: value) }
                for (table, expected) in zip(tables, counts) {
                    let found = try count(to, table.name)
                    guard found == expected else {
                        throw DatabaseCopyError.countMismatch(table: table.name, source: expected, target: found, committed: false)
                    }
                }
                return zip(tables, counts).map { TableReport(table: $0.name, rows: $1) }
            }
        }
        try target.read { to in
            for report in reports {
                let found = try count(to, report.table)
                guard found == report.rows else {
                    throw DatabaseCopyError.countMismatch(table: report.table, source: report.rows, target: found, committed: true)
                }
            }
        }
        return reports
    }

    /// Copies `table` page by page: `SELECT … WHERE key > last ORDER BY key LIMIT n` from the snapshot, one multi-row
    /// INSERT per page.
    private static func copyRows(of table: Table, columns: [String], total: Int, from: Transaction, to: Transaction,
                                 batchSize: Int, progressEvery: Int, progress: (Event) -> Void) throws {
        let pageSize = max(1, min(batchSize, 30_000 / max(columns.count, 1)))
        let list = columns.joined(separator: ", "), keys = table.key.joined(separator: ", ")
        let after = table.key.count == 1 ? "\(keys) > ?" : "(\(keys)) > (\(table.key.map { _ in "?" }.joined(separator: ", ")))"
        let row = "(" + columns.map { _ in "?" }.joined(separator: ", ") + ")"
        var last: [SQLValue]?
        var copied = 0
        while true {
            let page = try from.rows("SELECT \(list) FROM \(table.name)\(last == nil ? "" : " WHERE \(after)") ORDER BY \(keys) LIMIT \(pageSize)",
                                     SQLArguments(last ?? []))
            guard let final = page.last else { break }
            let values = page.flatMap(\.values)
            try to.execute("INSERT INTO \(table.name) (\(list)) VALUES " + Array(repeating: row, count: page.count).joined(separator: ", "),
                           SQLArguments(values))
            if (copied + page.count) / progressEvery > copied / progressEvery {
                progress(.progress(table: table.name, copied: copied + page.count, total: total))
            }
            copied += page.count
            last = table.key.map { final.value($0) }
            if page.count < pageSize { break }
        }
    }

    /// Each known table's columns on one side; refuses a table the copy does not know, or a known one missing.
    private static func schema(_ tx: Transaction, side: String) throws -> [String: [String]] {
        let present = try (tx.dialect == .sqlite ? SQLiteCatalog.tables(tx) : PostgresCatalog.tables(tx))
            .filter { !bookkeeping.contains($0.lowercased()) }
        let known = Set(tables.map { $0.name.lowercased() })
        if let stranger = present.first(where: { !known.contains($0.lowercased()) }) {
            throw DatabaseCopyError.unknownTable(side: side, table: stranger)
        }
        var columns: [String: [String]] = [:]
        for table in tables {
            guard present.contains(where: { $0.caseInsensitiveCompare(table.name) == .orderedSame }) else {
                throw DatabaseCopyError.missingTable(side: side, table: table.name)
            }
            columns[table.name] = try tx.dialect == .sqlite ? SQLiteCatalog.columns(tx, of: table.name) : PostgresCatalog.columns(tx, of: table.name)
        }
        return columns
    }

    private static func count(_ tx: Transaction, _ table: String) throws -> Int {
        try tx.value(Int.self, "SELECT COUNT(*) FROM \(table)") ?? 0
    }

    private static func sequence(_ tx: Transaction, of table: String) throws -> Int64 {
        try tx.dialect == .sqlite ? SQLiteCatalog.sequence(tx, of: table) : PostgresCatalog.sequence(tx, of: table)
    }

    private static func setSequence(_ tx: Transaction, of table: String, to value: Int64) throws {
        try tx.dialect == .sqlite ? SQLiteCatalog.setSequence(tx, of: table, to: value) : PostgresCatalog.setSequence(tx, of: table, to: value)
    }
}

/// Why a copy was refused or stopped (nothing written to the target, except as `countMismatch(committed: true)` says).
public enum DatabaseCopyError: Error, Equatable, CustomStringConvertible {
    case unknownTable(side: String, table: String)
    case missingTable(side: String, table: String)
    case columnsDiffer(table: String, source: [String], target: [String])
    case targetNotEmpty(table: String)
    /// `committed`: found on the fresh read after the commit (something else wrote to the target meanwhile).
    case countMismatch(table: String, source: Int, target: Int, committed: Bool)

    public var description: String {
        switch self {
        case .unknownTable(let side, let table):
            "the \(side) has a table db copy does not know: \(table) (made by a newer Frontdoor, or not Frontdoor's); nothing copied"
        case .missingTable(let side, let table):
            "the \(side) has no table \(table) (not a Frontdoor database at this binary's schema); nothing copied"
        case .columnsDiffer(let table, let source, let target):
            "table \(table) has other columns in the source (\(source.joined(separator: ", "))) than in the target (\(target.joined(separator: ", "))); nothing copied"
        case .targetNotEmpty(let table):
            "the target is not empty (table \(table) has rows): db copy only fills an empty database; nothing copied"
        case .countMismatch(let table, let source, let target, let committed):
            "table \(table) has \(target) rows in the target but \(source) in the source; "
                + (committed ? "the copy was committed: is something else writing to the target?" : "nothing committed")
        }
    }
}
