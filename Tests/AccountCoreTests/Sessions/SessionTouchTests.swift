// SessionTouchTests.swift: marking a session used (`lastSeenAt`) never holds a request up, on a PostgreSQL server the
// test starts: one touch in flight per session, none when no pooled connection is free at once.
import Foundation
import Locking
import Testing
import StorageTestKit
@testable import AccountCore

@Suite struct SessionTouchTests {
    /// Given a session due for a touch, and a trigger that holds every touch until the test lets go; when six requests
    /// for it come at once, then one touch is in flight and the other five answer without writing.
    @Test func concurrentRequestsOfOneSessionSendOneTouch() throws {
        let url = try TestDatabase.makePostgresDatabase()
        let backend = try PoolTestKit.backend(url, size: 10)
        let clock = FixedClock()
        let sessions = Sessions(database: AppDatabase(backend: backend), policy: .default, clock: clock, random: SystemRandomSource())
        let token = SecretToken(random: SystemRandomSource())
        try PoolTestKit.account("tia@example.com", session: token.digest, at: clock.now(), on: backend)
        try backend.write { tx in
            try tx.installTrigger("touch_waits", "BEFORE", "UPDATE OF lastSeenAt", on: "session", run: "PERFORM pg_advisory_xact_lock(4242)")
        }
        clock.advance(by: SessionPolicy.default.touchInterval + 1)
        let locker = try PostgresConnection(keywords: PostgresSettings(url: url).keywords)
        try locker.simple("BEGIN")
        try locker.simple("SELECT pg_advisory_xact_lock(4242)")

        let answered = Locked(0)
        let outcomes = Locked<[(any Error)?]>([])
        let racing = DispatchGroup()
        racing.enter()
        Thread.detachNewThread {
            let errors = Racers.outcomes(6) { _ in
                let found = try sessions.find(token: token.encoded)
                answered.change { $0 += 1 }
                guard found != nil else { throw StorageError.failed("the session was not found") }
            }
            outcomes.withLock { $0 = errors }
            racing.leave()
        }
        let waitingOnTheRow = "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        try PoolTestKit.waitUntil("five requests answered") { answered.withLock { $0 } == 5 }
        try PoolTestKit.waitUntil("one touch waits") { try locker.run(waitingOnTheRow, []).rows.first?.first(as: Int.self) == 1 }
        try locker.simple("COMMIT")
        racing.wait()
        #expect(outcomes.withLock { $0.allSatisfy { $0 == nil } }, "every request found its session")
        #expect(try backend.read { tx in try tx.value(Double.self, "SELECT lastSeenAt FROM session") } == clock.now().timeIntervalSince1970)
    }

    /// Given a session due for a touch whose row another transaction holds (a sign-out under way, another host's
    /// touch); then the lookup answers while the row is still held, and the touch is passed over.
    @Test func aTouchPassesOverARowAnotherTransactionHolds() throws {
        let url = try TestDatabase.makePostgresDatabase()
        var settings = PostgresSettings(url: url, statementTimeout: 60)
        settings.poolWait = 30
        let backend = try PostgresBackend(settings: settings)
        let clock = FixedClock()
        let sessions = Sessions(database: AppDatabase(backend: backend), policy: .default, clock: clock, random: SystemRandomSource())
        let token = SecretToken(random: SystemRandomSource())
        try PoolTestKit.account("uma@example.com", session: token.digest, at: clock.now(), on: backend)
        let seen = clock.now().timeIntervalSince1970
        clock.advance(by: SessionPolicy.default.touchInterval + 1)
        let locker = try PostgresConnection(keywords: PostgresSettings(url: url).keywords)
        try locker.simple("BEGIN")
        _ = try locker.run("SELECT digest FROM session WHERE digest = ? FOR UPDATE", [token.digest])
        let found = Locked<SessionInfo??>(nil)
        Thread.detachNewThread {
            let session = try? sessions.find(token: token.encoded)
            found.change { $0 = .some(session) }
        }
        let answered = found.withLock(waitingUntil: { $0 != nil }, timeout: 10) { $0 }
        try locker.simple("COMMIT")
        #expect(answered??.map { $0 != nil } == true, "the lookup answered while the row was held")
        #expect(try backend.read { tx in try tx.value(Double.self, "SELECT lastSeenAt FROM session") } == seen)
    }

    /// Given the gate's cache holding a session due for a touch and the only pooled connection busy; then the lookup
    /// answers from the cache while the connection is still held (the touch is skipped, not waited for).
    @Test func aSaturatedPoolLeavesTheGateAnsweringFromItsCache() throws {
        let backend = try PoolTestKit.backend(try TestDatabase.makePostgresDatabase(), size: 1, wait: 30, cacheMaxAge: 60)
        try PoolTestKit.waitUntil("the cache listens") { backend.figures?.sessionCache?.listening == true }
        let clock = FixedClock(Date())
        let sessions = Sessions(database: AppDatabase(backend: backend), policy: .default, clock: clock, random: SystemRandomSource())
        let token = SecretToken(random: SystemRandomSource())
        try PoolTestKit.account("gus@example.com", session: token.digest, at: clock.now(), on: backend)
        #expect(try sessions.find(token: token.encoded) != nil)   // now in the cache
        clock.advance(by: SessionPolicy.default.touchInterval + 1)

        let holder = ConnectionHolder(backend)
        #expect(holder.holds())
        let hits = try #require(backend.figures?.sessionCache).hits
        #expect(try sessions.find(token: token.encoded)?.lastSeenAt == clock.now())
        #expect(try #require(backend.figures?.sessionCache).hits == hits + 1)
        holder.release()
        #expect(holder.finish(), "the lookup answered while the connection was held")
    }

    /// A touch is one statement on its own (no BEGIN and COMMIT around it): a lookup due for a touch costs two round
    /// trips, the lookup's and the touch's.
    @Test func aTouchIsOneRoundTrip() throws {
        let backend = try PoolTestKit.backend(try TestDatabase.makePostgresDatabase(), size: 1)
        let clock = FixedClock()
        let sessions = Sessions(database: AppDatabase(backend: backend), policy: .default, clock: clock, random: SystemRandomSource())
        let token = SecretToken(random: SystemRandomSource())
        try PoolTestKit.account("ida@example.com", session: token.digest, at: clock.now(), on: backend)
        clock.advance(by: SessionPolicy.default.touchInterval + 1)
        _ = try sessions.find(token: token.encoded)   // prepares both statements on the one connection
        clock.advance(by: SessionPolicy.default.touchInterval + 1)
        let before = try #require(backend.figures).roundTrips
        #expect(try sessions.find(token: token.encoded) != nil)
        #expect(try #require(backend.figures).roundTrips == before + 2)
        #expect(try backend.read { tx in try tx.value(Double.self, "SELECT lastSeenAt FROM session") } == clock.now().timeIntervalSince1970)
    }
}
