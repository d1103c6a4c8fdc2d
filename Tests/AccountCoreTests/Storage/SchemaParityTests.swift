// SchemaParityTests.swift: the two schema histories (SQLiteMigrations.swift, PostgresMigrations.swift) end in the same
// schema. A new SQLite file and a new PostgreSQL database (StorageTestKit's private cluster) are migrated, and their
// catalogs compared: tables; columns (name, nullability, type family); primary keys; indexes (columns, unique, partial
// predicate; named ones by name); foreign keys (column, target, ON DELETE); and the number of CHECK constraints per
// table. Names compare ignoring case (PostgreSQL folds unquoted identifiers), and an index name's `index_` prefix is
// left out: GRDB names the index of a `belongsTo` column `<table>_on_<column>`, and PostgresMigrations wrote the same
// index as `index_<table>_on_<column>` from v1 on (no statement names an index; renaming would gain nothing). Triggers
// are not compared: PostgreSQL needs functions where SQLite has a body, and its notification triggers have no SQLite
// counterpart.
import Foundation
import Testing
import StorageTestKit
@testable import AccountCore

@Suite struct SchemaParityTests {
    /// Real differences, each with its reason (entries as `SchemaShape.lines` writes them, on the side that has them).
    /// A difference found later goes here only with its reason; otherwise a new step (on both lists) fixes it.
    static let allowedOnlyInSQLite: [String: String] = [
        "index profilevalue_on_accountid on profilevalue (accountid)":
            "GRDB's belongsTo indexes the column although the primary key (accountId, field) starts with it; PostgreSQL's step left the redundant index out",
        "index signinfailure_on_accountid on signinfailure (accountid)":
            "GRDB's belongsTo indexes the column although signInFailure_account (accountId, createdAt) starts with it; PostgreSQL's step left the redundant index out",
    ]
    static let allowedOnlyInPostgreSQL: [String: String] = [:]

    @Test func sqliteAndPostgreSQLMigrateToTheSameSchema() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = try AppDatabase.open(path: folder.appendingPathComponent("frontdoor.sqlite").path)
        let postgres = AppDatabase(backend: try PostgresBackend(settings: PostgresSettings(url: try TestDatabase.makePostgresDatabase(migrated: false))))
        try postgres.migrate()
        #expect(try sqlite.appliedMigrations() == postgres.appliedMigrations(), "the same steps, in the same order")

        let lite = try sqlite.read { tx in try SchemaShape.sqlite(tx) }.lines
        let pg = try postgres.read { tx in try SchemaShape.postgres(tx) }.lines
        for kind in ["table ", "column ", "primary key ", "index ", "foreign key ", "checks "] {
            #expect(lite.contains { $0.hasPrefix(kind) } && pg.contains { $0.hasPrefix(kind) }, "both catalogs give \(kind)lines")
        }
        #expect(lite.contains { $0.contains(" where ") } && lite.contains { $0.hasPrefix("index on ") }, "partial and constraint indexes read")
        let onlyLite = lite.subtracting(pg).filter { Self.allowedOnlyInSQLite[$0] == nil }
        let onlyPG = pg.subtracting(lite).filter { Self.allowedOnlyInPostgreSQL[$0] == nil }
        #expect(onlyLite.isEmpty, "only in SQLite:\n\(onlyLite.sorted().joined(separator: "\n"))")
        #expect(onlyPG.isEmpty, "only in PostgreSQL:\n\(onlyPG.sorted().joined(separator: "\n"))")
    }
}

/// A schema as comparable lines, one per table, column, key, index, foreign key and check count.
struct SchemaShape {
    var lines: Set<String> = []

    /// A declared SQLite type or a PostgreSQL `data_type` as the family both sides agree on.
    static func family(_ type: String) -> String {
        let type = type.lowercased()
        if type.contains("int") { return "integer" }
        if type.contains("double") || type.contains("real") || type.contains("float") || type.contains("numeric") { return "real" }
        if type.contains("text") || type.contains("char") || type.contains("clob") { return "text" }
        if type.contains("blob") || type.contains("bytea") { return "blob" }
        if type.contains("bool") { return "boolean" }
        return "other(\(type))"
    }

