// ConfigCommand.swift: `frontdoor config check [--verbose]`: prints the effective configuration (with --verbose, each
// value that differs from its default followed by `# default: …`) and, on stderr, a line per risky setting
// (ConfigWarnings: open sign-up); or the problem (an unknown key, a value of the wrong type or out of range, named) and
// exit 1. `frontdoor config reference`: the key table as Markdown (docs/configuration.md's table is this output).
// `frontdoor config messages [LANGUAGE]`: prints every message of a language as it would be worded (built-in text with
// the config's `messages` applied), as YAML ready to copy into `messages:`.
import AccountRules
import ArgumentParser
import Foundation
import WebFront

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "config", abstract: "Inspect the configuration.",
                                                    subcommands: [Check.self, Reference.self, Messages.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the effective configuration (file + environment); exit 1 on a bad value, unreadable templates or an unreachable PostgreSQL.")

        @OptionGroup var options: ConfigOptions
        @Flag(name: .long, help: "Follow each value that differs from its default with `# default: …`.") var verbose = false

        func run() throws {
            try reportingFailures {
                let configuration = try options.load()
                do { _ = try PageRenderer(directory: configuration.templates.path, localization: Localization(configuration)) } catch {
                    throw CommandFailure("frontdoor: templates.path: \(error)")
                }
                // PostgreSQL: connect now and say in one line what is wrong (unreachable, authentication, database, TLS).
                if configuration.database.postgresURL != nil {
                    _ = try Bootstrap.openDatabase(configuration, migrating: false, requireCurrent: false)
                }
                let defaults = try verbose ? ConfigReader.read(file: nil, environment: [:]) : nil   // paths resolved like the values
                print(ConfigReader.render(configuration, defaults: defaults), terminator: "")
                for line in ConfigWarnings.lines(for: configuration) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            }
        }
    }

    struct Reference: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every config key with its type, default and meaning, as the Markdown table in docs/configuration.md.")

        func run() throws { print(ConfigReference.markdown(), terminator: "") }
    }

    struct Messages: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every message of a language (default: languages.default) by key, with the config's overrides.")

        @OptionGroup var options: ConfigOptions
        @Argument(help: "A language code of languages.available (en, fr, de, …).") var language: String?

        func run() throws {
            try reportingFailures {
                let localization = Localization(try options.load())
                let code = language?.lowercased() ?? localization.defaultLanguage
                guard localization.languages.contains(code) else {
                    throw CommandFailure("frontdoor: \(code) is not in languages.available (\(localization.languages.joined(separator: ", ")))")
                }
                print(MessagesConfig.render([code: localization.catalog(code).strings]).joined(separator: "\n"))
            }
        }
    }
}
