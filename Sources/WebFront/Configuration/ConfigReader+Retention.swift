// ConfigReader+Retention.swift: checks config section `retention` against the rules that read the rows it prunes.
//
// Keys: retention.audit, retention.sent_mail (both 0 to keep forever), retention.prune_interval, retention.unconfirmed
// (at least confirmation.lifetime; see the key table).
// A retention shorter than a rule's look-back would let pruning delete rows the rule still counts: refused, naming both keys.
import AccountCore
import Foundation

extension ConfigReader {
    /// Refuses a retention shorter than what reads its table, and an interval that is not positive.
    static func validateRetention(_ c: AppConfiguration) throws {
        for (kind, key) in [(Retention.Kind.audit, "retention.audit"), (.sentMail, "retention.sent_mail")] {
            let age = c.retention.age(of: kind)
            if age != 0, let shortfall = retentionShortfall(age, kind, in: c) {
                throw ConfigError("\(key) must be 0 (keep forever) or \(shortfall) (got \(ConfigKeys.formatDuration(age)))")
            }
        }
        if c.retention.pruneInterval <= 0 { throw ConfigError("retention.prune_interval must be positive") }
        // Shorter, an unconfirmed account would go before the person had the link's whole life to follow it.
        let unconfirmed = c.retention.unconfirmed
        if unconfirmed != 0, unconfirmed < c.confirmation.lifetime {
            throw ConfigError("retention.unconfirmed must be 0 (keep forever) or at least confirmation.lifetime "
                              + "(\(ConfigKeys.formatDuration(c.confirmation.lifetime))) (got \(ConfigKeys.formatDuration(unconfirmed)))")
        }
    }

    /// Why keeping `kind`'s rows only `age` long is too short ("at least signup_limit.window (1h): …"), naming the rule
    /// that reads them back; nil when it is long enough. `frontdoor audit prune --older-than` asks it too.
    public static func retentionShortfall(_ age: TimeInterval, _ kind: Retention.Kind, in c: AppConfiguration) -> String? {
        let shortest = c.core.shortestRetention(kind)
        guard age < shortest else { return nil }
        let (key, why) = switch kind {
        case .audit: ("signup_limit.window", "the sign-up limit counts the audit trail's sign-ups that far back")
        case .sentMail: ("mail.throttle", "the mail throttle looks that far back")
        }
        return "at least \(key) (\(ConfigKeys.formatDuration(shortest))): \(why)"
    }
}
