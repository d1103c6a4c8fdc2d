// PostgresSessionCacheTests+Usernames.swift: a username or display-name change on one host reaches the other host's
// cache of session lookups (v15-usernames' account_notify trigger), as an address change does.
import Foundation
import Testing
import StorageTestKit
@testable import AccountCore

extension PostgresSessionCacheTests {
    @Test func aUsernameAndADisplayNameChangeReachTheOtherHostsCache() throws {
        let hosts = try twoHosts()
        let digest = Data(repeating: 9, count: 32)
        let id = try account("ann@example.com", session: digest, on: hosts.a)
        _ = try hosts.a.write { tx in try tx.setUsername("ann", of: id) }
        try waitUntil("B reads the username") { try hosts.b.findBrowserSession(digest: digest)?.username == "ann" }
        for _ in 0..<2 { _ = try hosts.b.findBrowserSession(digest: digest) }
        #expect(try #require(hosts.b.figures?.sessionCache).hits >= 1, "B answers from its cache")

        _ = try hosts.a.write { tx in try tx.setUsername("Annie", of: id) }
        let renamed = try waitUntil("B reads the new username") { try hosts.b.findBrowserSession(digest: digest)?.username == "Annie" }
        try hosts.a.write { tx in _ = try tx.execute("UPDATE account SET displayName = 'Ann Lee' WHERE id = ?", [id]) }
        let named = try waitUntil("B reads the display name") { try hosts.b.findBrowserSession(digest: digest)?.displayName == "Ann Lee" }
        #expect(renamed < 1 && named < 1)
    }
}
