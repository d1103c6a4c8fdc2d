// AppDatabase+Backup.swift: an online copy of the live database into a new file (`frontdoor backup PATH`).
//
// Options: `force` replaces an existing file. The copy is SQLite's online backup (GRDB `backup(to:)`), taken from
// one read snapshot, so it is consistent while the server keeps writing (WAL). It is written next to its target
// under a temporary name created with mode 0600 (the database holds private keys), switched to a rollback
// journal so it is one self-contained file, then moved into place: a failed backup never leaves a half file at PATH.
import Foundation
import GRDB

/// Why a backup was not made.
public enum BackupError: Error, Equatable, CustomStringConvertible {
    /// The target exists and `force` was not given.
    case exists(String)
    /// The file could not be created or moved into place.
    case cannotWrite(String, reason: String)
    /// The database is not an SQLite file (PostgreSQL has its own tools).
    case notSQLite

    public var description: String {
        switch self {
        case .exists(let path): "\(path) exists; give --force to replace it"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .notSQLite: "backup copies an SQLite database; for PostgreSQL use pg_dump (or `frontdoor db copy` into SQLite)"
        }
    }
}

extension AppDatabase {
    /// Copies the whole database into a new file at `path` (mode 0600); returns its size in bytes.
    @discardableResult
    public func backup(to path: String, force: Bool = false) throws -> Int64 {
        guard let sqlite = backend as? SQLiteBackend else { throw BackupError.notSQLite }
        let target = URL(fileURLWithPath: path)
        if !force, FileManager.default.fileExists(atPath: target.path) { throw BackupError.exists(path) }
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).tmp").path
        let created = Foundation.open(temporary, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard created >= 0 else { throw BackupError.cannotWrite(path, reason: String(cString: strerror(errno))) }
        close(created)
        defer { for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary + suffix) } }
        do {
            let copy = try DatabaseQueue(path: temporary)
            try sqlite.writer.backup(to: copy)
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try copy.close()
        }
        // link() refuses an existing name, so a file that appeared meanwhile is not overwritten without --force.
        let moved = force ? rename(temporary, target.path) : link(temporary, target.path)
        guard moved == 0 else {
            if errno == EEXIST { throw BackupError.exists(path) }
            throw BackupError.cannotWrite(path, reason: String(cString: strerror(errno)))
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }
}
