// AuditCommand+Prune.swift: `frontdoor audit prune`: deletes audit rows and sent mail older than their retention now,
// as `serve` does in the background (see AccountCore's Retention).
//
// Options: --older-than AGE (30d, 12w, …) instead of retention.audit and retention.sent_mail, for both tables (even one
// kept forever); it may not be shorter than what a rule reads back (signup_limit.window, mail.throttle). Prints one line
// per table: `audit: deleted N row(s) from before TIME`, or `audit: kept forever (retention.audit is 0)`.
// Failures: one line on stderr, exit 1; usage errors exit 64.
import AccountCore
import ArgumentParser
import Foundation
import WebFront

extension AuditCommand {
    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete audit rows and sent mail older than their retention (retention.audit, retention.sent_mail) now.")
        @OptionGroup var options: ConfigOptions
        @Option(name: .customLong("older-than"), help: "Delete what is older than this age instead (30d, 12w), in both tables.")
        var olderThan: String?

        func run() throws {
            try reportingFailures {
                let configuration = try options.load()
                let age = try olderThan.map { try parseDuration($0, option: "--older-than") }
                for kind in Retention.Kind.allCases {
                    if let age, let shortfall = ConfigReader.retentionShortfall(age, kind, in: configuration) {
                        throw CommandFailure("frontdoor: --older-than must be \(shortfall)")
                    }
                }
                let services = try Bootstrap.makeApp(configuration).services
                for outcome in try services.retention.prune(olderThan: age) {
                    let (label, key) = switch outcome.kind {
                    case .audit: ("audit", "retention.audit")
                    case .sentMail: ("sent mail", "retention.sent_mail")
                    }
                    guard let cutoff = outcome.cutoff else {
                        print("\(label): kept forever (\(key) is 0)")
                        continue
                    }
                    print("\(label): deleted \(outcome.deleted) row(s) from before \(iso(cutoff))")
                }
            }
        }
    }
}
