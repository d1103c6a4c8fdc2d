// StorageFailure.swift: which database errors mean "the store cannot take writes right now" rather than a bug.
//
// SQLite refuses a write, and rolls the whole transaction back, when the disk or the database's size cap is full
// (SQLITE_FULL, see `database.max_size_mb`), on an I/O error, when the file became read-only, or when a lock was
// not granted within the busy timeout. Nothing was written then; the person can try again later, so callers answer
// 503 (Service Unavailable) instead of 500.
import GRDB

public enum StorageFailure {
    /// True when `error` says the store cannot take anything now (`StorageError.unavailable`; or, from code not yet
    /// behind the seam, SQLite's full, I/O, read-only, busy, locked, cannot open).
    public static func isUnavailable(_ error: any Error) -> Bool {
        if case StorageError.unavailable = error { return true }
        if case StorageError.conflict = error { return true }
        guard let error = error as? DatabaseError else { return false }
        if case .unavailable = SQLiteBackend.storageError(error) { return true }
        return false
    }
}
