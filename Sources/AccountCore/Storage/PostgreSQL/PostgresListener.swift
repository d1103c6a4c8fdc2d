// PostgresListener.swift: one connection per process that LISTENs for session changes made by any host and empties
// the matching entries of this host's SessionCache.
//
// Options: none of its own (it connects with the pool's settings). Channel `frontdoor_sessions`; the payload is an
// account id, sent by the triggers of migration `sessionNotifications` (a session deleted, an address changed or
// removed) when the changing transaction commits. The thread waits on the connection's socket (poll, 250 ms at a
// time so a stop is noticed); when the connection fails it tells the cache to forget everything and serve nothing,
// then connects again every second. Whatever was sent while nobody listened is lost, which is why listening again
// starts from an empty cache.
import Foundation
import Locking

/// Keeps a SessionCache in step with the database's notifications, on a thread of its own.
final class PostgresListener: @unchecked Sendable {
    static let channel = "frontdoor_sessions"

    private let keywords: [(String, String)]
    private let cache: SessionCache
    private let stopped = Locked(false)
    private let finished = Locked(false)

    init(keywords: [(String, String)], cache: SessionCache) {
        self.keywords = keywords
        self.cache = cache
        let thread = Thread { [self] in run() }
        thread.name = "frontdoor-listener"
        thread.start()
    }

    /// Stops listening and waits (up to a second) until the thread has closed its connection.
    func stop() {
        stopped.change { $0 = true }
        _ = finished.withLock(waitingUntil: { $0 }, timeout: 1) { _ in }
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func run() {
        while !isStopped {
            do {
                try listen()
            } catch {
                cache.reset(listening: false)
                _ = stopped.withLock(waitingUntil: { $0 }, timeout: 1) { _ in }   // try again in a second, unless stopped
            }
        }
        cache.reset(listening: false)
        finished.change { $0 = true }
    }

    /// Connects, listens, and applies notifications until stopped or the connection fails.
    private func listen() throws {
        let connection = try PostgresConnection(keywords: keywords)
        try connection.simple("LISTEN \(Self.channel)")
        cache.reset(listening: true)
        while !isStopped {
            for payload in try connection.notifications(waitingUpTo: 0.25) {
                if let accountId = Int64(payload) { cache.invalidate(accountId: accountId) } else { cache.reset(listening: true) }
            }
        }
    }
}
