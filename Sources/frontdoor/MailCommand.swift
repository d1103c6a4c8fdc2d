// MailCommand.swift: `frontdoor mail list` shows the queue; `frontdoor mail retry` delivers everything unsent now.
import AccountCore
import ArgumentParser
import Foundation

struct MailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mail", abstract: "Inspect and flush the mail queue.",
                                                    subcommands: [List.self, Retry.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List queued and recently sent mail, unsent first.")
        @OptionGroup var options: ConfigOptions
        @Option(help: "How many messages to show.") var limit = 50
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try reportingFailures {
                try checkLimit(limit)
                let app = try Bootstrap.makeApp(try options.load())
                let mails = try app.services.mail.list(limit: limit)
                if json {
                    return try JSONValue.array(mails.map { mail in
                        .object(["id": .int(mail.id), "kind": .string(mail.kind), "recipient": .string(mail.recipient),
                                 "subject": .string(mail.subject), "createdAt": .date(mail.createdAt), "attempts": .int(Int64(mail.attempts)),
                                 "nextAttemptAt": .date(mail.nextAttemptAt), "lastError": .text(mail.lastError), "sentAt": .date(mail.sentAt)])
                    }).print()
                }
                if mails.isEmpty { print("the mail queue is empty") }
                for mail in mails {
                    let state = mail.sentAt.map { "sent \(stamp($0))" }
                        ?? "queued, \(mail.attempts) attempt(s), next \(stamp(mail.nextAttemptAt))" + (mail.lastError.map { ", last error: \($0)" } ?? "")
                    print("#\(mail.id) \(mail.kind) to \(mail.recipient): \(state)")
                }
            }
        }
    }

    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Try every unsent message now; exit 1 if any still fails.")
        @OptionGroup var options: ConfigOptions

        func run() throws {
            try reportingFailures {
                let app = try Bootstrap.makeApp(try options.load())
                try app.services.mail.makeAllDue()
                let result = try app.services.mail.deliverDue(limit: 10_000)
                print("sent \(result.sent), failed \(result.failed)")
                if result.failed > 0 { throw ExitCode(1) }
            }
        }
    }
}

private func stamp(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
