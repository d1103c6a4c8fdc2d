// FrontdoorCommand.swift: the `frontdoor` command line: serve (the default), migrate, config check, mail, keys, user,
// sessions, audit, invite, backup, db copy, group, client (OpenID Connect clients); `--version` (BuildInfo).
import ArgumentParser
import Foundation
import WebFront

@main
struct FrontdoorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frontdoor",
        abstract: "A self-hosted sign-in front, served over FastCGI behind nginx.",
        discussion: """
            Without a subcommand, frontdoor serves: on --socket, on the listening socket passed as fd 0 \
            (spawn-fcgi, systemd), or, when a web server starts it as plain CGI, the one request in its environment.
            """,
        version: BuildInfo.current.versionText(),
        subcommands: [Serve.self, Migrate.self, ConfigCommand.self, MailCommand.self, KeysCommand.self,
                      UserCommand.self, SessionsCommand.self, AuditCommand.self, InviteCommand.self, BackupCommand.self, DatabaseCommand.self,
                      GroupCommand.self, ClientCommand.self],
        defaultSubcommand: Serve.self)
}

/// `--config FILE`, shared by every subcommand.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, help: "Config file (YAML). Default: $FRONTDOOR_CONFIG, else built-in defaults.")
    var config: String?

    /// The effective configuration: file, then FRONTDOOR_* environment overrides.
    func load() throws -> AppConfiguration {
        let environment = ProcessInfo.processInfo.environment
        let file = config ?? environment["FRONTDOOR_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        do {
            return try ConfigReader.read(file: file, environment: environment)
        } catch let error as ConfigError {
            throw CommandFailure("frontdoor: \(error.description)")
        }
    }
}

/// A failure worded for the person at the terminal: printed to stderr, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ParsableCommand {
    /// Runs `body`, printing a `CommandFailure` (or any error) as one line on stderr and exiting 1.
    func reportingFailures(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ExitCode {
            throw error
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
