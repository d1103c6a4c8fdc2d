// UserCommand+Groups.swift: `frontdoor user groups ACCOUNT [--add G]… [--remove G]…`: an account's groups.
//
// Options: --add and --remove, each repeatable, applied together in one transaction (all or nothing); without them
// the account's groups are only printed. A group must exist (`frontdoor group add`): a mistyped name is refused,
// never made. The change reaches every host's gate like a revocation (docs/groups.md). Audited as "frontdoor-cli".
import AccountCore
import ArgumentParser
import Foundation

extension UserCommand {
    struct Groups: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "groups", abstract: "Show an account's groups, or put it in (--add) and take it out of (--remove) groups.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "An address of the account, or its id.") var account: String
        @Option(name: .customLong("add"), help: "Put the account in this group (repeatable).") var adding: [String] = []
        @Option(name: .customLong("remove"), help: "Take the account out of this group (repeatable).") var removing: [String] = []

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                let id = try services.account(account)
                let groups = try worded {
                    adding.isEmpty && removing.isEmpty ? try services.groups.groups(of: id)
                        : try services.groups.change(accountId: id, adding: adding, removing: removing, client: operatorClient)
                }
                print(groups.isEmpty ? "\(account) is in no group" : "\(account) is in \(groups.joined(separator: ", "))")
            }
        }
    }
}
