import Foundation
import GRDB
import Testing
@testable import AccountCore

struct AccountTokensTests {
    /// A database with one account (id 1) and its address (id 1).
    func makeDatabase(clock: FixedClock) throws -> AppDatabase {
        let database = try AppDatabase.inMemory()
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO account (id, passwordHash, createdAt, updatedAt) VALUES (1, 'x', 0, 0)")
            try db.execute(sql: """
                INSERT INTO emailAddress (id, accountId, address, normalizedAddress, isPrimary, createdAt)
                VALUES (1, 1, 'a@b.c', 'a@b.c', 1, 0)
                """)
        }
        return database
    }

    @Test func aTokenRedeemsOnceForItsPurposeAndOnlyItsDigestIsStored() throws {
        let clock = FixedClock()
        let tokens = AccountTokens(clock: clock, random: SeededRandomSource(seed: 3))
        let database = try makeDatabase(clock: clock)
        let token = try database.writer.write { db in
            try tokens.issue(.confirmation, accountId: 1, emailAddressId: 1, lifetime: 60, in: db)
        }
        let stored = try database.writer.read { db in try Data.fetchOne(db, sql: "SELECT digest FROM accountToken") }
        #expect(stored == token.digest)
        let results = try database.writer.write { db in
            (otherPurpose: try tokens.redeem(token.encoded, purpose: .reset, in: db),
             redeemable: try tokens.isRedeemable(token.encoded, purpose: .confirmation, in: db),
             first: try tokens.redeem(token.encoded, purpose: .confirmation, in: db),
             second: try tokens.redeem(token.encoded, purpose: .confirmation, in: db),
             redeemableAfter: try tokens.isRedeemable(token.encoded, purpose: .confirmation, in: db))
        }
        #expect(results.otherPurpose == nil, "another purpose")
        #expect(results.redeemable)
        #expect(results.first?.emailAddressId == 1)
        #expect(results.second == nil, "single use")
        #expect(!results.redeemableAfter)
    }

    @Test func aTokenExpiresAtItsLifetime() throws {
        let clock = FixedClock()
        let tokens = AccountTokens(clock: clock, random: SeededRandomSource(seed: 4))
        let database = try makeDatabase(clock: clock)
        let token = try database.writer.write { db in try tokens.issue(.reset, accountId: 1, emailAddressId: nil, lifetime: 3600, in: db) }
        clock.advance(by: 3599)
        #expect(try database.writer.read { db in try tokens.isRedeemable(token.encoded, purpose: .reset, in: db) })
        clock.advance(by: 1)
        let late = try database.writer.write { db in try tokens.redeem(token.encoded, purpose: .reset, in: db) }
        #expect(late == nil)
    }

    @Test func voidingEndsEveryOutstandingTokenOfThatPurpose() throws {
        let clock = FixedClock()
        let tokens = AccountTokens(clock: clock, random: SeededRandomSource(seed: 5))
        let database = try makeDatabase(clock: clock)
        let redeemed = try database.writer.write { db in
            let a = try tokens.issue(.reset, accountId: 1, emailAddressId: nil, lifetime: 60, in: db)
            let b = try tokens.issue(.reset, accountId: 1, emailAddressId: nil, lifetime: 60, in: db)
            let c = try tokens.issue(.confirmation, accountId: 1, emailAddressId: 1, lifetime: 60, in: db)
            try tokens.voidAll(.reset, accountId: 1, in: db)
            return [try tokens.redeem(a.encoded, purpose: .reset, in: db) != nil,
                    try tokens.redeem(b.encoded, purpose: .reset, in: db) != nil,
                    try tokens.redeem(c.encoded, purpose: .confirmation, in: db) != nil]
        }
        #expect(redeemed == [false, false, true])
    }

    @Test func malformedTokensAreNeverFound() throws {
        let clock = FixedClock()
        let tokens = AccountTokens(clock: clock, random: SeededRandomSource(seed: 6))
        let database = try makeDatabase(clock: clock)
        let found = try database.writer.write { db in
            try ["", "short", String(repeating: "A", count: 44), "!" + String(repeating: "A", count: 42)].map {
                try tokens.redeem($0, purpose: .reset, in: db)
            }
        }
        #expect(found.allSatisfy { $0 == nil })
    }
}
