// TestDatabase.swift: a fresh, migrated database per test, on the backend this run is for (issue 23).
//
// Options (environment):
//   FRONTDOOR_TEST_BACKEND   sqlite (default: a private in-memory database) or postgresql
//   FRONTDOOR_TEST_POSTGRES  the libpq URL of a running private cluster's `postgres` database (`make unit` starts one
//                            with scripts/pg-cluster); unset, the first test that needs PostgreSQL starts one in a temp
//                            folder, stopped when the test process exits
// Each PostgreSQL test gets its own database, copied from a template migrated once per run (CREATE DATABASE …
// TEMPLATE), so tests never see each other's rows and the migrations run once.
import AccountCore
import Foundation
import Locking

public enum TestDatabase {
    /// The backend the AccountCore and WebFront suites run on in this process.
    public static var backend: SQLDialect {
        ProcessInfo.processInfo.environment["FRONTDOOR_TEST_BACKEND"] == "postgresql" ? .postgresql : .sqlite
    }

    /// A new, empty, migrated database on `backend`.
    public static func make(_ backend: SQLDialect = backend) throws -> AppDatabase {
        switch backend {
        case .sqlite: return try AppDatabase.inMemory()
        case .postgresql: return AppDatabase(backend: try PostgresBackend(settings: PostgresSettings(url: try makePostgresDatabase())))
        }
    }

    /// The URL of a new PostgreSQL database copied from the migrated template (`migrated`), or an empty one.
    public static func makePostgresDatabase(migrated: Bool = true) throws -> String {
        let server = try cluster.withLock { state -> String in
            if let url = state { return url }
            let url = try startCluster()
            state = url
            return url
        }
        let name = "t_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try PostgresAdmin.run("CREATE DATABASE \(name)" + (migrated ? " TEMPLATE frontdoor_template" : ""), url: server)
        return url(server, database: name)
    }

    private static let cluster = Locked<String?>(nil)

    /// Reaches the cluster (starting one when none was given), makes and migrates the template database.
    private static func startCluster() throws -> String {
        let server: String
        if let given = ProcessInfo.processInfo.environment["FRONTDOOR_TEST_POSTGRES"], !given.isEmpty {
            server = given
        } else {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("frontdoor-pg-\(getpid())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            server = try script(["start", folder])
            clusterFolder = folder
            atexit {
                guard let folder = TestDatabase.clusterFolder else { return }
                _ = try? TestDatabase.script(["stop", folder])
                try? FileManager.default.removeItem(atPath: folder)
            }
        }
        try PostgresAdmin.run("DROP DATABASE IF EXISTS frontdoor_template", url: server)
        try PostgresAdmin.run("CREATE DATABASE frontdoor_template", url: server)
        do {
            let template = AppDatabase(backend: try PostgresBackend(settings: PostgresSettings(url: url(server, database: "frontdoor_template"))))
            try template.migrate()
        }   // its connections close here: a template must have none
        return server
    }

    nonisolated(unsafe) private static var clusterFolder: String?

    /// `server` (a URL naming the `postgres` database) naming `database` instead.
    static func url(_ server: String, database: String) -> String {
        server.replacingOccurrences(of: "/postgres?", with: "/\(database)?")
    }

    /// Runs scripts/pg-cluster with `arguments`; returns what it printed. The output goes through a file, not a pipe:
    /// the server it starts would inherit a pipe's other end and never let it reach its end.
    static func script(_ arguments: [String]) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("pg-cluster-\(UUID().uuidString).out").path
        FileManager.default.createFile(atPath: outputPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let process = Process()
        process.executableURL = root.appendingPathComponent("scripts/pg-cluster")
        process.arguments = arguments
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestDatabaseError("pg-cluster \(arguments.joined(separator: " ")) failed") }
        return (try String(contentsOfFile: outputPath, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

struct TestDatabaseError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
