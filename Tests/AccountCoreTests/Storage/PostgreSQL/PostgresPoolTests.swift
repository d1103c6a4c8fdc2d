// PostgresPoolTests.swift: the PostgreSQL pool with real threads against a private cluster: first come, first
// served; connections kept for the gate; only a dead connection dropped; none given back inside a transaction.
import Foundation
import Locking
import Testing
import StorageTestKit
@testable import AccountCore

@Suite struct PostgresPoolTests {
    /// Given one connection, held, and six threads queued for it one after the other; when the holder gives it back and
    /// at once asks again, then the six get it in the order they came and the holder after them.
    @Test func waitersGetTheOnlyConnectionInTheOrderTheyCame() throws {
        let backend = try PoolTestKit.backend(try TestDatabase.makePostgresDatabase(), size: 1, wait: 30)
        let order = Locked<[String]>([])
        let holder = ConnectionHolder(backend, then: { _ = try? backend.read { _ in order.withLock { $0.append("holder again") } } })
        #expect(holder.holds())
        let waiters = DispatchGroup()
        for index in 0..<6 {
            waiters.enter()
            Thread.detachNewThread {
                _ = try? backend.read { _ in order.withLock { $0.append("waiter \(index)") } }
                waiters.leave()
            }
            try PoolTestKit.waitUntil("waiter \(index) queues") { backend.pool.waiting == index + 1 }
        }
        holder.release()
        #expect(holder.finish())
        waiters.wait()
        #expect(order.withLock { $0 } == (0..<6).map { "waiter \($0)" } + ["holder again"])
    }

    /// Given three connections of which the gate keeps one; when ordinary work takes every connection it may, then a
    /// further ordinary read is refused and the gate's lookup still answers.
    @Test func theGateAnswersWhileOrdinaryWorkHoldsEveryOtherConnection() throws {
        let backend = try PoolTestKit.backend(try TestDatabase.makePostgresDatabase(), size: 3, wait: 0.3, reserve: 1)
        let digest = Data(repeating: 7, count: 32)
        let id = try PoolTestKit.account("gate@example.com", session: digest, at: Date(), on: backend)
        var holders: [ConnectionHolder] = []
        defer { for holder in holders { holder.release(); _ = holder.finish() } }
        while holders.count <= 3 {
            let holder = ConnectionHolder(backend)
            holders.append(holder)
            guard holder.holds() else { break }
        }
        #expect(holders.count == 3, "two ordinary holders, and the third refused")
        #expect(try backend.findBrowserSession(digest: digest)?.accountId == id)
    }

    /// Given three open connections; when the server ends the one the pool hands out next, then the next request still
    /// answers (on a new connection) and the other two stay open.
    @Test func onlyTheConnectionTheServerClosedIsReplaced() throws {
        let url = try TestDatabase.makePostgresDatabase()
        let backend = try PoolTestKit.backend(url, size: 4)
        let first = try PoolTestKit.backendPids(backend, count: 3)
        let next = try #require(try backend.read { tx in try tx.value(Int64.self, "SELECT CAST(pg_backend_pid() AS bigint)") })
        let observer = try PostgresBackend(settings: PostgresSettings(url: url))
        try observer.read { tx in _ = try tx.value(Bool.self, "SELECT pg_terminate_backend(CAST(? AS integer))", [next]) }
        try PoolTestKit.waitUntil("the server ended it") {
            try observer.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM pg_stat_activity WHERE pid = ?", [next]) } == 0
        }
        #expect(try backend.read { tx in try tx.value(Int64.self, "SELECT CAST(pg_backend_pid() AS bigint)") } != next)
        let after = try PoolTestKit.backendPids(backend, count: 3)
        #expect(first.subtracting([next]).isSubset(of: after), "the two the server kept are still in use")
    }

    /// A connection given back inside a transaction (a ROLLBACK that failed) is closed, not handed out again.
    @Test func aConnectionInsideATransactionIsNotGivenBack() throws {
        let backend = try PoolTestKit.backend(try TestDatabase.makePostgresDatabase(), size: 2)
        let connection = try backend.pool.checkout(.ordinary)
        try connection.simple("BEGIN")
        #expect(!connection.isReusable)
        let open = backend.pool.openCount
        backend.pool.checkin(connection, .ordinary)
        #expect(backend.pool.openCount == open - 1)
        #expect(try backend.read { tx in try tx.value(Int.self, "SELECT 1") } == 1)
    }

    /// A touch takes only an idle connection, at once, and never one a waiter is queued for.
    @Test func aConnectionIfFreeNeverWaits() throws {
        let backend = try PoolTestKit.backend(try TestDatabase.makePostgresDatabase(), size: 1, wait: 30)
        let holder = ConnectionHolder(backend)
        #expect(holder.holds())
        #expect(backend.pool.checkoutIfFree(.ordinary) == nil)
        holder.release()
        #expect(holder.finish())
        let free = try #require(backend.pool.checkoutIfFree(.ordinary))
        backend.pool.checkin(free, .ordinary)
    }
}
