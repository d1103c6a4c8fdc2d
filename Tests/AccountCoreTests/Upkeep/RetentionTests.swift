// RetentionTests.swift: pruning old audit rows and sent mail (issue 22): what goes and what stays, batches, the rules
// that read the rows, two processes at once, a full database, and the statements' query plans.
// GRDB is imported only for what is SQLite's alone: the transaction observer that sees each batch commit, and the
// migration test (`theRetentionMigrationCarries…`); everything else goes through the storage seam.
import Foundation
import GRDB
import Logging
import StorageTestKit
import Testing
@testable import AccountCore

struct RetentionTests {
    let day: TimeInterval = 86400

    private func retention(_ fixture: TestFixture, _ policy: RetentionPolicy = .default, batchSize: Int = 1000) -> Retention {
        var retention = Retention(database: fixture.database, policy: policy, clock: fixture.clock)
        retention.batchSize = batchSize
        return retention
    }

    /// An audit row at the clock's time, marked by its detail.
    private func audit(_ fixture: TestFixture, _ detail: String, event: AuditEvent = .signIn) throws {
        try fixture.services.audit.record(event, accountId: nil, email: "ann@example.com", client: ClientInfo(), detail: detail)
    }

    /// A queued mail made a minute ago, sent now unless `sent` is false (then it has failed 5 times).
    private func mail(_ fixture: TestFixture, _ subject: String, sent: Bool = true) throws {
        let now = fixture.clock.now().timeIntervalSince1970
        let lastError: String? = sent ? nil : "refused"
        let sentAt: Double? = sent ? now : nil
        try fixture.database.write { tx in
            try tx.execute("""
                INSERT INTO mailQueue (kind, sender, recipient, recipientKey, subject, message, messageId, createdAt, attempts,
                                       nextAttemptAt, lastError, sentAt)
                VALUES ('password_changed', 'a@b.c', 'ann@example.com', 'ann@example.com', ?, 'text', ?, ?, ?, ?, ?, ?)
                """, [subject, UUID().uuidString, now - 60, sent ? 1 : 5, now, lastError, sentAt])
        }
    }

    private func auditDetails(_ fixture: TestFixture) throws -> [String] {
        try fixture.database.read { tx in try tx.values(String.self, "SELECT detail FROM audit ORDER BY id") }
    }

    private func mailSubjects(_ fixture: TestFixture) throws -> [String] {
        try fixture.database.read { tx in try tx.values(String.self, "SELECT subject FROM mailQueue ORDER BY id") }
    }

