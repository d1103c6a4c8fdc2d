// Migrate.swift: `frontdoor migrate`: creates or upgrades the database and says where it stands.
//
// Options: --status lists the applied and pending steps and changes nothing; --no-backup skips the copy that is
// otherwise taken (next to the database, mode 0600, named after the first pending step) before any pending step is
// applied to an existing file, so a new binary never changes the live data before there is a copy of it.
// On PostgreSQL a wait (another process migrating, a step giving way to a long transaction's lock) is told on stderr.
import AccountCore
import ArgumentParser
import Foundation
import WebFront

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create or upgrade the database schema.")

    @OptionGroup var options: ConfigOptions
    @Flag(help: "List the applied and pending steps; change nothing.") var status = false
    @Flag(name: .customLong("no-backup"), help: "Apply pending steps without copying the database first.") var noBackup = false

    func run() throws {
        try reportingFailures {
            let configuration = try options.load()
            if let url = configuration.database.postgresURL { return try migratePostgres(configuration, shown: DatabaseURL.redacted(url)) }
            let path = configuration.database.sqlitePath
            guard FileManager.default.fileExists(atPath: path) else {
                if status {
                    print("no database at \(URL(fileURLWithPath: path).standardizedFileURL.path) yet; `frontdoor migrate` creates it")
                    return
                }
                let database = try Bootstrap.openDatabase(configuration, migrating: true)
                print("created \(path) at \(try database.appliedMigrations().last ?? "no migration")")
                return
            }
            let database = try Bootstrap.openDatabase(configuration, migrating: false, requireCurrent: false)
            let pending = try database.pendingMigrations()
            if status {
                let applied = try database.appliedMigrations()
                print("database \(path) is at \(applied.last ?? "no migration") (\(applied.count) applied)")
                print(pending.isEmpty ? "nothing pending" : pending.map { "pending: \($0)" }.joined(separator: "\n"))
                return
            }
            if let first = pending.first, !noBackup {
                let copy = "\(path).before-\(first)-\(Int(Date().timeIntervalSince1970)).sqlite"
                let size = try worded { try database.backup(to: copy) }
                print("backed up \(path) to \(copy) (\(size) bytes)")
            }
            if !pending.isEmpty {
                try database.migrate()
                print("applied \(pending.joined(separator: ", "))")
            }
            let applied = try database.appliedMigrations()
            print("database \(path) is at \(applied.last ?? "no migration") (\(applied.count) applied)")
        }
    }

    /// PostgreSQL: the same steps and report; no file copy (the operator's pg_dump or replica is the copy).
    private func migratePostgres(_ configuration: AppConfiguration, shown: String) throws {
        let database = try Bootstrap.openDatabase(configuration, migrating: false, requireCurrent: false)
        let pending = try database.pendingMigrations()
        if !status, !pending.isEmpty {
            try database.migrate(waiting: { FileHandle.standardError.write(Data("frontdoor migrate: \($0)\n".utf8)) })
            print("applied \(pending.joined(separator: ", "))")
        }
        let applied = try database.appliedMigrations()
        print("database \(shown) is at \(applied.last ?? "no migration") (\(applied.count) applied)")
        if status { print(pending.isEmpty ? "nothing pending" : pending.map { "pending: \($0)" }.joined(separator: "\n")) }
    }
}
