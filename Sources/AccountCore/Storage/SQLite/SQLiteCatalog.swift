// SQLiteCatalog.swift: what `DatabaseCopy` asks SQLite's catalog: its tables, a table's columns, the identity
// high-water mark an AUTOINCREMENT table keeps in `sqlite_sequence` (ids of deleted rows are never given again), and
// a table's triggers paused for the copy (SQLite cannot disable one: they are dropped and made again from their text).
//
// Options: none. Leaves out SQLite's own tables (`sqlite_*`); GRDB's `grdb_migrations` is left to the caller.
enum SQLiteCatalog {
    /// The names of the database's tables, as created.
    static func tables(_ tx: Transaction) throws -> [String] {
        try tx.values(String.self, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite^_%' ESCAPE '^' ORDER BY name")
    }

    /// The columns of `table`, in their declared order.
    static func columns(_ tx: Transaction, of table: String) throws -> [String] {
        try tx.values(String.self, "SELECT name FROM pragma_table_info(?) ORDER BY cid", [table])
    }

    /// The highest id `table` ever gave (0 when none).
    static func sequence(_ tx: Transaction, of table: String) throws -> Int64 {
        try tx.value(Int64.self, "SELECT seq FROM sqlite_sequence WHERE name = ?", [table]) ?? 0
    }

    /// Makes `table`'s next id `value + 1`.
    static func setSequence(_ tx: Transaction, of table: String, to value: Int64) throws {
        if try tx.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = ?", [value, table]) == 0 {
            try tx.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", [table, value])
        }
    }

    /// Drops `table`'s triggers; returns the statements that make them again (run them in the same transaction).
    static func pauseTriggers(_ tx: Transaction, on table: String) throws -> [String] {
        let triggers = try tx.rows("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? ORDER BY name", [table])
        for trigger in triggers { try tx.execute("DROP TRIGGER \(try trigger.decode("name", as: String.self))") }
        return try triggers.map { try $0.decode("sql", as: String.self) }
    }
}
