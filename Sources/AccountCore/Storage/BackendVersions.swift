// BackendVersions.swift: the versions of the two database libraries this process loaded (not the ones it was built
// against), for `frontdoor --version`: an operator comparing hosts sees what each one really runs.
import CLibPQ
import GRDBSQLite

/// The storage libraries' own version strings.
public enum BackendVersions {
    /// SQLite's, e.g. "3.40.1".
    public static var sqlite: String { String(cString: sqlite3_libversion()) }

    /// libpq's (the PostgreSQL client library), e.g. "15.13": PQlibVersion's number is major × 10000 + minor since 10.
    public static var libpq: String {
        let number = Int(PQlibVersion())
        return number >= 100_000 ? "\(number / 10_000).\(number % 10_000)" : "\(number / 10_000).\(number / 100 % 100).\(number % 100)"
    }
}
