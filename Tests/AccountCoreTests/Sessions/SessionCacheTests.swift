// SessionCacheTests.swift: the host's cache of session lookups on its own, with a hand-moved clock: what it keeps,
// for how long, what forgets it, and that a lookup begun before an invalidation cannot store a stale row.
import Foundation
import Locking
import Testing
@testable import AccountCore

@Suite struct SessionCacheTests {
    final class Hands: Sendable {
        let time = Locked(1000.0)
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
    }

    func row(_ accountId: Int64, _ email: String = "ann@example.com") -> SessionInfo {
        SessionInfo(digest: Data(), accountId: accountId, email: email, createdAt: Date(timeIntervalSince1970: 1),
                    lastSeenAt: Date(timeIntervalSince1970: 2), expiresAt: Date(timeIntervalSince1970: 3), rememberMe: false)
    }

    func listeningCache(maxAge: Double = 10, capacity: Int = 100) -> (SessionCache, Hands) {
        let hands = Hands()
        let cache = SessionCache(settings: .init(maxAge: maxAge, capacity: capacity), now: { hands.time.withLock { $0 } })
        cache.reset(listening: true)
        return (cache, hands)
    }

    @Test func aStoredRowIsServedUntilItIsTooOld() throws {
        let (cache, hands) = listeningCache()
        let digest = Data([1])
        let first = cache.lookup(digest)
        #expect(first.row == nil)
        cache.store(row(7), for: digest, ticket: try #require(first.ticket))
        #expect(cache.lookup(digest).row == row(7))
        hands.advance(9.9)
        #expect(cache.lookup(digest).row == row(7))
        hands.advance(0.1)
        #expect(cache.lookup(digest).row == nil, "at the max age it is read again")
        let figures = cache.currentFigures
        #expect(figures.hits == 2 && figures.misses == 2 && figures.entries == 1 && figures.listening)
    }

    @Test func anInvalidationForgetsEverySessionOfTheAccountAndNoOther() throws {
        let (cache, _) = listeningCache()
        for (digest, account) in [(Data([1]), Int64(7)), (Data([2]), 7), (Data([3]), 8)] {
            cache.store(row(account), for: digest, ticket: try #require(cache.lookup(digest).ticket))
        }
        cache.invalidate(accountId: 7)
        #expect(cache.lookup(Data([1])).row == nil && cache.lookup(Data([2])).row == nil)
        #expect(cache.lookup(Data([3])).row == row(8))
        cache.invalidate(digest: Data([3]))
        #expect(cache.lookup(Data([3])).row == nil)
        #expect(cache.currentFigures.invalidations == 2)
    }

    @Test func aLookupBegunBeforeAnInvalidationDoesNotStoreWhatItRead() throws {
        let (cache, _) = listeningCache()
        let ticket = try #require(cache.lookup(Data([1])).ticket)   // the read starts; the server answers the old row
        cache.invalidate(accountId: 7)                              // meanwhile the sign-out's notification arrives
        cache.store(row(7), for: Data([1]), ticket: ticket)
        #expect(cache.lookup(Data([1])).row == nil, "the stale row was not kept")
    }

    @Test func withoutAListenerNothingIsKeptOrServed() throws {
        let (cache, _) = listeningCache()
        cache.store(row(7), for: Data([1]), ticket: try #require(cache.lookup(Data([1])).ticket))
        cache.reset(listening: false)   // the listener lost its connection: notifications may be lost
        let answer = cache.lookup(Data([1]))
        #expect(answer.row == nil && answer.ticket == nil)
        cache.store(row(7), for: Data([1]), ticket: 0)
        cache.reset(listening: true)
        #expect(cache.lookup(Data([1])).row == nil && cache.currentFigures.resets == 3 && cache.currentFigures.entries == 0)
    }

    @Test func aFullCacheEmptiesAndFillsAgain() throws {
        let (cache, _) = listeningCache(capacity: 2)
        for digest in [Data([1]), Data([2])] {
            cache.store(row(7), for: digest, ticket: try #require(cache.lookup(digest).ticket))
        }
        cache.store(row(8), for: Data([3]), ticket: try #require(cache.lookup(Data([3])).ticket))
        #expect(cache.currentFigures.entries == 1 && cache.lookup(Data([3])).row == row(8))
        #expect(cache.lookup(Data([1])).row == nil)
    }

    @Test func aTouchKeepsTheEntryInStep() throws {
        let (cache, _) = listeningCache()
        cache.store(row(7), for: Data([1]), ticket: try #require(cache.lookup(Data([1])).ticket))
        cache.touched(Data([1]), lastSeenAt: 99)
        #expect(cache.lookup(Data([1])).row?.lastSeenAt == Date(timeIntervalSince1970: 99))
    }
}
