// TransitionBridge.swift: TEMPORARY (issue 23, while features move behind the seam). Lets converted code call code
// that still takes GRDB's `Database`, and the other way round. Delete this file once nothing uses it.
import GRDB

extension Transaction {
    /// This transaction's GRDB connection (SQLite only).
    @available(*, deprecated, message: "issue 23 transition: convert the callee to take a Transaction")
    public var grdb: Database {
        guard let sqlite = connection as? SQLiteConnection else { preconditionFailure("not an SQLite transaction") }
        return sqlite.db
    }

    /// A transaction over GRDB's connection `db` (inside one of its transactions).
    @available(*, deprecated, message: "issue 23 transition: convert the caller to pass its Transaction")
    public init(sqlite db: Database) {
        self.init(connection: SQLiteConnection(db: db), dialect: .sqlite)
    }
}
