// Lockout+Blocked.swift: sign-ins from an address that is already blocked write nothing per attempt. Such an attempt
// checks no password and counts towards nothing (the address is blocked whatever it tries), so under credential
// stuffing a per-attempt failure row and audit row was only write load and a growing table, taken by the attacker.
//
// Options: none (the block itself is LockoutPolicy's). The first blocked attempt of an address group in each
// `interval` (60 s) is audited as before (`sign_in_failed`, the reason); the others are counted in this process's
// memory, and the next audited one says how many were left out ("…; 12 more not recorded"). At most `capacity`
// groups are remembered; when full, those whose interval has passed are forgotten, and if none has, all are (so an
// attacker rotating groups gets at most one audit row per group and interval, never unbounded memory). Each process
// counts its own: a CGI process, living for one request, audits every attempt.
import Foundation
import Locking

/// How many attempts from blocked address groups went unrecorded, per group, in this process.
final class BlockedAttempts: Sendable {
    let interval: TimeInterval
    let capacity: Int
    private let state = Locked([String: (since: Double, skipped: Int)]())

    init(interval: TimeInterval = 60, capacity: Int = 10_000) {
        self.interval = interval
        self.capacity = capacity
    }

    /// Whether the attempt from `group` at `now` is audited: nil when it is only counted; else how many before it went
    /// unrecorded since the last audited one.
    func admit(_ group: String, at now: Double) -> Int? {
        state.withLock { seen -> Int? in
            if let entry = seen[group], now - entry.since < interval {
                seen[group] = (entry.since, entry.skipped + 1)
                return nil
            }
            if seen[group] == nil, seen.count >= capacity {
                seen = seen.filter { now - $0.value.since < interval }
                if seen.count >= capacity { seen.removeAll() }
            }
            let skipped = seen[group]?.skipped ?? 0
            seen[group] = (now, 0)
            return skipped
        }
    }
}

extension Lockout {
    /// Refuses a sign-in from a blocked address (`AccountError.invalidCredentials`, as every failure): no failure row,
    /// and an audit row only for the first attempt of the group per interval (see the header).
    func refuseBlocked(accountId: Int64?, email: String, client: ClientInfo, reason: String) throws -> Never {
        if let skipped = blockedAttempts.admit(client.addressGroup, at: clock.now().timeIntervalSince1970) {
            logger.info("sign-in failed", metadata: ["reason": "\(reason)", "account": "\(accountId.map(String.init) ?? "-")",
                                                     "client": "\(client.remoteAddress)"])
            let detail = skipped > 0 ? "\(reason); \(skipped) more not recorded" : reason
            try audit.record(.signInFailed, accountId: accountId, email: email, client: client, detail: detail)
        }
        throw AccountError.invalidCredentials
    }
}
