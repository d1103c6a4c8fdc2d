// InviteCommand.swift: `frontdoor invite create EMAIL [--mail] [--json]` issues an invitation link for one address.
//
// Options: --mail also queues the invitation mail; --json prints {"email", "link", "expires_at"}.
// Refused (exit 1) when `signup` is closed, for a malformed address, or for an address that already has an account.
import AccountCore
import AccountRules
import ArgumentParser
import Foundation
import WebFront

struct InviteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "invite", abstract: "Invite people to sign up (signup: invite).",
                                                    subcommands: [Create.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a sign-up link that works once, for this address only, until it expires (invite.lifetime).")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The address to invite.") var email: String
        @Flag(help: "Also mail the link to the address.") var mail = false
        @Flag(help: "Print the result as JSON.") var json = false

        func run() throws {
            try reportingFailures {
                let configuration = try options.load()
                guard configuration.signUp != .closed else {
                    throw CommandFailure("frontdoor: sign-up is closed (signup: closed); set signup: invite to use invitations")
                }
                let address = email.trimmingWhitespace()
                guard EmailFormat.isValid(address) else { throw CommandFailure("frontdoor: not a valid email address: \(address)") }
                let app = try Bootstrap.makeApp(configuration)
                let invitation: IssuedInvitation
                do {
                    invitation = try app.site.services.invitations.create(
                        email: address, client: ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local"), sendMail: mail)
                } catch AccountError.invalid(let errors) where errors.keys(for: "email").contains("taken") {
                    throw CommandFailure("frontdoor: \(address) already has an account")
                }
                let link = configuration.publicURL + SitePaths(base: configuration.basePath).path("sign_up") + "?invite=" + invitation.token
                let expires = ISO8601DateFormatter().string(from: invitation.expiresAt)
                if json {
                    let object: [String: Any] = ["email": invitation.address, "link": link, "expires_at": expires, "mailed": mail]
                    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                    print(String(decoding: data, as: UTF8.self))
                } else {
                    print(link)
                    print("invitation for \(invitation.address), expires \(expires)" + (mail ? "; the invitation mail is queued" : ""))
                }
                if configuration.signUp == .open {
                    FileHandle.standardError.write(Data("note: signup is open, so anyone can sign up without an invitation\n".utf8))
                }
            }
        }
    }
}
