// PostgresListener.swift: one connection per process that LISTENs for session changes made by any host and empties
// the matching entries of this host's SessionCache.
//
// Options: none of its own (it connects with the pool's settings, plus TCP keepalives and a user timeout unless the
// URL sets its own). Channel `frontdoor_sessions`; the payload is an account id, sent by the triggers of migration
// `sessionNotifications` (a session deleted, an address changed or removed) when the changing transaction commits,
// or `ping`, the listeners' heartbeat. The thread waits on the connection's socket (poll, 250 ms at a time so a stop
// is noticed); when the connection fails it tells the cache to forget everything and serve nothing, then connects
// again every second. Whatever was sent while nobody listened is lost, which is why listening again starts from an
// empty cache.
// Liveness: a connection can die without a word (a NAT or load balancer idle timeout, a firewall dropping its state,
// a pooler in transaction mode that never delivers notifications): the socket then reports nothing and changes made
// on other hosts would go unheard until entries age out. So every `heartbeat` seconds the listener sends
// `NOTIFY frontdoor_sessions, 'ping'` without waiting, and when nothing at all (its own ping included) was heard for
// three heartbeats the connection counts as lost. The cache is served only once the first ping came back.
import Foundation
import Locking

/// Keeps a SessionCache in step with the database's notifications, on a thread of its own.
final class PostgresListener: @unchecked Sendable {
    static let channel = "frontdoor_sessions"

    static let ping = "ping"
    /// libpq's TCP liveness for this long-lived, mostly idle connection (ignored on unix sockets); a URL's own win.
    static let tcpLiveness = [("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"),
                              ("keepalives_count", "3"), ("tcp_user_timeout", "30000")]

    private let keywords: [(String, String)]
    private let cache: SessionCache
    private let heartbeat: TimeInterval
    private let stopped = Locked(false)
    private let finished = Locked(false)

    init(keywords: [(String, String)], cache: SessionCache, heartbeat: TimeInterval = PostgresSettings.defaultListenerHeartbeat) {
        self.keywords = Self.tcpLiveness + keywords
        self.cache = cache
        self.heartbeat = heartbeat
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

    /// Connects, listens, and applies notifications until stopped or the connection fails or falls silent.
    private func listen() throws {
        let connection = try PostgresConnection(keywords: keywords)
        try connection.simple("LISTEN \(Self.channel)")
        let heartbeatSQL = "NOTIFY \(Self.channel), '\(Self.ping)'"
        var listening = false
        var lastHeard = SessionCache.monotonicSeconds(), lastPing = -Double.infinity
        while !isStopped {
            let now = SessionCache.monotonicSeconds()
            guard now - lastHeard < 3 * heartbeat else { throw StorageError.unavailable("postgresql: the listener heard nothing") }
            if now - lastPing >= heartbeat {
                try connection.send(heartbeatSQL)
                lastPing = now
            }
            let payloads = try connection.notifications(waitingUpTo: 0.25)
            if !payloads.isEmpty { lastHeard = SessionCache.monotonicSeconds() }
            for payload in payloads {
                if let accountId = Int64(payload) {
                    cache.invalidate(accountId: accountId)
                } else if payload == Self.ping {
                    if !listening { cache.reset(listening: true); listening = true }   // heard: notifications do arrive
                } else {
                    cache.reset(listening: listening)
                }
            }
        }
    }
}
