// DatabaseCommand.swift: `frontdoor db copy FROM TO`: copies a whole Frontdoor database into an empty one, SQLite →
// PostgreSQL and back (AccountCore's DatabaseCopy, whose header has the rules: one snapshot, one transaction, ids kept).
//
// Options: FROM and TO are database URLs, `sqlite:PATH` or `postgresql://user@host:port/db?…`, never with a password,
// and with sslmode=require or stronger when the host is not local (as `database.url`, PostgresURLRules).
// A PostgreSQL side's password: --from-password-file / --to-password-file (its first line), else the environment's
// FRONTDOOR_DATABASE_PASSWORD_FROM / FRONTDOOR_DATABASE_PASSWORD_TO, else the config's (database.password_file, else
// FRONTDOOR_DATABASE_PASSWORD). --config gives pool size and timeouts. FROM must be at this binary's schema
// (`frontdoor migrate` it first); TO is migrated here (a missing SQLite file is made, mode 0600) and must be empty.
// Output: a line per 100 000 rows of a large table, a line per table, a summary. Failures: one line on stderr, exit 1;
// TO then holds nothing but its migrations.
import AccountCore
import ArgumentParser
import Foundation
import WebFront

struct DatabaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "db", abstract: "Copy the database between backends.",
                                                    subcommands: [Copy.self])

    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy every row of FROM into the empty database TO (sqlite:PATH or postgresql://…), keeping ids.",
            discussion: """
                Passwords never go on the command line: --from-password-file / --to-password-file, or \
                FRONTDOOR_DATABASE_PASSWORD_FROM / FRONTDOOR_DATABASE_PASSWORD_TO, else the configured one. Stop \
                frontdoor first: what it writes to FROM after the copy's snapshot is not copied.
                """)
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The database to copy: sqlite:PATH or postgresql://user@host:port/db?….") var from: String
        @Argument(help: "The empty database to fill (migrated first).") var to: String
        @Option(name: .customLong("from-password-file"), help: "File whose first line is FROM's PostgreSQL password.")
        var fromPasswordFile: String?
        @Option(name: .customLong("to-password-file"), help: "File whose first line is TO's PostgreSQL password.")
        var toPasswordFile: String?

        func run() throws {
            try reportingFailures {
                let configuration = try options.load()
                try Self.check(from, name: "FROM", option: "from", configuration)
                try Self.check(to, name: "TO", option: "to", configuration)
                let (fromShown, toShown) = (DatabaseURL.redacted(from), DatabaseURL.redacted(to))
                let source = try Self.open(from, side: "from", passwordFile: fromPasswordFile, configuration, migrating: false)
                let target = try Self.open(to, side: "to", passwordFile: toPasswordFile, configuration, migrating: true)
                say("copying \(fromShown) to \(toShown)")
                let started = Date()
                let reports: [DatabaseCopy.TableReport]
                do {
                    reports = try DatabaseCopy.run(from: source, to: target) { event in
                        switch event {
                        case .progress(let table, let copied, let total): say("  \(table): \(copied) of \(total) rows")
                        case .copied(let table, let rows, let seconds): say("\(table): \(rows) rows (\(String(format: "%.1f", seconds)) s)")
                        }
                    }
                } catch let error as DatabaseCopyError {
                    throw CommandFailure("frontdoor: \(error)")
                } catch {
                    throw CommandFailure("frontdoor: copy from \(fromShown) to \(toShown) failed, nothing committed: \(DatabaseURL.reason(error))")
                }
                let rows = reports.reduce(0) { $0 + $1.rows }
                say("copied \(rows) rows in \(reports.count) tables from \(fromShown) to \(toShown) in "
                    + "\(String(format: "%.1f", Date().timeIntervalSince(started))) s; every table's count checked")
            }
        }

        /// Refuses a URL that is neither `sqlite:PATH` nor `postgresql://…`, or that holds a password.
        static func check(_ url: String, name: String, option: String, _ configuration: AppConfiguration) throws {
            var database = configuration.database
            database.url = url
            if url.hasPrefix("sqlite:") {
                guard !database.sqlitePath.isEmpty else { throw CommandFailure("frontdoor: \(name) sqlite: needs a path, as in sqlite:var/frontdoor.sqlite") }
                return
            }
            guard database.postgresURL != nil else {
                throw CommandFailure("frontdoor: \(name) must be sqlite:PATH or postgresql://user@host/db, not \"\(DatabaseURL.redacted(url))\"")
            }
            guard !PostgresURLRules.hasPassword(url) else {
                throw CommandFailure("frontdoor: \(name) must not hold a password: use --\(option)-password-file "
                                     + "or FRONTDOOR_DATABASE_PASSWORD_\(option.uppercased())")
            }
            guard !PostgresURLRules.lacksTLS(url) else {
                throw CommandFailure("frontdoor: \(name) to another host may be read in clear: add sslmode=verify-full (or require) to it")
            }
        }

        /// The database `url` names, opened as Bootstrap opens the configured one: FROM must be up to date, TO is
        /// created or migrated.
        static func open(_ url: String, side: String, passwordFile: String?, _ configuration: AppConfiguration,
                         migrating: Bool) throws -> AppDatabase {
            var configuration = configuration
            configuration.database.url = url
            let password = try passwordFile.map { try Bootstrap.passwordFile($0, named: "--\(side)-password-file") }
                ?? ProcessInfo.processInfo.environment["FRONTDOOR_DATABASE_PASSWORD_\(side.uppercased())"]
            return try Bootstrap.openDatabase(configuration, migrating: migrating, password: password)
        }
    }
}

/// Prints `line` at once, even when stdout is a pipe (progress of a long copy).
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))   // unbuffered, unlike print's stdout
}
