// Migrate.swift: `frontdoor migrate`: creates or upgrades the database and says where it stands.
import ArgumentParser
import Foundation

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create or upgrade the database schema.")

    @OptionGroup var options: ConfigOptions

    func run() throws {
        try reportingFailures {
            let configuration = try options.load()
            let database = try Bootstrap.openDatabase(configuration, migrating: true)
            let applied = try database.appliedMigrations()
            print("database \(configuration.database.path) is at \(applied.last ?? "no migration") (\(applied.count) applied)")
        }
    }
}
