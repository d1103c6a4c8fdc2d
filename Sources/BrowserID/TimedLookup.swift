// TimedLookup.swift: the name lookup of a support-document fetch, run on a thread of its own and waited for at most
// the time the verification has left. getaddrinfo has no time limit of its own (the resolver's defaults allow about
// 5 s × 2 attempts per server, and an attacker's DNS server can be that slow on purpose), and a worker must not wait
// past its deadline. Why not glibc's getaddrinfo_a: it too runs the lookup on a thread, but through libc's internal
// getaddrinfo, which an interposed resolver (the e2e suite's netguard.c, an nsswitch module's wrapper) never sees;
// this calls the one getaddrinfo SystemResolver calls, from a thread of ours. A lookup given up on still runs to its
// end, and counts against `limit` until then, so a stalling DNS server cannot pile up threads (past it: FetchesBusy).
// Options: limit (lookups under way at once, those given up on included).
import Foundation
import Locking

/// Runs a blocking lookup on a thread of its own and waits for it a bounded time.
final class TimedLookup: Sendable {
    let limit: Int
    private let running = Locked(0)

    init(limit: Int) { self.limit = max(1, limit) }

    /// `work`'s answer; FetchRefusal when it has none within `seconds`, FetchesBusy when `limit` lookups are under way.
    func run<T: Sendable>(within seconds: TimeInterval, _ work: @escaping @Sendable () throws -> T) throws -> T {
        let admitted = running.withLock { count -> Bool in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else { throw FetchesBusy() }
        let answer = Locked<Result<T, any Error>?>(nil)
        let thread = Thread { [running] in
            let result = Result { try work() }
            running.change { $0 -= 1 }   // first: whoever sees the answer may start the next lookup at once
            answer.change { $0 = result }
        }
        thread.name = "frontdoor-lookup"
        thread.start()
        guard let result = answer.withLock(waitingUntil: { $0 != nil }, timeout: max(0, seconds), { $0 }) ?? nil else {
            throw FetchRefusal(detail: "no answer from the name lookup within \(Self.seconds(seconds))")
        }
        return try result.get()
    }

    /// Lookups under way (those given up on included).
    var underWay: Int { running.withLock { $0 } }

    /// Waits (up to `seconds`) until no lookup is under way; whether none is.
    func waitUntilIdle(timeout seconds: Double) -> Bool { running.withLock(waitingUntil: { $0 == 0 }, timeout: seconds) { _ in true } ?? false }

    static func seconds(_ value: TimeInterval) -> String { String(format: "%.1f s", max(0, value)) }
}
