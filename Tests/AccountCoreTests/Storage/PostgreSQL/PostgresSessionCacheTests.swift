// PostgresSessionCacheTests.swift: two PostgresBackends on one database, as two hosts: each keeps its own cache of
// session lookups; a change on one reaches the other through LISTEN/NOTIFY, the host that made it forgets at once,
// and a lost listener connection empties the cache until it listens again.
import Foundation
import Testing
import StorageTestKit
@testable import AccountCore

@Suite struct PostgresSessionCacheTests {
    struct Hosts {
        let a: PostgresBackend
        let b: PostgresBackend
        let url: String
    }

    func twoHosts(maxAge: TimeInterval = 60) throws -> Hosts {
        let url = try TestDatabase.makePostgresDatabase()
        let hosts = Hosts(a: try PostgresBackend(settings: PostgresSettings(url: url, sessionCacheMaxAge: maxAge)),
                          b: try PostgresBackend(settings: PostgresSettings(url: url, sessionCacheMaxAge: maxAge)), url: url)
        try waitUntil("both hosts listen") { listening(hosts.a) && listening(hosts.b) }
        return hosts
    }

    func listening(_ backend: PostgresBackend) -> Bool { backend.figures?.sessionCache?.listening == true }

    /// Polls `condition` every millisecond for up to `seconds`; returns how long it took.
    @discardableResult
    func waitUntil(_ what: String, seconds: Double = 5, _ condition: () throws -> Bool) throws -> Double {
        let start = Date()
        while try !condition() {
            guard Date().timeIntervalSince(start) < seconds else { throw StorageError.failed("timed out waiting until \(what)") }
            usleep(1000)
        }
        return Date().timeIntervalSince(start)
    }

    /// An account with a primary address and one browser session; returns the account id.
    func account(_ email: String, session digest: Data, on backend: PostgresBackend) throws -> Int64 {
        try backend.write { tx in
            let id = try tx.insert("INSERT INTO account (passwordHash, createdAt, updatedAt) VALUES ('x', 1, 1) RETURNING id")
            try tx.execute("INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt) VALUES (?, ?, ?, TRUE, 1, 1)",
                           [id, email, email])
            try tx.insertSession(digest: digest, accountId: id, now: Date(), expiresAt: Date() + 3600, rememberMe: false,
                                 client: ClientInfo(), kind: .browser)
            return id
        }
    }

