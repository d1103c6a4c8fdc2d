// Transaction+Triggers.swift: a test's way to make a statement fail or race at an exact point, on either backend.
//
// Options: none. SQLite gets a TEMP trigger (this connection only); PostgreSQL a plpgsql function and a trigger in the
// test's own database. Only the outermost statement fires it (PostgreSQL fires triggers from inside triggers too,
// SQLite by default does not), so a trigger may insert into its own table.
import AccountCore

extension Transaction {
    /// Installs trigger `name`: `timing` ("BEFORE"/"AFTER") `event` ("INSERT", "UPDATE OF column", …) on `table`, for
    /// rows where `condition` (SQL over NEW) holds, running `action` (one statement), or failing the statement when
    /// `action` is nil.
    public func installTrigger(_ name: String, _ timing: String, _ event: String, on table: String, when condition: String? = nil,
                               run action: String? = nil) throws {
        switch dialect {
        case .sqlite:
            try execute("""
                CREATE TEMP TRIGGER \(name) \(timing) \(event) ON \(table) \(condition.map { "WHEN \($0)" } ?? "")
                BEGIN \(action ?? "SELECT RAISE(ABORT, 'boom')"); END
                """)
        case .postgresql:
            try execute("""
                CREATE FUNCTION \(name)_fires() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF pg_trigger_depth() = 1 AND (\(condition ?? "TRUE")) THEN
                        \(action.map { "\($0);" } ?? "RAISE EXCEPTION 'boom';")
                    END IF;
                    RETURN NEW;
                END $$
                """)
            try execute("CREATE TRIGGER \(name) \(timing) \(event) ON \(table) FOR EACH ROW EXECUTE FUNCTION \(name)_fires()")
        }
    }

    /// Removes trigger `name` from `table`.
    public func dropTrigger(_ name: String, on table: String) throws {
        try execute(dialect == .sqlite ? "DROP TRIGGER \(name)" : "DROP TRIGGER \(name) ON \(table)")
    }
}
