// SQLiteStatementCacheTests.swift: the SQLite seam reuses GRDB's cached statements and leaves none holding the
// arguments of its last use (api-fuzz under LeakSanitizer is the other guard), also after a statement that failed.
import Foundation
import GRDB
import GRDBSQLite
import Testing
@testable import AccountCore

struct SQLiteStatementCacheTests {
    private func writer() throws -> any DatabaseWriter {
        let database = try AppDatabase.inMemory()
        return try #require(database.backend as? SQLiteBackend).writer
    }

    /// The statement as SQLite would run it now, bound values spelled out.
    private func expanded(_ statement: Statement) -> String {
        guard let text = sqlite3_expanded_sql(statement.sqliteStatement) else { return "" }
        defer { sqlite3_free(text) }
        return String(cString: text)
    }

    @Test func aCachedStatementKeepsNoArgumentsAfterAQueryOrAnExecute() throws {
        try writer().write { db in
            let connection = SQLiteConnection(db: db)
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB NOT NULL)")
            let blob = Data(repeating: 7, count: 32)
            #expect(try connection.execute("INSERT INTO t (id, data) VALUES (?, ?)", [1, blob]) == 1)
            let rows = try connection.query("SELECT id, data FROM t WHERE data = ?", [blob])
            #expect(rows.count == 1 && rows[0]["data"] as Data? == blob)
            for sql in ["INSERT INTO t (id, data) VALUES (?, ?)", "SELECT id, data FROM t WHERE data = ?"] {
                let statement = try db.cachedStatement(sql: sql)
                #expect(statement.arguments.isEmpty, "GRDB's copy of the last arguments: \(sql)")
                #expect(!expanded(statement).contains("x'07"), "SQLite's bindings: \(expanded(statement))")
            }
            // The seam ran the cached statements themselves (not fresh ones), and runs them again.
            _ = try connection.query("SELECT id, data FROM t WHERE data = ?", [Data([1])])
            let select = try db.cachedStatement(sql: "SELECT id, data FROM t WHERE data = ?")
            #expect(sqlite3_stmt_status(select.sqliteStatement, SQLITE_STMTSTATUS_RUN, 0) == 2)
            let insert = try db.cachedStatement(sql: "INSERT INTO t (id, data) VALUES (?, ?)")
            #expect(sqlite3_stmt_status(insert.sqliteStatement, SQLITE_STMTSTATUS_RUN, 0) == 1)
        }
    }

    @Test func aStatementWhoseStepFailedWorksAgainOnItsNextUse() throws {
        try writer().write { db in
            let connection = SQLiteConnection(db: db)
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB NOT NULL UNIQUE)")
            let insert = "INSERT INTO t (id, data) VALUES (?, ?)"
            #expect(try connection.execute(insert, [1, Data([1])]) == 1)
            #expect(throws: StorageError.self) { try connection.execute(insert, [2, Data([1])]) }
            #expect(try connection.execute(insert, [3, Data([3])]) == 1)
            #expect(try connection.query("SELECT id FROM t ORDER BY id", []).map { $0["id"] as Int64? } == [1, 3])
        }
    }

    /// `SQLiteBackend.write` begins and commits with cached statements; a body that fails rolls everything back, and
    /// once the transaction is gone (SQLite rolls back by itself on some errors; here the body does) no later statement
    /// of the body runs on its own in autocommit mode.
    @Test func aWriteCommitsOrRollsBackWholeAndRefusesStatementsAfterItsTransactionEnded() throws {
        let database = try AppDatabase.inMemory()
        _ = try database.write { tx in try tx.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        #expect(try database.write { tx in try tx.execute("INSERT INTO t (id) VALUES (1)") } == 1)
        #expect(throws: StorageError.self) {
            try database.write { tx in
                _ = try tx.execute("INSERT INTO t (id) VALUES (2)")
                _ = try tx.execute("INSERT INTO t (id) VALUES (1)")   // unique: the whole write goes
            }
        }
        let refused = #expect(throws: StorageError.self) {
            try database.write { tx in
                _ = try tx.execute("INSERT INTO t (id) VALUES (3)")
                _ = try tx.execute("ROLLBACK")
                _ = try tx.execute("INSERT INTO t (id) VALUES (4)")
            }
        }
        #expect(refused.map(StorageFailure.isUnavailable) == true)
        #expect(try database.read { tx in try tx.values(Int64.self, "SELECT id FROM t ORDER BY id") } == [1])
        #expect(try database.write { tx in try tx.execute("INSERT INTO t (id) VALUES (5)") } == 1, "the writer is usable again")
    }
}
