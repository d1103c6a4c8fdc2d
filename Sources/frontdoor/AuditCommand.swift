// AuditCommand.swift: `frontdoor audit list`: the audit trail, newest first, filtered (`audit prune`: AuditCommand+Prune.swift).
//
// Options: --account ACCOUNT (an address or id; rows of a deleted account match by id or address), --event NAME
// (one of AuditEvent's raw values), --address IP, --since WHEN, --until WHEN (ISO 8601, such as 2026-11-23T10:00:00Z,
// or an age such as 30m, 2h, 7d), --limit N (default 100), --json. Failures: one line on stderr, exit 1; usage errors exit 64.
import AccountCore
import ArgumentParser
import Foundation

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "audit", abstract: "Read and prune the audit trail.",
                                                    subcommands: [List.self, Prune.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List audit rows, newest first.")
        @OptionGroup var options: ConfigOptions
        @Option(help: "An address of the account, or its id.") var account: String?
        @Option(help: "Only this event (sign_in, sign_in_failed, lockout, …).") var event: String?
        @Option(help: "Only this client address.") var address: String?
        @Option(help: "From this time on: ISO 8601 or an age (30m, 2h, 7d).") var since: String?
        @Option(help: "Before this time: ISO 8601 or an age (30m, 2h, 7d).") var until: String?
        @Option(help: "At most this many rows.") var limit = 100
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try reportingFailures {
                try checkLimit(limit)
                let kind = try event.map { name in
                    guard let kind = AuditEvent(rawValue: name) else {
                        throw CommandFailure("frontdoor: unknown event \"\(name)\"; events are "
                                             + AuditEvent.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    return kind
                }
                let services = try makeServices(options)
                let now = services.clock.now()
                var filter = AuditFilter(event: kind, remoteAddress: address, since: try since.map { try parseWhen($0, option: "--since", now: now) },
                                         until: try until.map { try parseWhen($0, option: "--until", now: now) }, limit: limit)
                if let account {
                    // A deleted account has no id to resolve; its rows still carry the address.
                    do { filter.accountId = try services.administration.resolve(account) } catch AdministrationError.noAccount {
                        if let id = Int64(account) { filter.accountId = id } else { filter.email = account.trimmingCharacters(in: .whitespaces) }
                    }
                }
                let entries = try services.audit.list(filter)
                if json { return try JSONValue.array(entries.map(auditJSON)).print() }
                if entries.isEmpty { return print("no audit rows") }
                printTable(["TIME", "EVENT", "ACCOUNT", "EMAIL", "ADDRESS", "USER AGENT", "DETAIL", "BY"], entries.map { entry in
                    [iso(entry.createdAt), entry.event, entry.accountId.map(String.init) ?? "-", entry.email ?? "-",
                     entry.remoteAddress.isEmpty ? "-" : entry.remoteAddress, entry.userAgent.isEmpty ? "-" : String(entry.userAgent.prefix(40)),
                     entry.detail, entry.actorId.map { "admin \($0)" } ?? "-"]
                })
            }
        }
    }
}
