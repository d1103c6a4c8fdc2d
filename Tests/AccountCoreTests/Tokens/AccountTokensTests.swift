import Foundation
import StorageTestKit
import Testing
@testable import AccountCore

struct AccountTokensTests {
    /// A database with one account (id 1) and its address (id 1).
    func makeDatabase(clock: FixedClock) throws -> AppDatabase {
        let database = try TestDatabase.make()
        try database.write { tx in
            try tx.execute("INSERT INTO account (id, passwordHash, createdAt, updatedAt) VALUES (1, 'x', 0, 0)")
            try tx.execute("""
                INSERT INTO emailAddress (id, accountId, address, normalizedAddress, isPrimary, createdAt)
                VALUES (1, 1, 'a@b.c', 'a@b.c', TRUE, 0)
                """)
        }
        return database
    }

    @Test func aTokenRedeemsOnceForItsPurposeAndOnlyItsDigestIsStored() throws {
        let clock = FixedClock()
        let tokens = AccountTokens(clock: clock, random: SeededRandomSource(seed: 3))
        let database = try makeDatabase(clock: clock)
        let token = try database.write { tx in
            try tokens.issue(.confirmation, accountId: 1, emailAddressId: 1, lifetime: 60, in: tx)
        }
        let stored = try database.read { tx in try tx.value(Data.self, "SELECT digest FROM accountToken") }
        #expect(stored == token.digest)
        let results = try database.write { tx in
            (otherPurpose: try tokens.redeem(token.encoded, purpose: .reset, in: tx),
             redeemable: try tokens.isRedeemable(token.encoded, purpose: .confirmation, in: tx),
             first: try tokens.redeem(token.encoded, purpose: .confirmation, in: tx),
             second: try tokens.redeem(token.encoded, purpose: .confirmation, in: tx),
             redeemableAfter: try tokens.isRedeemable(token.encoded, purpose: .confirmation, in: tx))
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
        let token = try database.write { tx in try tokens.issue(.reset, accountId: 1, emailAddressId: nil, lifetime: 3600, in: tx) }
        clock.advance(by: 3599)
        #expect(try database.read { tx in try tokens.isRedeemable(token.encoded, purpose: .reset, in: tx) })
        clock.advance(by: 1)
        let late = try database.write { tx in try tokens.redeem(token.encoded, purpose: .reset, in: tx) }
        #expect(late == nil)
    }

    @Test func voidingEndsEveryOutstandingTokenOfThatPurpose() throws {
        let clock = FixedClock()
        let tokens = AccountTokens(clock: clock, random: SeededRandomSource(seed: 5))
        let database = try makeDatabase(clock: clock)
        let redeemed = try database.write { tx in
            let a = try tokens.issue(.reset, accountId: 1, emailAddressId: nil, lifetime: 60, in: tx)
            let b = try tokens.issue(.reset, accountId: 1, emailAddressId: nil, lifetime: 60, in: tx)
            let c = try tokens.issue(.confirmation, accountId: 1, emailAddressId: 1, lifetime: 60, in: tx)
            try tokens.voidAll(.reset, accountId: 1, in: tx)
            return [try tokens.redeem(a.encoded, purpose: .reset, in: tx) != nil,
                    try tokens.redeem(b.encoded, purpose: .reset, in: tx) != nil,
                    try tokens.redeem(c.encoded, purpose: .confirmation, in: tx) != nil]
        }
        #expect(redeemed == [false, false, true])
    }

    @Test func malformedTokensAreNeverFound() throws {
        let clock = FixedClock()
        let tokens = AccountTokens(clock: clock, random: SeededRandomSource(seed: 6))
        let database = try makeDatabase(clock: clock)
        let found = try database.write { tx in
            try ["", "short", String(repeating: "A", count: 44), "!" + String(repeating: "A", count: 42)].map {
                try tokens.redeem($0, purpose: .reset, in: tx)
            }
        }
        #expect(found.allSatisfy { $0 == nil })
    }
}
