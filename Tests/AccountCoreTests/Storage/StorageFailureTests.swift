import Foundation
import GRDB
import Testing
@testable import AccountCore

/// A capped database file (`AppDatabase.open(path:maxSizeMB:)`) refuses the write that would grow it, as a storage
/// failure, and keeps everything written before; other database errors are not storage failures.
struct StorageFailureTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("storage-\(UUID().uuidString)/frontdoor.sqlite").path
    }

    @Test func aCappedFileRefusesTheWriteThatWouldGrowItAndRollsItBack() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let database = try AppDatabase.open(path: path, maxSizeMB: 1)
        try database.writer.write { db in try db.execute(sql: "CREATE TABLE filler (data BLOB)") }
        var refused: (any Error)?
        for _ in 0..<600 where refused == nil {
            do {
                try database.writer.write { db in
                    try db.execute(sql: "INSERT INTO filler VALUES (zeroblob(1000))")
                    try db.execute(sql: "INSERT INTO filler VALUES (zeroblob(1000))")
                }
            } catch {
                refused = error
            }
        }
        let error = try #require(refused)
        #expect(StorageFailure.isUnavailable(error))
        let (pages, pageSize, rows) = try database.writer.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA page_count")!, try Int.fetchOne(db, sql: "PRAGMA page_size")!,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM filler")!)
        }
        #expect(pages * pageSize <= 1 << 20)
        #expect(rows % 2 == 0)   // the refused transaction left neither of its two rows
    }

    @Test func otherErrorsAreNotStorageFailures() throws {
        let database = try AppDatabase.inMemory()
        let constraint = #expect(throws: DatabaseError.self) {
            try database.writer.write { db in
                try db.execute(sql: "CREATE TABLE t (x UNIQUE)")
                try db.execute(sql: "INSERT INTO t VALUES (1), (1)")
            }
        }
        #expect(constraint.map(StorageFailure.isUnavailable) == false)
        #expect(!StorageFailure.isUnavailable(CocoaError(.fileNoSuchFile)))
        #expect(StorageFailure.isUnavailable(DatabaseError(resultCode: .SQLITE_FULL)))
        #expect(StorageFailure.isUnavailable(DatabaseError(resultCode: .SQLITE_BUSY)))
    }
}
