// InviteCommand.swift: `frontdoor invite create EMAIL [--mail] [--json]` issues an invitation link for one address;
// `invite list [--all] [--limit N] [--json]` shows the open invitations (with --all the used and expired ones too);
// `invite revoke EMAIL` makes the address's unused links stop working.
//
// Options: --mail also queues the invitation mail; --json prints {"email", "link", "expires_at"} (create) or an array
// of {"email", "createdAt", "expiresAt", "usedAt", "state"} (list).
// Refused (exit 1): create when `signup` is closed, for a malformed address, or for an address that already has an
// account; revoke when the address has no unused invitation.
import AccountCore
import AccountRules
import ArgumentParser
import Foundation
import WebFront

struct InviteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "invite", abstract: "Invite people to sign up (signup: invite).",
                                                    subcommands: [Create.self, List.self, Revoke.self])

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
                    invitation = try app.services.invitations.create(
                        email: address, client: ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local"), sendMail: mail)
                } catch AccountError.invalid(let errors) where errors.keys(for: "email").contains("taken") {
                    throw CommandFailure("frontdoor: \(address) already has an account")
                }
                let link = configuration.invitationLink(token: invitation.token)
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

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the open invitations, newest first (--all: used and expired too).")
        @OptionGroup var options: ConfigOptions
        @Flag(help: "Also list used and expired invitations.") var all = false
        @Option(help: "How many invitations to show.") var limit = 100
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try reportingFailures {
                try checkLimit(limit)
                let app = try Bootstrap.makeApp(try options.load())
                let invitations = try app.services.invitations.list(all: all, limit: limit)
                if json {
                    return try JSONValue.array(invitations.map { invitation in
                        .object(["email": .string(invitation.address), "createdAt": .date(invitation.createdAt),
                                 "expiresAt": .date(invitation.expiresAt), "usedAt": .date(invitation.usedAt),
                                 "state": .string(invitation.state)])
                    }).print()
                }
                if invitations.isEmpty { print(all ? "no invitations" : "no open invitations") }
                for invitation in invitations {
                    let when = invitation.usedAt.map { "used \(iso($0))" } ?? "expires \(iso(invitation.expiresAt))"
                    print("\(invitation.address): \(invitation.state), created \(iso(invitation.createdAt)), \(when)")
                }
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make every unused invitation link for this address stop working.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The invited address.") var email: String

        func run() throws {
            try reportingFailures {
                let app = try Bootstrap.makeApp(try options.load())
                let address = email.trimmingWhitespace()
                let revoked = try app.services.invitations.revoke(email: address, client: operatorClient)
                guard revoked > 0 else { throw CommandFailure("frontdoor: no unused invitation for \(address)") }
                print("revoked \(revoked) invitation(s) for \(address)")
            }
        }
    }
}
