// ConfigCommand.swift: `frontdoor config check`: prints the effective configuration, or the problem and exit 1.
import AccountRules
import ArgumentParser
import Foundation
import WebFront

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "config", abstract: "Inspect the configuration.",
                                                    subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the effective configuration (file + environment); exit 1 on a bad value or unreadable templates.")

        @OptionGroup var options: ConfigOptions

        func run() throws {
            try reportingFailures {
                let configuration = try options.load()
                do { _ = try PageRenderer(directory: configuration.templates.path, localization: Localization(configuration)) } catch {
                    throw CommandFailure("frontdoor: templates.path: \(error)")
                }
                print(ConfigReader.render(configuration), terminator: "")
            }
        }
    }
}
