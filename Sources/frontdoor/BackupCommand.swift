// BackupCommand.swift: `frontdoor backup PATH [--force]`: an online copy of the database, safe while `frontdoor serve` runs.
//
// Options: --force replaces an existing PATH (refused otherwise). The copy gets mode 0600 and is a self-contained
// SQLite file (no -wal). Prints where it wrote and the size. Failures: one line on stderr, exit 1; usage errors exit 64.
import AccountCore
import ArgumentParser
import Foundation

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "backup",
                                                    abstract: "Copy the live database into a new file (mode 0600).")
    @OptionGroup var options: ConfigOptions
    @Argument(help: "Where to write the copy.") var path: String
    @Flag(help: "Replace PATH if it exists.") var force = false

    func run() throws {
        try reportingFailures {
            let configuration = try options.load()
            if !force, FileManager.default.fileExists(atPath: path) {
                throw CommandFailure("frontdoor: \(BackupError.exists(path))")
            }
            let database = try Bootstrap.openDatabase(configuration, migrating: false, requireCurrent: false)   // copies what is there
            let size = try worded { try database.backup(to: path, force: force) }
            print("backed up \(configuration.database.path) to \(path) (\(size) bytes)")
        }
    }
}
