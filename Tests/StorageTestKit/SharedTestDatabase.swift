// SharedTestDatabase.swift: one test database that several backends open, as several hosts (or processes) do (issue 24).
//
// Options: the backend (`TestDatabase.backend` unless given), and whether it starts migrated. On SQLite a file in a
// temporary folder (an in-memory database cannot be shared), each `open()` a pool of its own on it; on PostgreSQL a
// database of its own in the run's cluster, each `open()` a `PostgresBackend` with its own connections. `open()`
// migrates, as `serve` does at start, so a database made unmigrated is migrated by the first hosts to open it.
import AccountCore
import Foundation

/// A database that any number of independent backends open.
///
/// ```swift
/// let shared = try SharedTestDatabase.make()
/// defer { shared.remove() }
/// let (a, b) = (try shared.open(), try shared.open())   // two hosts
/// ```
public struct SharedTestDatabase: Sendable {
    public let backend: SQLDialect
    /// The SQLite file's path, or the PostgreSQL database's URL.
    public let location: String

    /// A new database on `backend`: migrated, or (`migrated: false`) empty, for first starts.
    public static func make(_ backend: SQLDialect = TestDatabase.backend, migrated: Bool = true) throws -> SharedTestDatabase {
        switch backend {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("frontdoor-shared-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let shared = SharedTestDatabase(backend: .sqlite, location: folder.appendingPathComponent("frontdoor.sqlite").path)
            if migrated { _ = try shared.open() }
            return shared
        case .postgresql:
            return SharedTestDatabase(backend: .postgresql, location: try TestDatabase.makePostgresDatabase(migrated: migrated))
        }
    }

    /// A new backend on the database (its own connections), migrating what is pending.
    public func open() throws -> AppDatabase {
        switch backend {
        case .sqlite:
            return try AppDatabase.open(path: location)
        case .postgresql:
            let database = AppDatabase(backend: try PostgresBackend(settings: PostgresSettings(url: location)))
            try database.migrate()
            return database
        }
    }

    /// Removes the SQLite file's folder (a PostgreSQL database stays with its cluster, as `TestDatabase.make`'s do).
    public func remove() {
        guard backend == .sqlite else { return }
        try? FileManager.default.removeItem(atPath: (location as NSString).deletingLastPathComponent)
    }
}
