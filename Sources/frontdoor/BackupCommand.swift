// BackupCommand.swift: `frontdoor backup PATH [--force] [--token-key KEYPATH]`: an online copy of the database, safe
// while `frontdoor serve` runs.
//
// Options: --force replaces an existing PATH (and KEYPATH; refused otherwise). The copy gets mode 0600 and is a
// self-contained SQLite file (no -wal). The key in `social.token_key_file`, without which the stored provider tokens
// cannot be read, is not copied with it: a stolen backup folder must not open the sealed tokens. --token-key KEYPATH
// writes a copy of the key (mode 0600) to KEYPATH, which must be in another folder than PATH; the key never changes,
// so one copy kept apart (once, offline) serves every backup. Prints where it wrote and the size. Failures: one line
// on stderr, exit 1; usage errors exit 64. Restore: stop frontdoor, copy the backup back, and the key from where it is
// kept (docs/operations.md, "Operator tools").
import AccountCore
import ArgumentParser
import Foundation

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "backup",
                                                    abstract: "Copy the live database into a new file (mode 0600).")
    @OptionGroup var options: ConfigOptions
    @Argument(help: "Where to write the copy.") var path: String
    @Flag(help: "Replace PATH (and the --token-key copy) if it exists.") var force = false
    @Option(name: .customLong("token-key"),
            help: "Also copy social.token_key_file here (mode 0600), in another folder than PATH: keep it apart from the backups.")
    var tokenKey: String?

    func run() throws {
        try reportingFailures {
            let configuration = try options.load()
            let key = configuration.social.tokenKeyFile
            if let tokenKey {
                guard FileManager.default.fileExists(atPath: key) else {
                    throw CommandFailure("frontdoor: no social.token_key_file at \(key) to copy")
                }
                guard folder(of: tokenKey) != folder(of: path) else {
                    throw CommandFailure("frontdoor: --token-key must be in another folder than the backup: whoever takes "
                                         + "the backups would open the provider tokens with it")
                }
            }
            for target in [path] + (tokenKey.map { [$0] } ?? []) where !force && FileManager.default.fileExists(atPath: target) {
                throw CommandFailure("frontdoor: \(BackupError.exists(target))")
            }
            let database = try Bootstrap.openDatabase(configuration, migrating: false, requireCurrent: false)   // copies what is there
            let size = try worded { try database.backup(to: path, force: force) }
            print("backed up \(configuration.database.sqlitePath) to \(path) (\(size) bytes)")
            if let tokenKey {
                try copyPrivately(key, to: tokenKey)
                print("copied social.token_key_file \(key) to \(tokenKey)")
            }
        }
    }

    /// The folder `file` is in, absolute and with symbolic links resolved, so two spellings of one folder compare equal.
    private func folder(of file: String) -> String {
        URL(fileURLWithPath: file).deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL.path
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
