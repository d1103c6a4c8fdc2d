import Foundation
import GRDB
import Testing
@testable import AccountCore

struct AccountTests {
    @Test func recordsRoundTripWithDatesAsSecondsSince1970() throws {
        let database = try AppDatabase.inMemory()
        let when = Date(timeIntervalSince1970: 1_800_000_000.5)
        let (account, email) = try database.writer.write { db in
            var account = Account(id: nil, passwordHash: "$argon2id$x", createdAt: when, updatedAt: when)
            try account.insert(db)
            var email = EmailAddress(id: nil, accountId: account.id!, address: "Ann@Example.com", normalizedAddress: "ann@example.com",
                                     isPrimary: true, verifiedAt: nil, createdAt: when)
            try email.insert(db)
            return (account, email)
        }
        #expect(account.id != nil && email.id != nil)
        let stored = try database.writer.read { db in
            (try Account.fetchOne(db, key: account.id), try EmailAddress.fetchOne(db, key: email.id),
             try Row.fetchOne(db, sql: """
                SELECT typeof(a.createdAt), a.createdAt, typeof(a.updatedAt), typeof(e.createdAt), e.createdAt
                FROM account a JOIN emailAddress e ON e.accountId = a.id
                """))
        }
        #expect(stored.0 == account)
        #expect(stored.1 == email)
        // The schema declares these columns `double`, and the rest of AccountCore writes and compares them as seconds
        // since 1970 (sessions, tokens, mail); the records must store them the same way, not as date text.
        let row = try #require(stored.2)
        #expect([row[0], row[2], row[3]] as [String] == ["real", "real", "real"])
        #expect(row[1] as DatabaseValue == 1_800_000_000.5.databaseValue)
        #expect(row[4] as DatabaseValue == 1_800_000_000.5.databaseValue)
    }

    @Test func anAddressBelongsToOneAccountAndAnAccountHasOnePrimaryAddress() throws {
        let database = try AppDatabase.inMemory()
        try database.writer.write { db in
            for id in 1...2 { try db.execute(sql: "INSERT INTO account (id, passwordHash, createdAt, updatedAt) VALUES (?, 'x', 0, 0)", arguments: [id]) }
            try db.execute(sql: "INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, createdAt) VALUES (1, 'a@b.c', 'a@b.c', 1, 0)")
        }
        #expect(throws: DatabaseError.self, "same normalized address on another account") {
            try database.writer.write { db in
                try db.execute(sql: "INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, createdAt) VALUES (2, 'A@B.C', 'a@b.c', 1, 0)")
            }
        }
        #expect(throws: DatabaseError.self, "a second primary address") {
            try database.writer.write { db in
                try db.execute(sql: "INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, createdAt) VALUES (1, 'x@b.c', 'x@b.c', 1, 0)")
            }
        }
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, createdAt) VALUES (1, 'y@b.c', 'y@b.c', 0, 0)")
        }
        #expect(try database.writer.read { db in try EmailAddress.fetchCount(db) } == 2, "secondary addresses are fine")
    }
}
