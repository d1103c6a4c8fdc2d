// UserCommand+Username.swift: `frontdoor user username ACCOUNT [--set NAME]`: the account's username, what the gate
// sends apps as Remote-User (docs/headers.md).
//
// Options: --set changes it, whatever `identity.username` lets people do (the username rule still holds: a reserved
// or taken name is refused with the rule's sentence). The change reaches every host's gate at its next lookup.
// Audited as "frontdoor-cli" (username_changed).
import AccountCore
import ArgumentParser
import Foundation

extension UserCommand {
    struct Username: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "username", abstract: "Show an account's username (its Remote-User), or change it (--set).")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "An address of the account, or its id.") var account: String
        @Option(name: .customLong("set"), help: "The new username.") var newName: String?

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                let id = try services.account(account)
                if let newName {
                    try worded { try services.usernames.change(accountId: id, to: newName, client: operatorClient, byOperator: true) }
                }
                guard let name = try services.usernames.username(of: id) else { throw CommandFailure("frontdoor: no account \(account)") }
                print("\(account): \(name)")
            }
        }
    }
}
