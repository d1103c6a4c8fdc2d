// PostgresCatalog.swift: what `DatabaseCopy` asks PostgreSQL's catalog: the tables of the current schema, a table's
// columns, an identity column's sequence (read and set, so new rows get ids past every copied one), and a table's
// triggers paused for the copy (ALTER TABLE … DISABLE TRIGGER USER: transactional, needs the table's owner).
//
// Options: none. Names come back folded to lower case (the migrations do not quote identifiers); `schemaMigration`
// is left to the caller.
enum PostgresCatalog {
    /// The names of the current schema's tables.
    static func tables(_ tx: Transaction) throws -> [String] {
        try tx.values(String.self, """
            SELECT table_name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name
            """)
    }

    /// The columns of `table`, in their declared order.
    static func columns(_ tx: Transaction, of table: String) throws -> [String] {
        try tx.values(String.self, """
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = lower(?) ORDER BY ordinal_position
            """, [table])
    }

    /// The last value `table`'s id sequence gave (0 when it gave none). Sequences stand outside transactions, so this
    /// may be newer than the snapshot: at worst a little higher, never lower.
    static func sequence(_ tx: Transaction, of table: String) throws -> Int64 {
        try tx.value(Int64.self, """
            SELECT COALESCE((SELECT last_value FROM pg_sequences
                             WHERE format('%I.%I', schemaname, sequencename) = pg_get_serial_sequence(?, 'id')), 0)
            """, [table]) ?? 0
    }

    /// Makes `table`'s next id `value + 1` (`value` > 0).
    static func setSequence(_ tx: Transaction, of table: String, to value: Int64) throws {
        _ = try tx.rows("SELECT setval(pg_get_serial_sequence(?, 'id'), ?)", [table, value])
    }

    /// Disables `table`'s own triggers (not the foreign keys'); returns the statement that enables them again.
    static func pauseTriggers(_ tx: Transaction, on table: String) throws -> [String] {
        try tx.execute("ALTER TABLE \(table) DISABLE TRIGGER USER")
        return ["ALTER TABLE \(table) ENABLE TRIGGER USER"]
    }
}
