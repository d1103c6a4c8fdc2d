// RetentionConfigTests.swift: config section `retention`: its defaults, reading it, and refusing a retention shorter
// than a rule that reads the rows back (issue 22).
import AccountCore
import Foundation
import Testing
@testable import WebFront

struct RetentionConfigTests {
    /// The configuration from `environment` (FRONTDOOR_RETENTION_AUDIT …).
    private func read(_ environment: [String: String]) throws -> AppConfiguration {
        try ConfigReader.read(file: nil, environment: environment)
    }

    /// The description of the ConfigError reading `environment` throws ("no error" when it reads).
    private func failure(_ environment: [String: String]) -> String {
        do {
            _ = try read(environment)
            return "no error"
        } catch let error as ConfigError {
            return error.description
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func theDefaultsKeepAuditAYearAndSentMailThirtyDaysAndPruneHourly() throws {
        let config = try read([:])
        #expect(config.retention == RetentionPolicy(audit: 365 * 86400, sentMail: 30 * 86400, pruneInterval: 3600))
        #expect(config.core.retention == config.retention, "the core prunes with what was read")
        let printed = ConfigReader.render(config)
        #expect(printed.contains("retention:\n  audit: \"365d\"\n  sent_mail: \"30d\"\n  prune_interval: \"1h\"\n"))
    }

    @Test func aFileSectionAndTheEnvironmentSetThem() throws {
        let path = NSTemporaryDirectory() + "frontdoor-retention-\(UUID().uuidString).yml"
        try "retention:\n  audit: 90d\n  sent_mail: 0\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let config = try ConfigReader.read(file: path, environment: ["FRONTDOOR_RETENTION_PRUNE_INTERVAL": "10m"])
        #expect(config.core.retention == RetentionPolicy(audit: 90 * 86400, sentMail: 0, pruneInterval: 600))
    }

    @Test func zeroKeepsForeverAndTheShortestAllowedIsTheRulesLookBack() throws {
        let forever = try read(["FRONTDOOR_RETENTION_AUDIT": "0", "FRONTDOOR_RETENTION_SENT_MAIL": "0"])
        #expect(forever.retention.audit == 0 && forever.retention.sentMail == 0)
        let shortest = try read(["FRONTDOOR_RETENTION_AUDIT": "2h", "FRONTDOOR_SIGNUP_LIMIT_WINDOW": "2h",
                                 "FRONTDOOR_RETENTION_SENT_MAIL": "5m", "FRONTDOOR_MAIL_THROTTLE": "5m"])
        #expect(shortest.retention.audit == 7200 && shortest.retention.sentMail == 300)
    }

    @Test func aRetentionShorterThanWhatReadsItIsRefusedNamingBothKeys() {
        #expect(failure(["FRONTDOOR_RETENTION_AUDIT": "30m"])
                == "retention.audit must be 0 (keep forever) or at least signup_limit.window (1h): the sign-up limit counts the audit "
                + "trail's sign-ups that far back (got 30m)")
        #expect(failure(["FRONTDOOR_RETENTION_AUDIT": "1d", "FRONTDOOR_SIGNUP_LIMIT_WINDOW": "2d"])
                == "retention.audit must be 0 (keep forever) or at least signup_limit.window (2d): the sign-up limit counts the audit "
                + "trail's sign-ups that far back (got 1d)")
        #expect(failure(["FRONTDOOR_RETENTION_SENT_MAIL": "30s"])
                == "retention.sent_mail must be 0 (keep forever) or at least mail.throttle (1m): the mail throttle looks that far back (got 30s)")
    }

    @Test func unconfirmedAccountsLiveAWeekAndAtLeastAsLongAsTheirLink() throws {
        #expect(try read([:]).core.retention.unconfirmed == 7 * 86400)
        #expect(try read(["FRONTDOOR_RETENTION_UNCONFIRMED": "0"]).retention.unconfirmed == 0)
        #expect(try read(["FRONTDOOR_RETENTION_UNCONFIRMED": "3d"]).retention.unconfirmed == 3 * 86400)
        #expect(failure(["FRONTDOOR_RETENTION_UNCONFIRMED": "2d"])
                == "retention.unconfirmed must be 0 (keep forever) or at least confirmation.lifetime (3d) (got 2d)")
    }

    @Test(arguments: [
        ("FRONTDOOR_RETENTION_AUDIT", "a year", "retention.audit: must be a duration such as 90s, 15m, 12h or 30d (got \"a year\")"),
        ("FRONTDOOR_RETENTION_SENT_MAIL", "-1d", "retention.sent_mail: must be a duration such as 90s, 15m, 12h or 30d (got \"-1d\")"),
        ("FRONTDOOR_RETENTION_PRUNE_INTERVAL", "0", "retention.prune_interval must be positive"),
    ])
    func aValueThatIsNoDurationOrNoIntervalIsRefused(variable: String, value: String, message: String) {
        #expect(failure([variable: value]) == message)
    }

    @Test func theCommandsOverrideIsCheckedAgainstTheSameRules() throws {
        let config = try read([:])
        #expect(ConfigReader.retentionShortfall(3600, .audit, in: config) == nil)
        #expect(ConfigReader.retentionShortfall(3599, .audit, in: config)
                == "at least signup_limit.window (1h): the sign-up limit counts the audit trail's sign-ups that far back")
        #expect(ConfigReader.retentionShortfall(60, .sentMail, in: config) == nil)
        #expect(ConfigReader.retentionShortfall(59, .sentMail, in: config) == "at least mail.throttle (1m): the mail throttle looks that far back")
    }
}
