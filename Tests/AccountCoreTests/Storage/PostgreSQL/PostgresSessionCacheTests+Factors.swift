// PostgresSessionCacheTests+Factors.swift: a step-up on one host (the session raised to two factors) reaches the other
// host's cache of session lookups (v16-second-factor's session_factors_notify trigger), so a gate demanding `2fa`
// there admits at once, and this host's own cache forgets the one-factor lookup with the write.
import Foundation
import Testing
import StorageTestKit
@testable import AccountCore

extension PostgresSessionCacheTests {
    @Test func aStepUpReachesBothHostsCaches() throws {
        let hosts = try twoHosts()
        let digest = Data(repeating: 7, count: 32)
        let id = try account("ann@example.com", session: digest, on: hosts.a)
        try waitUntil("B reads one factor") { try hosts.b.findBrowserSession(digest: digest)?.factors == 1 }
        for _ in 0..<2 {
            #expect(try hosts.a.findBrowserSession(digest: digest)?.factors == 1)
            _ = try hosts.b.findBrowserSession(digest: digest)
        }
        #expect(try #require(hosts.b.figures?.sessionCache).hits >= 1, "B answers from its cache")

        _ = try hosts.a.write { tx in try tx.raiseSessionFactors(digest: digest, of: id, at: Date(timeIntervalSince1970: 1_800_000_000)) }
        #expect(try hosts.a.findBrowserSession(digest: digest)?.factors == 2, "A's own cache forgot it with the write")
        let raised = try waitUntil("B reads two factors") { try hosts.b.findBrowserSession(digest: digest)?.factors == 2 }
        #expect(raised < 1)
    }
}
