// SessionsCommand.swift: `frontdoor sessions list [ACCOUNT] [--json]` and `frontdoor sessions revoke (--id SHORTID | --account ACCOUNT)`.
//
// A session is shown by a short id: the first 12 hex digits of its stored digest (the cookie's token is never stored).
// `revoke --id` ends the one live session whose short id starts so (at least 4 digits); `--account` ends all of an
// account's. Revocations are audited (session_revoked). Failures: one line on stderr, exit 1; usage errors exit 64.
import AccountCore
import ArgumentParser
import Foundation

struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sessions", abstract: "List or end signed-in sessions.",
                                                    subcommands: [List.self, Revoke.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List live sessions, newest first: of every account, or of one.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "An address of the account, or its id (default: every account).") var account: String?
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                let id = try account.map { try services.account($0) }
                let sessions = try services.administration.liveSessions(accountId: id)
                if json {
                    return try JSONValue.array(sessions.map { session in
                        .object(["id": .string(session.shortId), "accountId": .int(session.accountId), "email": .string(session.email),
                                 "createdAt": .date(session.createdAt), "lastSeenAt": .date(session.lastSeenAt),
                                 "expiresAt": .date(session.expiresAt), "rememberMe": .bool(session.rememberMe),
                                 "userAgent": .string(session.userAgent), "remoteAddress": .string(session.remoteAddress),
                                 "kind": .string(session.kind.rawValue)])
                    }).print()
                }
                if sessions.isEmpty { return print("no live sessions") }
                printTable(["ID", "KIND", "EMAIL", "CREATED", "LAST SEEN", "EXPIRES", "REMEMBER", "ADDRESS", "USER AGENT"], sessions.map { session in
                    [session.shortId, session.kind.rawValue, session.email, iso(session.createdAt), iso(session.lastSeenAt), iso(session.expiresAt),
                     session.rememberMe ? "yes" : "no", session.remoteAddress.isEmpty ? "-" : session.remoteAddress,
                     session.userAgent.isEmpty ? "-" : session.userAgent]
                })
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End one session (--id) or every session of an account (--account).")
        @OptionGroup var options: ConfigOptions
        @Option(help: "The session's short id, as `sessions list` shows it.") var id: String?
        @Option(help: "An address of the account, or its id: end all its sessions.") var account: String?

        func validate() throws {
            guard (id == nil) != (account == nil) else { throw ValidationError("give either --id or --account") }
        }

        func run() throws {
            try reportingFailures {
                let services = try makeServices(options)
                if let id {
                    try worded { try services.administration.revokeSession(shortId: id, client: operatorClient) }
                    print("revoked 1 session")
                } else if let account {
                    let ended = try services.administration.revokeSessions(accountId: try services.account(account), client: operatorClient)
                    print("revoked \(ended) session(s) of \(account)")
                }
            }
        }
    }
}
