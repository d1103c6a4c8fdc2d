// NativeAssertionLimit.swift: how many assertions the native bridge makes for one session in a sliding window. Each
// one costs an RSA-2048 key generation on a worker thread, so without a bound one signed-in person could keep every
// core busy by posting the bridge's form in a loop.
// Options (fixed here, not configuration): `limit` assertions per session per `window`, by default 5 in 10 minutes,
// several times what an app needs (one when the person signs in to it); `maxSessions` sessions remembered, by default
// 10,000, past which the ones idle longest are forgotten (a forgotten session starts afresh: harmless).
// Kept in memory, per process, by the session's stored digest: a restart, or another Frontdoor process, starts
// afresh, and under plain CGI (one process per request) it does not hold at all. That is enough for its purpose, a
// bound on the work one session causes in a long-running server. Why a count rather than one key kept per session: a
// count bounds all of a POST's work (key generation, certificate, signature) and holds no secret; a kept key would be
// a private key alive for the session's whole life instead of one request, and a table of them to bound just the same.
import AccountCore
import Foundation
import Locking

/// Counts the native bridge's assertions per session, and refuses past `limit` in `window`.
///
/// ```swift
/// let limit = NativeAssertionLimit(clock: core.clock)
/// guard limit.take(for: session.digest) else { /* 429 */ }
/// ```
final class NativeAssertionLimit: @unchecked Sendable {
    let limit: Int
    let window: TimeInterval
    let maxSessions: Int
    private let clock: any Clock
    private let lock = Lock()
    /// For each session digest, the times of its assertions still inside the window, oldest first.
    private var issued: [Data: [Date]] = [:]

    init(clock: any Clock, limit: Int = 5, window: TimeInterval = 600, maxSessions: Int = 10_000) {
        (self.clock, self.limit, self.window, self.maxSessions) = (clock, limit, window, maxSessions)
    }

    /// Counts one assertion for `session` and returns true, or returns false (counting nothing) when it had `limit`
    /// already in the last `window`.
    func take(for session: Data) -> Bool {
        let now = clock.now()
        return lock.withLock {
            var times = issued[session, default: []].filter { now.timeIntervalSince($0) < window }
            guard times.count < limit else {
                issued[session] = times
                return false
            }
            times.append(now)
            issued[session] = times
            if issued.count > maxSessions { forgetIdle(now: now) }
            return true
        }
    }

    /// Seconds until `session` may have another assertion (0: now).
    func retryAfter(for session: Data) -> TimeInterval {
        let now = clock.now()
        return lock.withLock {
            let times = (issued[session] ?? []).filter { now.timeIntervalSince($0) < window }
            guard times.count >= limit, let oldest = times.first else { return 0 }
            return max(0, window - now.timeIntervalSince(oldest))
        }
    }

    /// Inside the lock: drops the sessions with nothing inside the window, then, if still too many, the one whose last
    /// assertion is oldest.
    private func forgetIdle(now: Date) {
        issued = issued.filter { _, times in times.last.map { now.timeIntervalSince($0) < window } ?? false }
        if issued.count > maxSessions, let idlest = issued.min(by: { ($0.value.last ?? now) < ($1.value.last ?? now) })?.key {
            issued[idlest] = nil
        }
    }
}
