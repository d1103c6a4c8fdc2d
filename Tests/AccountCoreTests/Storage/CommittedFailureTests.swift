// CommittedFailureTests.swift: a write body that throws CommittedFailure commits, then its inner error comes out; any
// other error still rolls back. Runs on the suite's backend (FRONTDOOR_TEST_BACKEND).
import Foundation
import StorageTestKit
import Testing
@testable import AccountCore

struct CommittedFailureTests {
    private struct Refused: Error, Equatable { let reason: String }

    private func stored(_ database: AppDatabase, _ name: String) throws -> [UInt8]? {
        try database.storedValue(named: name)
    }

    @Test func aCommittedFailureKeepsTheWritesAndThrowsTheInnerError() throws {
        let database = try TestDatabase.make()
        #expect(throws: Refused(reason: "reused")) {
            try database.write { tx -> Int in
                try tx.execute("INSERT INTO serverSecret (name, value) VALUES ('kept', ?)", [Data([1, 2, 3])])
                throw CommittedFailure(Refused(reason: "reused"))
            }
        }
        #expect(try stored(database, "kept") == [1, 2, 3])
    }

    @Test func anyOtherErrorStillRollsBack() throws {
        let database = try TestDatabase.make()
        #expect(throws: Refused(reason: "plain")) {
            try database.write { tx in
                try tx.execute("INSERT INTO serverSecret (name, value) VALUES ('undone', ?)", [Data([1])])
                throw Refused(reason: "plain")
            }
        }
        #expect(try stored(database, "undone") == nil)
    }

    @Test func aCommittedFailureAfterASavepointFailureKeepsOnlyWhatStood() throws {
        let database = try TestDatabase.make()
        #expect(throws: Refused(reason: "after savepoint")) {
            try database.write { tx -> Void in
                try tx.execute("INSERT INTO serverSecret (name, value) VALUES ('first', ?)", [Data([1])])
                _ = try? tx.savepoint { try tx.execute("INSERT INTO serverSecret (name, value) VALUES ('first', ?)", [Data([2])]) }
                throw CommittedFailure(Refused(reason: "after savepoint"))
            }
        }
        #expect(try stored(database, "first") == [1])
    }

    @Test func aCommittedFailureWhoseTransactionCannotCommitThrowsTheStorageError() throws {
        // A body that let a failed statement through (PostgreSQL: the transaction is aborted) cannot commit: the
        // caller hears the storage failure, never a success and never a "committed" refusal that was not.
        let database = try TestDatabase.make()
        do {
            try database.write { tx -> Void in
                try tx.execute("INSERT INTO serverSecret (name, value) VALUES ('x', ?)", [Data([1])])
                _ = try? tx.execute("INSERT INTO serverSecret (name, value) VALUES ('x', ?)", [Data([2])])
                throw CommittedFailure(Refused(reason: "late"))
            }
        } catch let refused as Refused {
            // SQLite keeps the transaction after a failed statement: the first insert commits.
            #expect(database.backend.dialect == .sqlite && refused.reason == "late")
            #expect(try stored(database, "x") == [1])
            return
        } catch {
            #expect(database.backend.dialect == .postgresql, "\(error)")
            #expect(try stored(database, "x") == nil)
        }
    }
}
