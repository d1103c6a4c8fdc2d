// UserCommand+Mail.swift: `frontdoor user send-reset ACCOUNT` and `frontdoor user resend-confirmation ACCOUNT
// [ADDRESS]`: the links an operator mails a person, the same operations as the admin pages' buttons.
//
// Options: none beyond the account (and the address for a confirmation: default the primary one). The rules are the
// core's and said, not hidden: a reset link only to a confirmed primary address and not while the account is locked;
// a confirmation only to an unverified address of the account; neither twice within `mail.throttle`. Audited as
// "frontdoor-cli" (`password_reset_sent`, `confirmation_sent`).
import AccountCore
import ArgumentParser
import Foundation

extension UserCommand {
    struct SendReset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send-reset", abstract: "Mail the account's primary address a password reset link.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "An address of the account, or its id.") var account: String

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                let id = try services.account(account)
                let address = try worded { try services.reminder.sendReminder(accountId: id, client: operatorClient) }
                print("reset link queued for \(address)")
            }
        }
    }

    struct ResendConfirmation: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resend-confirmation", abstract: "Mail a new confirmation link to an unverified address of the account.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "An address of the account, or its id.") var account: String
        @Argument(help: "The unverified address (default: the primary address).") var address: String?

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                let id = try services.account(account)
                let sent = try worded {
                    let target = try address ?? services.administration.show(accountId: id).account.email
                    return try services.confirmation.resend(accountId: id, email: target, client: operatorClient)
                }
                print("confirmation link queued for \(sent)")
            }
        }
    }
}
