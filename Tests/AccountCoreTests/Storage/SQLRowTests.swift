// SQLRowTests.swift: a row's values by column name, ignoring case, through the column map its result set shares.
import Foundation
import StorageTestKit
import Testing
@testable import AccountCore

struct SQLRowTests {
    @Test func namesAreFoundAsWrittenInAnyCaseAndMissingOnesAreNull() {
        let columns = SQLColumns(["accountId", "Address", "verifiedAt"])
        let row = SQLRow(columns: columns, values: [.integer(7), .text("ann@example.com"), .null])
        #expect(row.value("accountId") == .integer(7))
        #expect(row.value("accountid") == .integer(7), "PostgreSQL folds unquoted names to lower case")
        #expect(row.value("ADDRESS") == .text("ann@example.com") && row.value("address") == .text("ann@example.com"))
        #expect(row.value("verifiedAt") == .null && row.value("nothing") == .null)
        #expect(row["accountId"] as Int64? == 7 && row["nothing"] as Int64? == nil)
        #expect(row.columns == ["accountId", "Address", "verifiedAt"])
    }

    @Test func theFirstOfNamesEqualButForCaseWinsAsBefore() {
        let row = SQLRow(columns: ["id", "ID", "Id"], values: [.integer(1), .integer(2), .integer(3)])
        for name in ["id", "ID", "Id", "iD"] { #expect(row.value(name) == .integer(1), "\(name)") }
    }

    @Test func rowsOfOneResultSetShareTheirColumnsAndCompareByNamesAndValues() throws {
        let database = try TestDatabase.make()
        let rows = try database.read { tx in
            try tx.rows("SELECT 1 AS accountId, 'a' AS address UNION ALL SELECT 2, 'b' ORDER BY 1")
        }
        #expect(rows.map { $0["accountId"] as Int64? } == [1, 2])
        #expect(rows.map { $0["ADDRESS"] as String? } == ["a", "b"])
        #expect(rows[0] == SQLRow(columns: rows[0].columns, values: [.integer(1), .text("a")]), "a row of its own columns equals one of a shared set")
        #expect(rows[0] != rows[1])
        #expect(SQLRow(columns: ["a"], values: [.integer(1)]) != SQLRow(columns: ["b"], values: [.integer(1)]))
    }
}