    @Test func aSignOutOnOneHostReachesTheOthersCacheWithinASecond() throws {
        let hosts = try twoHosts()
        let digest = Data(repeating: 1, count: 32)
        let id = try account("ann@example.com", session: digest, on: hosts.a)
        for _ in 0..<3 { #expect(try hosts.b.findBrowserSession(digest: digest)?.accountId == id) }
        #expect(try #require(hosts.b.figures?.sessionCache).hits >= 2, "B answers from its cache")
        let tripsBefore = try #require(hosts.b.figures).roundTrips
        _ = try hosts.b.findBrowserSession(digest: digest)
        #expect(try #require(hosts.b.figures).roundTrips == tripsBefore, "a hit costs no round trip")

        try hosts.a.write { tx in _ = try tx.deleteSession(digest: digest, at: Date()) }
        #expect(try hosts.a.findBrowserSession(digest: digest) == nil, "the host that signed out forgets at once")
        let delay = try waitUntil("B forgets the session") { try hosts.b.findBrowserSession(digest: digest) == nil }
        #expect(delay < 1)
        #expect(try #require(hosts.b.figures?.sessionCache).invalidations >= 1)
    }

    @Test func aPrimaryAddressChangeAndAnAccountDeletionReachTheOtherHost() throws {
        let hosts = try twoHosts()
        let digest = Data(repeating: 2, count: 32)
        let id = try account("bob@example.com", session: digest, on: hosts.a)
        #expect(try hosts.b.findBrowserSession(digest: digest)?.email == "bob@example.com")
        let switched = try hosts.a.write { tx in
            let other = try tx.insert("""
                INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt)
                VALUES (?, 'robert@example.com', 'robert@example.com', FALSE, 1, 1) RETURNING id
                """, [id])
            return try tx.switchPrimaryAddress(of: id, to: other)
        }
        #expect(switched)
        try waitUntil("B reads the new primary address") { try hosts.b.findBrowserSession(digest: digest)?.email == "robert@example.com" }
        #expect(try hosts.a.write { tx in try tx.deleteAccountRow(id, at: Date()) })
        try waitUntil("B forgets the deleted account's session") { try hosts.b.findBrowserSession(digest: digest) == nil }
    }

    @Test func aConfirmationOfThePrimaryAddressReachesTheOtherHost() throws {
        let hosts = try twoHosts()
        let digest = Data(repeating: 4, count: 32)
        let id = try account("dee@example.com", session: digest, on: hosts.a)
        try hosts.a.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = NULL WHERE accountId = ?", [id]) }
        try waitUntil("B reads the address as unverified") { try hosts.b.findBrowserSession(digest: digest)?.emailVerified == false }
        #expect(try hosts.b.findBrowserSession(digest: digest)?.emailVerified == false, "kept in B's cache")
        let addressId = try #require(try hosts.a.read { tx in try tx.primaryAddressId(accountId: id) })
        _ = try hosts.a.write { tx in try tx.markAddressVerified(id: addressId, at: Date()) }
        #expect(try hosts.a.findBrowserSession(digest: digest)?.emailVerified == true, "the host that confirmed forgets at once")
        let delay = try waitUntil("B reads the address as verified") { try hosts.b.findBrowserSession(digest: digest)?.emailVerified == true }
        #expect(delay < 1)
    }

    @Test func aChangeMadeOutsideFrontdoorReachesBothHostsToo() throws {
        let hosts = try twoHosts()
        let digest = Data(repeating: 3, count: 32)
        _ = try account("cy@example.com", session: digest, on: hosts.a)
        #expect(try hosts.a.findBrowserSession(digest: digest) != nil && hosts.b.findBrowserSession(digest: digest) != nil)
        try PostgresAdmin.run("DELETE FROM session", url: hosts.url)   // an operator with psql: only the trigger knows
        for host in [hosts.a, hosts.b] {
            try waitUntil("the host forgets") { try host.findBrowserSession(digest: digest) == nil }
        }
    }

    @Test func aLostListenerEmptiesTheCacheUntilItListensAgain() throws {
        let hosts = try twoHosts()
        let digest = Data(repeating: 4, count: 32)
        _ = try account("di@example.com", session: digest, on: hosts.a)
        _ = try hosts.b.findBrowserSession(digest: digest)
        #expect(try #require(hosts.b.figures?.sessionCache).entries == 1)
        let resets = try #require(hosts.b.figures?.sessionCache).resets
        // The server drops every listener connection (as a failover would): its last statement is LISTEN or a heartbeat.
        // Only this test's database: the other tests run at the same time on the same server, and a listener of theirs
        // dropped empties their caches behind their backs (a sign-out test once saw its session forgotten by no
        // invalidation at all).
        try PostgresAdmin.run("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE (query LIKE 'LISTEN%' OR query LIKE 'NOTIFY%') "
                              + "AND datname = current_database() AND pid <> pg_backend_pid()", url: hosts.url)
        try waitUntil("B noticed and listens again", seconds: 10) {
            let figures = try #require(hosts.b.figures?.sessionCache)
            return figures.resets >= resets + 2 && figures.listening
        }
        #expect(try #require(hosts.b.figures?.sessionCache).entries == 0, "nothing cached from before survives")
        #expect(try hosts.b.findBrowserSession(digest: digest) != nil, "and lookups go on")
    }

    @Test func withoutACacheEveryLookupIsARoundTrip() throws {
        let url = try TestDatabase.makePostgresDatabase()
        let plain = try PostgresBackend(settings: PostgresSettings(url: url))
        let digest = Data(repeating: 5, count: 32)
        _ = try account("ed@example.com", session: digest, on: plain)
        _ = try plain.findBrowserSession(digest: digest)   // prepares the statement
        let before = try #require(plain.figures).roundTrips
        for _ in 0..<3 { _ = try plain.findBrowserSession(digest: digest) }
        #expect(try #require(plain.figures).roundTrips == before + 3 && plain.figures?.sessionCache == nil)
    }
}
