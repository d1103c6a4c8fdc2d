// StorageFailure.swift: which database errors mean "the store cannot take writes right now" rather than a bug.
//
// SQLite refuses a write, and rolls the whole transaction back, when the disk or the database's size cap is full
// (SQLITE_FULL, see `database.max_size_mb`), on an I/O error, when the file became read-only, or when a lock was
// not granted within the busy timeout. Nothing was written then; the person can try again later, so callers answer
// 503 (Service Unavailable) instead of 500.
import GRDB

public enum StorageFailure {
    /// True when `error` is SQLite saying it cannot store anything now (full, I/O, read-only, busy, locked, cannot open).
    public static func isUnavailable(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        switch error.resultCode {
        case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_CANTOPEN: return true
        default: return false
        }
    }
}
