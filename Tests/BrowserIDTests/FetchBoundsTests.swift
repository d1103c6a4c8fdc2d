// FetchBoundsTests.swift: what one support-document fetch may cost the process: a name lookup that never answers ends
// at the verification's deadline, at most `maxConcurrent` fetches run at once (past it: FetchesBusy at once), and a
// lookup given up on still counts until it ends. Time here is real (threads wait on it) but short: the bounds are
// checked as "well before the 10 s fetch limit", never as exact durations.
import Foundation
import IPAddresses
import Locking
import Testing
@testable import BrowserID

/// A resolver whose lookups wait until `release()`; counts the lookups that started.
final class StallingResolver: HostResolver {
    private let released = Locked(false)
    private let entered = Locked(0)

    func addresses(of host: String) throws -> [IPAddress] {
        entered.change { $0 += 1 }
        _ = released.withLock(waitingUntil: { $0 }) { _ in }
        throw ResolutionFailure(host: host, detail: "released")
    }

    func release() { released.change { $0 = true } }
    /// Lookups started so far.
    var lookups: Int { entered.withLock { $0 } }
    /// Waits until `count` lookups have started.
    func awaitLookups(_ count: Int) { _ = entered.withLock(waitingUntil: { $0 >= count }, timeout: 30) { _ in } }
}

struct FetchBoundsTests {
    let failure = "can't get public key for slow.test:8443: the support document could not be fetched"

    @Test func aLookupThatNeverAnswersEndsAtTheDeadline() throws {
        let resolver = StallingResolver()
        defer { resolver.release() }
        let fetcher = HTTPSupportDocumentFetcher(timeout: 10, allowedHosts: ["slow.test:8443"], resolver: resolver)
        let began = Date()
        #expect { try fetcher.supportDocument(for: "slow.test:8443", before: began.addingTimeInterval(0.2)) } throws: {
            ($0 as? BrowserIDError)?.reason == failure
        }
        #expect(Date().timeIntervalSince(began) < 5, "cut at the deadline, not at the 10 s fetch limit or the resolver's own")
    }

    @Test func aFetchCutShortByTheDeadlineIsNotRememberedAsTheIssuersFailure() throws {
        // Given a lookup that took all of a short deadline (someone's slow chain ran first), the issuer is asked again
        // next time: only a failure that had the whole fetch_timeout counts against the issuer for a minute.
        let resolver = StallingResolver()
        let fetcher = HTTPSupportDocumentFetcher(timeout: 10, allowedHosts: ["slow.test:8443"], resolver: resolver)
        #expect(throws: BrowserIDError.self) { try fetcher.supportDocument(for: "slow.test:8443", before: Date().addingTimeInterval(0.1)) }
        resolver.release()
        #expect(throws: BrowserIDError.self) { try fetcher.supportDocument(for: "slow.test:8443") }
        #expect(resolver.lookups == 2, "asked again, not answered from the failure cache")
        #expect(throws: BrowserIDError.self) { try fetcher.supportDocument(for: "slow.test:8443") }
        #expect(resolver.lookups == 2, "a failure with the whole time is remembered")
    }

    @Test func aServerThatNeverAnswersIsCutAtTheDeadline() throws {
        // A socket that listens but never accepts: the connection is made, the request sent, no answer ever comes.
        let silent = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(silent) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(silent, $0, length) == 0 && getsockname(silent, $0, &length) == 0 }
        }
        try #require(listening && listen(silent, 8) == 0)
        let port = UInt16(bigEndian: address.sin_port)
        let fetcher = HTTPSupportDocumentFetcher(timeout: 10, allowedHosts: ["silent.test"], httpHosts: ["silent.test": "127.0.0.1:\(port)"])
        let began = Date()
        #expect(throws: BrowserIDError.self) { try fetcher.supportDocument(for: "silent.test", before: began.addingTimeInterval(0.3)) }
        #expect(Date().timeIntervalSince(began) < 5)
    }

    @Test func pastTheBoundAFetchIsBusyAtOnceAndAPlaceFreesWhenItEnds() throws {
        let resolver = StallingResolver()
        let fetcher = HTTPSupportDocumentFetcher(timeout: 10, maxConcurrent: 1, allowedHosts: ["slow.test:8443", "other.test:8443"],
                                                 resolver: resolver)
        let first = Locked<String?>(nil)
        Thread.detachNewThread {
            let outcome = Result { try fetcher.supportDocument(for: "slow.test:8443") }
            first.change { $0 = "\(outcome)" }
        }
        resolver.awaitLookups(1)
        // Given the one place taken by a stalled fetch, another issuer's fetch is refused at once, not queued
        let began = Date()
        #expect(throws: FetchesBusy()) { try fetcher.supportDocument(for: "other.test:8443") }
        #expect(Date().timeIntervalSince(began) < 1)
        resolver.release()
        _ = first.withLock(waitingUntil: { $0 != nil }, timeout: 30) { _ in }
        // Then, with the place free again, the next fetch is tried (and fails on its own account)
        #expect { try fetcher.supportDocument(for: "other.test:8443") } throws: { $0 is BrowserIDError }
    }

    @Test func aLookupGivenUpOnStillCountsUntilItEnds() throws {
        let lookups = TimedLookup(limit: 1)
        let gate = Locked(false)
        #expect(throws: FetchRefusal.self) {
            try lookups.run(within: 0.05) { _ = gate.withLock(waitingUntil: { $0 }) { _ in }; return 1 }
        }
        #expect(lookups.underWay == 1)
        #expect(throws: FetchesBusy()) { try lookups.run(within: 5) { 2 } }
        gate.change { $0 = true }
        #expect(lookups.waitUntilIdle(timeout: 30))
        #expect(try lookups.run(within: 5) { 3 } == 3)
    }
}
