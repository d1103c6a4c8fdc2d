import Foundation
import StorageTestKit
import Testing
@testable import AccountCore

struct AccountTests {
    @Test func recordsRoundTripWithDatesAsSecondsSince1970() throws {
        let database = try TestDatabase.make()
        let when = Date(timeIntervalSince1970: 1_800_000_000.5)
        let ids = try database.write { tx in
            try Account.insert(address: "Ann@Example.com", passwordHash: "$argon2id$x", verified: false, language: nil, now: when, in: tx)
        }
        let account = Account(id: ids.account, passwordHash: "$argon2id$x", createdAt: when, updatedAt: when)
        let email = EmailAddress(id: ids.address, accountId: ids.account, address: "Ann@Example.com", normalizedAddress: "ann@example.com",
                                 isPrimary: true, verifiedAt: nil, createdAt: when)
        let stored = try database.read { tx in
            (try tx.row("SELECT * FROM account WHERE id = ?", [ids.account]).map(Account.init(row:)),
             try tx.emailAddress(holding: "ann@example.com"),
             try tx.row("""
                SELECT a.createdAt AS accountCreated, a.updatedAt AS accountUpdated, e.createdAt AS addressCreated
                FROM account a JOIN emailAddress e ON e.accountId = a.id
                """))
        }
        #expect(stored.0 == account)
        #expect(stored.1 == email)
        // The schema declares these columns `double`, and the rest of AccountCore writes and compares them as seconds
        // since 1970 (sessions, tokens, mail); the records must store them the same way, not as date text.
        let row = try #require(stored.2)
        #expect(row.value("accountCreated") == .real(1_800_000_000.5))
        #expect(row.value("accountUpdated") == .real(1_800_000_000.5))
        #expect(row.value("addressCreated") == .real(1_800_000_000.5))
    }

    @Test func anAddressBelongsToOneAccountAndAnAccountHasOnePrimaryAddress() throws {
        let database = try TestDatabase.make()
        let (first, second) = try database.write { tx in
            let ids = try (1...2).map { _ in
                try tx.insert("INSERT INTO account (passwordHash, createdAt, updatedAt) VALUES ('x', 0, 0) RETURNING id")
            }
            try tx.execute("INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, createdAt) VALUES (?, 'a@b.c', 'a@b.c', TRUE, 0)",
                           [ids[0]])
            return (ids[0], ids[1])
        }
        #expect(throws: StorageError.self, "same normalized address on another account") {
            try database.write { tx in
                try tx.execute("INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, createdAt) VALUES (?, 'A@B.C', 'a@b.c', TRUE, 0)",
                               [second])
            }
        }
        #expect(throws: StorageError.self, "a second primary address") {
            try database.write { tx in
                try tx.execute("INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, createdAt) VALUES (?, 'x@b.c', 'x@b.c', TRUE, 0)",
                               [first])
            }
        }
        try database.write { tx in
            try tx.execute("INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, createdAt) VALUES (?, 'y@b.c', 'y@b.c', FALSE, 0)",
                           [first])
        }
        #expect(try database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM emailAddress") } == 2, "secondary addresses are fine")
    }
}