    @Test func rowsOlderThanTheirRetentionGoNewerOnesAndUnsentMailStay() throws {
        // Given rows from a year ago (an audit row, a sent mail, a mail never delivered) and from 25 days ago
        let fixture = try TestFixture()
        let start = fixture.clock.now()
        try audit(fixture, "a year old")
        try mail(fixture, "sent a year ago")
        try mail(fixture, "never sent", sent: false)
        fixture.clock.advance(by: 340 * day)
        try audit(fixture, "recent")
        try mail(fixture, "sent recently")
        fixture.clock.advance(by: 25 * day)
        // When pruning exactly a year after the first rows, with the defaults (audit 365 days, sent mail 30 days)
        let outcomes = try retention(fixture).prune()
        // Then the year-old audit row is not older than its retention yet, and only the old sent mail went
        #expect(outcomes == [Retention.Outcome(kind: .audit, cutoff: start, deleted: 0),
                             Retention.Outcome(kind: .sentMail, cutoff: start + 335 * day, deleted: 1)])
        #expect(try auditDetails(fixture) == ["a year old", "recent"])
        #expect(try mailSubjects(fixture) == ["never sent", "sent recently"])
        // And a second later the audit row goes too; mail never sent stays however old
        fixture.clock.advance(by: 1)
        #expect(try retention(fixture).prune().map(\.deleted) == [1, 0])
        #expect(try auditDetails(fixture) == ["recent"])
        #expect(try mailSubjects(fixture) == ["never sent", "sent recently"])
        #expect(try fixture.services.mail.pendingCount() == 1)
    }

    @Test func zeroKeepsATableForeverAndAnAgeGivenOverridesBoth() throws {
        let fixture = try TestFixture()
        try audit(fixture, "old")
        try mail(fixture, "old")
        fixture.clock.advance(by: 1000 * day)
        let forever = retention(fixture, RetentionPolicy(audit: 0, sentMail: 0))
        #expect(try forever.prune() == [Retention.Outcome(kind: .audit, cutoff: nil, deleted: 0),
                                        Retention.Outcome(kind: .sentMail, cutoff: nil, deleted: 0)])
        #expect(try fixture.count("audit") == 1 && fixture.count("mailQueue") == 1)
        // `frontdoor audit prune --older-than 10d`: the operator's age, for both tables, kept forever or not
        #expect(try forever.prune(olderThan: 10 * day).map(\.deleted) == [1, 1])
        #expect(try fixture.count("audit") == 0 && fixture.count("mailQueue") == 0)
    }

    @Test func rowsGoInBoundedBatchesEachATransactionOfItsOwn() throws {
        // Given 10 old audit rows, 2 new ones, and an observer of the transactions that delete audit rows (SQLite's hook)
        let fixture = try TestFixture(backend: .sqlite)
        for index in 0..<10 { try audit(fixture, "old \(index)") }
        fixture.clock.advance(by: 400 * day)
        try audit(fixture, "new 1")
        try audit(fixture, "new 2")
        let observer = DeletionObserver()
        fixture.database.writer.add(transactionObserver: observer)   // SQLite's commit hook: the one way to see each batch commit
        let pruner = retention(fixture, batchSize: 3)
        // When at most two batches run (as a CGI process does one), then all
        #expect(try pruner.prune(maxBatches: 2).map(\.deleted) == [6, 0])
        #expect(try fixture.count("audit") == 6)
        #expect(try pruner.prune().map(\.deleted) == [4, 0])
        // Then batches of 3, 3 | 3, 1 were committed one by one, and only the old rows went
        #expect(observer.deletionsPerTransaction == [3, 3, 3, 1])
        #expect(try auditDetails(fixture) == ["new 1", "new 2"])
    }

    /// The sign-up limit counts the audit trail's sign-ups over its window: at the shortest retention allowed (that
    /// window), pruning never takes a row the limit still counts.
    @Test func theSignUpLimitCountsTheSameAfterPruningAtTheShortestRetention() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(maxPerAddress: 2, window: 3600))
        let shortest = fixture.services.configuration.shortestRetention(.audit)
        #expect(shortest == 3600 && fixture.services.configuration.shortestRetention(.sentMail) == 60)
        let pruner = retention(fixture, RetentionPolicy(audit: shortest, sentMail: 60))
        let bot = ClientInfo(userAgent: "bot", remoteAddress: "203.0.113.9")
        try fixture.signUp("a1@example.com", client: bot)
        try fixture.signUp("a2@example.com", client: bot)
        fixture.clock.advance(by: 3599)
        #expect(try pruner.prune().first?.deleted == 0)
        #expect(throws: AccountError.refused("sign_up_rate_limited")) { try fixture.signUp("a3@example.com", client: bot) }
        fixture.clock.advance(by: 2)
        #expect(try pruner.prune().first?.deleted == 2, "the two sign-ups")
        try fixture.signUp("a3@example.com", client: bot)
    }

    @Test func metricTotalsAndTheLastSignInOutliveTheirPrunedRows() throws {
        let fixture = try TestFixture()
        try fixture.signUp("ann@example.com")
        fixture.clock.advance(by: day)
        let signedInAt = fixture.clock.now()
        try fixture.signIn("ann@example.com")
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("ann@example.com", password: "not it at all") }
        let before = try fixture.services.audit.counts(of: [.signIn, .signInFailed, .lockout])
        #expect(before == ["sign_in": 1, "sign_in_failed": 1], "no lockout recorded: left out")
        fixture.clock.advance(by: 400 * day)
        #expect(try retention(fixture).prune().first?.deleted == 3, "sign-up, sign-in, failure")
        #expect(try fixture.count("audit") == 0)
        #expect(try fixture.services.audit.counts(of: [.signIn, .signInFailed, .lockout]) == before, "counters never fall")
        #expect(try fixture.services.administration.list().map(\.lastSignIn) == [signedInAt])
        #expect(try fixture.services.audit.counts(of: []) == [:])
    }

    /// Two processes pruning one database at once (two `serve`s, or `serve` and `frontdoor audit prune`): no error, every
    /// old row deleted once, the new ones left.
    @Test func twoProcessesPruningAtOnceShareTheWork() throws {
        let folder = NSTemporaryDirectory() + "frontdoor-prune-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/frontdoor.sqlite"
        let fixture = try TestFixture(databasePath: path)
        try fixture.database.write { tx in
            for index in 0..<3000 {
                try tx.execute("INSERT INTO audit (createdAt, event, remoteAddress, userAgent) VALUES (?, 'sign_in', '', '')",
                               [fixture.clock.now().timeIntervalSince1970 - 400 * day + Double(index)])
            }
        }
        try audit(fixture, "new")
        let pruners = try (0..<2).map { _ in
            var pruner = Retention(database: try AppDatabase.open(path: path), policy: .default, clock: fixture.clock)
            pruner.batchSize = 100
            return pruner
        }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            results.add(Result { try pruners[index].prune().map(\.deleted) })
        }
        let deleted = try results.all.map { try $0.get() }
        #expect(deleted.map { $0[0] }.reduce(0, +) == 3000)
        #expect(try auditDetails(fixture) == ["new"])
    }

    /// At `database.max_size_mb` every write is refused; pruning still runs and frees room for new rows.
    @Test func pruningFreesRoomInADatabaseAtItsSizeCap() throws {
        let folder = NSTemporaryDirectory() + "frontdoor-prune-full-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try AppDatabase.open(path: folder + "/frontdoor.sqlite", maxSizeMB: 1)
        let clock = FixedClock()
        let log = AuditLog(database: database, clock: clock)
        /// Writes `rows` audit rows with `detail` bytes each in one transaction; true when the cap refused them.
        func refused(rows: Int, detail: Int) throws -> Bool {
            do {
                try database.write { tx in
                    for _ in 0..<rows {
                        try log.record(.signInFailed, accountId: nil, email: "x@example.com", client: ClientInfo(),
                                       detail: String(repeating: "x", count: detail), in: tx)
                    }
                }
                return false
            } catch StorageError.unavailable {
                return true
            }
        }
        var full = false
        for _ in 0..<200 where !full { full = try refused(rows: 50, detail: 500) }
        full = false
        for _ in 0..<1000 where !full { full = try refused(rows: 1, detail: 0) }
        #expect(full, "even a row without detail is refused")
        clock.advance(by: 366 * day)
        let outcomes = try Retention(database: database, policy: .default, clock: clock).prune()
        #expect(outcomes[0].deleted > 800, "the cap's MiB less the schema's own pages (v17 added 8 tables and 14 indexes)")
        try log.record(.signIn, accountId: nil, email: nil, client: ClientInfo())
        #expect(try database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM audit") } == 1)
    }

    /// A batch finds its rows through an index, and /metrics reads its totals and the queue depth by key: none of them
    /// scans a table that grows (EXPLAIN QUERY PLAN says SEARCH … USING … INDEX or PRIMARY KEY, never SCAN).
    @Test func pruningAndMetricsStatementsUseIndexesNotScans() throws {
        let database = try TestDatabase.make(.sqlite)   // EXPLAIN QUERY PLAN is SQLite's
        var statements: [(String, SQLArguments)] = Retention.Kind.allCases.map { (Transaction.pruneBatchSQL($0), [1_800_000_000.0, 1000]) }
        statements.append((Transaction.auditTotalsSQL(4), ["sign_in", "sign_in_failed", "lockout", "address_blocked"]))
        statements.append((Transaction.auditRowCountsSQL(4), ["sign_in", "sign_in_failed", "lockout", "address_blocked"]))
        statements.append((MailQueue.pendingCountSQL, []))
        for (sql, arguments) in statements {
            let plan = try database.read { tx in
                try tx.rows("EXPLAIN QUERY PLAN " + sql, arguments).map { $0["detail"] as String }
            }
            #expect(!plan.isEmpty && plan.allSatisfy { !$0.hasPrefix("SCAN") }, "\(sql): \(plan)")
            #expect(plan.contains { $0.hasPrefix("SEARCH") && ($0.contains("INDEX") || $0.contains("PRIMARY KEY")) }, "\(sql): \(plan)")
        }
    }

    /// The step that brings pruning carries over what was read from every audit row: each event's total and each
    /// account's last sign-in; its triggers keep them up from then on.
    @Test func theRetentionMigrationCarriesTotalsAndLastSignInsOver() throws {
        let queue = try DatabaseQueue()
        try SQLiteBackend.migrator.migrate(queue, upTo: "v10-address-group")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO account (id, passwordHash, createdAt, updatedAt) VALUES (1, 'x', 0, 0), (2, 'x', 0, 0);
                INSERT INTO audit (createdAt, event, accountId, remoteAddress, userAgent) VALUES
                    (100, 'sign_in', 1, '', ''), (300, 'sign_in', 1, '', ''), (200, 'sign_in_failed', 1, '', ''), (400, 'sign_up', 2, '', '');
                """)
        }
        let database = AppDatabase(backend: SQLiteBackend(writer: queue, filePath: nil))
        try database.migrate()
        let totals = { try AuditLog(database: database, clock: FixedClock()).counts().sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } }
        let pruned = { try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT event, total FROM auditCount WHERE total > 0 ORDER BY event").map { "\($0[0] as String)=\($0[1] as Int)" }
        } }
        let lastSignIns = { try database.writer.read { db in
            try Optional<Double>.fetchAll(db, sql: "SELECT lastSignInAt FROM account ORDER BY id")
        } }
        #expect(try totals() == ["sign_in=2", "sign_in_failed=1", "sign_up=1"])
        #expect(try lastSignIns() == [300, nil])
        let log = AuditLog(database: database, clock: FixedClock(Date(timeIntervalSince1970: 500)))
        try log.record(.signIn, accountId: 2, email: nil, client: ClientInfo())
        try log.record(.signIn, accountId: nil, email: "ghost@example.com", client: ClientInfo())
        #expect(try totals() == ["sign_in=4", "sign_in_failed=1", "sign_up=1"])
        #expect(try lastSignIns() == [300, 500])
        // Since v14 an insert counts nothing (auditCount holds what pruning took); pruning adds what it deletes.
        #expect(try pruned() == [])
        let outcomes = try Retention(database: database, policy: .default, clock: FixedClock(Date(timeIntervalSince1970: 400 * 86400)))
            .prune(olderThan: 86400)
        #expect(outcomes[0].deleted == 6)
        #expect(try pruned() == ["sign_in=4", "sign_in_failed=1", "sign_up=1"])
        #expect(try totals() == ["sign_in=4", "sign_in_failed=1", "sign_up=1"], "the totals never fall")
    }

    @Test func thePrunerLogsAndSurvivesAFailedPass() throws {
        let fixture = try TestFixture()
        try audit(fixture, "old")
        fixture.clock.advance(by: 400 * day)
        let pruner = Pruner(retention: retention(fixture), logger: Logger(label: "test"))
        #expect(pruner.pruneOnce()?.map(\.deleted) == [1, 0])
        try fixture.database.write { tx in try tx.execute("DROP TABLE mailQueue") }
        #expect(pruner.pruneOnce() == nil, "logged, not thrown: the next pass tries again")
    }
}

/// Counts the audit rows each committed transaction deleted.
private final class DeletionObserver: TransactionObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var committed: [Int] = []

    var deletionsPerTransaction: [Int] { lock.withLock { committed } }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case .delete(let table) = eventKind { return table == "audit" }
        return false
    }

    func databaseDidChange(with event: DatabaseEvent) { lock.withLock { current += 1 } }

    func databaseDidCommit(_ db: Database) {
        lock.withLock {
            if current > 0 { committed.append(current) }
            current = 0
        }
    }

    func databaseDidRollback(_ db: Database) { lock.withLock { current = 0 } }
}

/// Results gathered from several threads.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<[Int], any Error>] = []

    func add(_ result: Result<[Int], any Error>) { lock.withLock { results.append(result) } }
    var all: [Result<[Int], any Error>] { lock.withLock { results } }
}
