// BackupCommand.swift: `frontdoor backup PATH [--force]`: an online copy of the database, safe while `frontdoor serve` runs.
//
// Options: --force replaces an existing PATH (refused otherwise). The copy gets mode 0600 and is a self-contained
// SQLite file (no -wal). The key in `social.token_key_file`, without which the stored provider tokens cannot be read,
// is copied beside it as PATH.social-tokens.key (mode 0600), when there is one. Prints where it wrote and the size.
// Failures: one line on stderr, exit 1; usage errors exit 64. Restore: stop frontdoor, copy both files back.
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
            let key = configuration.social.tokenKeyFile, keyCopy = path + ".social-tokens.key"
            let hasKey = FileManager.default.fileExists(atPath: key)
            for target in hasKey ? [path, keyCopy] : [path] where !force && FileManager.default.fileExists(atPath: target) {
                throw CommandFailure("frontdoor: \(BackupError.exists(target))")
            }
            let database = try Bootstrap.openDatabase(configuration, migrating: false, requireCurrent: false)   // copies what is there
            let size = try worded { try database.backup(to: path, force: force) }
            print("backed up \(configuration.database.sqlitePath) to \(path) (\(size) bytes)")
            if hasKey {
                try copyPrivately(key, to: keyCopy)
                print("copied social.token_key_file \(key) to \(keyCopy)")
            }
        }
    }

    /// Writes `source`'s bytes to `target` (replaced if there) with mode 0600.
    private func copyPrivately(_ source: String, to target: String) throws {
        guard let bytes = FileManager.default.contents(atPath: source) else {
            throw CommandFailure("frontdoor: cannot read social.token_key_file \(source)")
        }
        unlink(target)
        let fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CommandFailure("frontdoor: \(BackupError.cannotWrite(target, reason: String(cString: strerror(errno))))") }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else {
            throw CommandFailure("frontdoor: \(BackupError.cannotWrite(target, reason: String(cString: strerror(errno))))")
        }
    }
}
