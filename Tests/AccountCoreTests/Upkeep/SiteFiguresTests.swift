// SiteFiguresTests.swift: the admin health page's figures: sign-ins per UTC hour (empty hours, the window's edges,
// the rounding of an hour's last second, other events), and the counts of accounts, live sessions, locks and mail.
import Foundation
import StorageTestKit
import Testing
@testable import AccountCore

@Suite struct SiteFiguresTests {
    /// The fixed clock starts on a whole hour (1_800_000_000 s = hour 500_000, 2027-01-15 08:00 UTC).
    static let startHour: Int64 = 500_000

    /// Writes an audit row of `event` at `seconds` since 1970.
    func audit(_ fixture: TestFixture, _ event: AuditEvent, at seconds: Double) throws {
        try fixture.database.write { tx in
            try tx.insertAudit(event, accountId: nil, email: nil, client: ClientInfo(), detail: "", at: Date(timeIntervalSince1970: seconds))
        }
    }

    @Test func withoutRowsEveryHourIsZeroAndTheWindowEndsWithTheCurrentHour() throws {
        let fixture = try TestFixture()
        fixture.clock.advance(by: 1800)
        let hourly = try fixture.services.figures.signInsByHour()
        #expect(hourly.hours == 24)
        #expect(hourly.signIns == Array(repeating: 0, count: 24))
        #expect(hourly.failedSignIns == Array(repeating: 0, count: 24))
        #expect(hourly.start == Date(timeIntervalSince1970: Double(Self.startHour - 23) * 3600), "23 whole hours before the current one")
        #expect(hourly.hourStart(23) == Date(timeIntervalSince1970: Double(Self.startHour) * 3600))
    }

    @Test func rowsAreCountedInTheirHourAndRowsOutsideTheWindowOrOfOtherEventsAreNot() throws {
        // Given: now is 08:30 on the fixed clock's day; the window's hours run from 09:00 the day before.
        let fixture = try TestFixture()
        fixture.clock.advance(by: 1800)
        let now = fixture.clock.now().timeIntervalSince1970
        let first = Double(Self.startHour - 23) * 3600
        try audit(fixture, .signIn, at: now - 10)                 // the current hour (index 23)
        try audit(fixture, .signIn, at: now - 20)                 // the same hour
        try audit(fixture, .signIn, at: first)                    // the window's first second (index 0)
        try audit(fixture, .signIn, at: first - 1)                // one second before the window: left out
        try audit(fixture, .signInFailed, at: now - 5 * 3600)     // 03:30: index 18
        try audit(fixture, .signInFailed, at: first + 13 * 3600 + 3599.9)  // an hour's very last moment: index 13, not 14
        try audit(fixture, .signOut, at: now - 60)                // another event: left out
        try audit(fixture, .signIn, at: Double(Self.startHour + 1) * 3600 + 5)  // after the current hour: left out
        try audit(fixture, .signIn, at: now - 3 * 86400)          // days ago: left out

        // When
        let hourly = try fixture.services.figures.signInsByHour()

        // Then
        var signIns = Array(repeating: 0, count: 24), failed = signIns
        signIns[23] = 2
        signIns[0] = 1
        failed[18] = 1
        failed[13] = 1
        #expect(hourly.signIns == signIns)
        #expect(hourly.failedSignIns == failed)
    }

    @Test func theStatementsHourRoundsDownOnEveryBackend() throws {
        // PostgreSQL's CAST rounds to the nearest: 29.99 hours must still be hour 29.
        let fixture = try TestFixture()
        try audit(fixture, .signIn, at: 29 * 3600 + 3599.9)
        let counts = try fixture.database.read { tx in try tx.hourlyAuditCounts(of: [.signIn], firstHour: 0, hours: 100) }
        #expect(counts == [HourlyAuditCount(event: "sign_in", hour: 29, count: 1)])
    }

    @Test func theHourlyStatementSearchesTheEventIndexNotTheTable() throws {
        let database = try TestDatabase.make(.sqlite)   // EXPLAIN QUERY PLAN is SQLite's
        let plan = try database.read { tx in
            try tx.rows("EXPLAIN QUERY PLAN " + Transaction.hourlyAuditSQL(.sqlite, events: 2),
                        ["sign_in", "sign_in_failed", 1_800_000_000.0, 1_800_086_400.0]).map { $0["detail"] as String }
        }
        #expect(plan.allSatisfy { !$0.hasPrefix("SCAN audit") }, "\(plan)")
        #expect(plan.contains { $0.hasPrefix("SEARCH") && $0.contains("audit_event") }, "\(plan)")
    }

    @Test func theCountsAreAccountsLiveSessionsLocksAndMail() throws {
        let fixture = try TestFixture(session: SessionPolicy(lifetime: 12 * 3600, idleTimeout: 1800))
        let empty = try fixture.services.figures.current()
        #expect(empty.accounts == 0 && empty.liveSessions == 0 && empty.lockedAccounts == 0 && empty.mailWaiting == 0 && empty.mailFailed == 0)

        // Given: three accounts, each signed up (a session each), one signed in again remembered; one locked (its
        // sessions end), one locked in the past (no lock now).
        try fixture.signUp("ann@example.com")
        try fixture.signUp("bob@example.com")
        let cat = try fixture.signUp("cat@example.com")
        try fixture.signIn("ann@example.com", rememberMe: true)
        #expect(throws: (any Error).self) { try fixture.signIn("ann@example.com", password: "wrong password") }
        try fixture.services.lockout.lock(accountId: cat.session.accountId, client: ClientInfo())
        _ = try fixture.database.write { tx in
            try tx.execute("UPDATE account SET lockedUntil = ? WHERE id <> ?", [fixture.clock.now().timeIntervalSince1970 - 1, cat.session.accountId])
        }
        let figures = try fixture.services.figures.current()
        #expect(figures.accounts == 3)
        #expect(figures.liveSessions == 3, "ann twice, bob; cat's ended with the lock")
        #expect(figures.lockedAccounts == 1)
        #expect(figures.signInsTotal == 1 && figures.failedSignInsTotal == 1)
        #expect(figures.hourly.signIns[23] == 1 && figures.hourly.failedSignIns[23] == 1)

        // When the idle timeout passes, only the remembered session is live.
        fixture.clock.advance(by: 1801)
        #expect(try fixture.services.figures.current().liveSessions == 1)
    }

    @Test func mailWaitingIsTheUnsentMailAndFailedThoseWhoseLastTryFailed() throws {
        let fixture = try TestFixture()
        let now = fixture.clock.now().timeIntervalSince1970
        try fixture.database.write { tx in
            for (index, address) in ["a@example.com", "b@example.com", "c@example.com"].enumerated() {
                try tx.enqueueMail(kind: "test", sender: "site@example.com", recipient: address, subject: "s", message: "m",
                                   messageId: "id\(index)", now: now)
            }
            let ids = try tx.values(Int64.self, "SELECT id FROM mailQueue ORDER BY id")
            try tx.markMailSent(id: ids[0], attempts: 1, sentAt: now)
            try tx.markMailFailed(id: ids[1], attempts: 1, nextAttemptAt: now + 30, error: "refused")
        }
        let figures = try fixture.services.figures.current()
        #expect(figures.mailWaiting == 2, "the failed one and the one never tried")
        #expect(figures.mailWaiting == (try fixture.services.mail.pendingCount()), "the figure /metrics reports")
        #expect(figures.mailFailed == 1)
    }
}
