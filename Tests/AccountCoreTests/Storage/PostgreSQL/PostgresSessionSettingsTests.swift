// PostgresSessionSettingsTests.swift: what Frontdoor's connections say about themselves holds whatever the server,
// database or role defaults are: writes at READ COMMITTED, UTF-8 text, hex bytea, floats to the last digit.
import Foundation
import Locking
import Testing
import StorageTestKit
@testable import AccountCore

@Suite struct PostgresSessionSettingsTests {
    /// A new database whose defaults are set by `settings` (`name = 'value'` each); returns its URL.
    func database(_ settings: [String]) throws -> String {
        let url = try TestDatabase.makePostgresDatabase()
        let name = try #require(try PostgresBackend(settings: PostgresSettings(url: url)).read { tx in
            try tx.value(String.self, "SELECT current_database()")
        })
        for setting in settings { try PostgresAdmin.run("ALTER DATABASE \(name) SET \(setting)", url: url) }
        return url
    }

    /// Given a database whose default isolation is REPEATABLE READ; when eight writers race to count and insert under
    /// one `serialize(on:)` key, then each sees the one before it: never more than the limit.
    @Test func writesAreReadCommittedWhateverTheDatabasesDefault() throws {
        let backend = try PostgresBackend(settings: PostgresSettings(url: try database(["default_transaction_isolation = 'repeatable read'"])))
        #expect(try backend.read { tx in try tx.value(String.self, "SHOW transaction_isolation") } == "repeatable read")
        #expect(try backend.write { tx in try tx.value(String.self, "SHOW transaction_isolation") } == "read committed")
        _ = Racers.outcomes(8) { _ in
            try backend.write { tx in
                try tx.serialize(on: "limit")
                let count = try tx.value(Int.self, "SELECT COUNT(*) FROM addressBlock") ?? 0
                if count < 3 { try tx.execute("INSERT INTO addressBlock (remoteAddress, blockedUntil) VALUES (?, 0)", [UUID().uuidString]) }
            }
        }
        #expect(try backend.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM addressBlock") } == 3)
    }

    /// Given a database that answers bytea as escapes, text in LATIN1 and floats rounded; then digests, text and times
    /// still come back exactly as written.
    @Test func digestsTextAndTimesReadBackWhateverTheDatabaseSays() throws {
        let url = try database(["bytea_output = 'escape'", "client_encoding = 'LATIN1'", "extra_float_digits = 0"])
        let backend = try PostgresBackend(settings: PostgresSettings(url: url))
        let digest = Data((0..<32).map { UInt8($0 * 7 & 0xff) })
        try backend.write { tx in try tx.execute("INSERT INTO serverSecret (name, value) VALUES ('d', ?)", [digest]) }
        #expect(try backend.read { tx in try tx.value(Data.self, "SELECT value FROM serverSecret WHERE name = 'd'") } == digest)
        #expect(try backend.read { tx in try tx.value(String.self, "SELECT CAST(? AS text)", ["héllo"]) } == "héllo")
        let time = 1_800_000_000.123456789 / 3
        #expect(try backend.read { tx in try tx.value(Double.self, "SELECT CAST(? AS double precision)", [time]) } == time)
    }
}
