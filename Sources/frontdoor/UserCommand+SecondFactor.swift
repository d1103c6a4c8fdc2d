// UserCommand+SecondFactor.swift: `frontdoor user 2fa reset ACCOUNT`: takes an account's second factors away (its
// one-time codes, recovery codes and passkeys) for a person who lost them, so they sign in with their password alone
// (or set one through "forgot my password" when they had only passkeys) and can set up new ones.
//
// Options: none beyond the account. Audited as "frontdoor-cli" from "local" (second_factor_removed, detail "operator
// reset"; passkey_removed "operator reset: <name>"); the person is mailed. An account without a second factor is left as it is (exit 0, said so). Check who is
// asking first: this removes the protection the codes gave (docs/two-step.md, "When someone loses their codes").
import AccountCore
import ArgumentParser
import Foundation

extension UserCommand {
    struct TwoFactor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "2fa", abstract: "An account's second factors: reset (take them away for a person who lost them).",
            subcommands: [Reset.self])

        struct Reset: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove an account's one-time codes, recovery codes and passkeys (audited; the person is mailed).")
            @OptionGroup var options: ConfigOptions
            @Argument(help: "An address of the account, or its id.") var account: String

            func run() throws {
                try reportingFailures {
                    let services = try makeServices(options)
                    let id = try services.account(account)
                    let removed = try worded { try services.secondFactor.reset(accountId: id, client: operatorClient) }
                    print(removed.isEmpty ? "\(account) has no second factor; nothing removed"
                                          : "second factor of \(account) removed; it signs in with its password alone until it sets one up")
                }
            }
        }
    }
}