    /// A partial index's predicate with case, quotes, parentheses and spaces left out.
    static func predicate(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "" }
        return " where " + text.lowercased().filter { !"\"() \n\t".contains($0) }
    }

    mutating func index(table: String, name: String, columns: [String], unique: Bool, predicate: String?, fromConstraint: Bool) {
        let shape = "(\(columns.map { $0.lowercased() }.joined(separator: ", ")))\(unique ? " unique" : "")\(Self.predicate(predicate))"
        // A UNIQUE column's index is named by each engine itself (sqlite_autoindex_…, …_key): compared by shape only.
        var name = name.lowercased()
        if name.hasPrefix("index_") { name.removeFirst("index_".count) }
        lines.insert(fromConstraint ? "index on \(table.lowercased()) \(shape)" : "index \(name) on \(table.lowercased()) \(shape)")
    }

    static func sqlite(_ tx: Transaction) throws -> SchemaShape {
        var shape = SchemaShape()
        let tables = try SQLiteCatalog.tables(tx).filter { $0 != "grdb_migrations" }
        for table in tables {
            let t = table.lowercased()
            shape.lines.insert("table \(t)")
            let columns = try tx.rows("SELECT name, type, \"notnull\" AS required, pk FROM pragma_table_info(?) ORDER BY cid", [table])
            var key: [(Int, String)] = []
            for column in columns {
                let name: String = try column.decode("name"), pk: Int = try column.decode("pk")
                let required = try column.decode("required", as: Int.self) == 1 || pk > 0   // a key is never NULL on PostgreSQL
                shape.lines.insert("column \(t).\(name.lowercased()) \(family(try column.decode("type"))) \(required ? "not null" : "null")")
                if pk > 0 { key.append((pk, name.lowercased())) }
            }
            if !key.isEmpty { shape.lines.insert("primary key \(t) (\(key.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: ", ")))") }
            for index in try tx.rows("SELECT name, \"unique\" AS isUnique, origin, partial FROM pragma_index_list(?)", [table]) {
                let name: String = try index.decode("name"), origin: String = try index.decode("origin")
                guard origin != "pk" else { continue }
                let columns = try tx.values(String.self, "SELECT COALESCE(name, '(expression)') AS name FROM pragma_index_info(?) ORDER BY seqno", [name])
                var predicate: String?
                if try index.decode("partial", as: Int.self) == 1,
                   let sql = try tx.value(String.self, "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", [name]),
                   let range = sql.range(of: " WHERE ", options: [.caseInsensitive, .backwards]) {
                    predicate = String(sql[range.upperBound...])
                }
                shape.index(table: table, name: name, columns: columns, unique: try index.decode("isUnique", as: Int.self) == 1,
                            predicate: predicate, fromConstraint: origin == "u")
            }
            for key in try tx.rows("SELECT \"from\" AS source, \"table\" AS target, \"to\" AS targetColumn, on_delete AS onDelete FROM pragma_foreign_key_list(?)", [table]) {
                let target: String = try key.decode("target")
                var targetColumn = key["targetColumn"] as String?
                if targetColumn == nil { targetColumn = try tx.value(String.self, "SELECT name FROM pragma_table_info(?) WHERE pk = 1", [target]) }
                shape.lines.insert("foreign key \(t).\((try key.decode("source", as: String.self)).lowercased()) -> "
                                   + "\(target.lowercased()).\((targetColumn ?? "?").lowercased()) on delete \((try key.decode("onDelete", as: String.self)).lowercased())")
            }
            let sql = try tx.value(String.self, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [table]) ?? ""
            let checks = sql.matches(of: try Regex(#"(?i)\bCHECK\s*\("#)).count
            if checks > 0 { shape.lines.insert("checks \(t) \(checks)") }
        }
        return shape
    }

    static func postgres(_ tx: Transaction) throws -> SchemaShape {
        var shape = SchemaShape()
        let tables = try PostgresCatalog.tables(tx).filter { $0 != "schemamigration" }
        for t in tables {
            shape.lines.insert("table \(t)")
            for column in try tx.rows("""
                SELECT column_name AS name, data_type AS type, is_nullable AS nullable FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = ?
                """, [t]) {
                let nullable: String = try column.decode("nullable")
                shape.lines.insert("column \(t).\(try column.decode("name", as: String.self)) \(family(try column.decode("type"))) \(nullable == "YES" ? "null" : "not null")")
            }
        }
        let indexes = try tx.rows("""
            SELECT c.relname AS name, t.relname AS tableName, i.indisunique AS isUnique, i.indisprimary AS isPrimary,
                pg_get_expr(i.indpred, i.indrelid) AS predicate,
                (SELECT string_agg(COALESCE(a.attname, '(expression)'), ',' ORDER BY k.n)
                 FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
                 LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum) AS columns,
                EXISTS (SELECT 1 FROM pg_constraint co WHERE co.conindid = i.indexrelid AND co.contype = 'u') AS fromConstraint
            FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
            WHERE t.relnamespace = current_schema()::regnamespace AND t.relname <> 'schemamigration'
            """)
        for index in indexes {
            let table: String = try index.decode("tableName"), columns = (try index.decode("columns", as: String.self)).split(separator: ",").map(String.init)
            if try index.decode("isPrimary", as: Bool.self) {
                shape.lines.insert("primary key \(table) (\(columns.joined(separator: ", ")))")
                continue
            }
            shape.index(table: table, name: try index.decode("name"), columns: columns, unique: try index.decode("isUnique"),
                        predicate: index["predicate"], fromConstraint: try index.decode("fromConstraint"))
        }
        let rules = ["a": "no action", "r": "restrict", "c": "cascade", "n": "set null", "d": "set default"]
        for key in try tx.rows("""
            SELECT s.relname AS tableName, a.attname AS source, r.relname AS target, ra.attname AS targetColumn, co.confdeltype::text AS onDelete
            FROM pg_constraint co JOIN pg_class s ON s.oid = co.conrelid JOIN pg_class r ON r.oid = co.confrelid
            JOIN pg_attribute a ON a.attrelid = co.conrelid AND a.attnum = co.conkey[1]
            JOIN pg_attribute ra ON ra.attrelid = co.confrelid AND ra.attnum = co.confkey[1]
            WHERE co.contype = 'f' AND s.relnamespace = current_schema()::regnamespace
            """) {
            let rule: String = try key.decode("onDelete")
            shape.lines.insert("foreign key \(try key.decode("tableName", as: String.self)).\(try key.decode("source", as: String.self)) -> "
                               + "\(try key.decode("target", as: String.self)).\(try key.decode("targetColumn", as: String.self)) on delete \(rules[rule] ?? rule)")
        }
        for check in try tx.rows("""
            SELECT s.relname AS tableName, COUNT(*) AS checks FROM pg_constraint co JOIN pg_class s ON s.oid = co.conrelid
            WHERE co.contype = 'c' AND s.relnamespace = current_schema()::regnamespace GROUP BY s.relname
            """) {
            shape.lines.insert("checks \(try check.decode("tableName", as: String.self)) \(try check.decode("checks", as: Int.self))")
        }
        return shape
    }
}
