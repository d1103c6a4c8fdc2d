// SessionCache.swift: a host's own copy of recent session lookups, so the gate on PostgreSQL answers without a round
// trip to the server.
//
// Options (config section `database`, passed as `SessionCache.Settings`):
//   session_cache_max_age  the oldest an entry may be before it is read again from the server; 0 turns the cache off
//   session_cache_size     entries kept at most; a full cache is emptied and fills again
// Only live sessions found by `findBrowserSession` are kept (never "no such session": a session made on another host
// must be found at once). An entry goes when its account changes on any host (PostgresListener hears PostgreSQL's
// NOTIFY from the triggers of migrations `sessionNotifications` and `v15-groups`: a session ended, the primary address
// changed, a group membership came or went), at once when this host made the change (the
// transaction reports it), and in any case after the max age. While nobody listens (start-up, a lost listener
// connection) nothing is kept or served: notifications sent meanwhile are lost, so the cache starts empty again.
// A lookup that began before an invalidation may not store what it read (the generation ticket), so a row read just
// before a sign-out committed never outlives the notification that followed it.
import Foundation
import Locking

/// Recently found browser sessions, by digest.
final class SessionCache: @unchecked Sendable {
    struct Settings: Sendable, Equatable {
        var maxAge: TimeInterval
        var capacity: Int
    }


    private struct Entry {
        var row: SessionInfo
        var storedAt: Double
    }

    let settings: Settings
    /// Seconds on a clock that only moves forward (tests give their own).
    private let now: @Sendable () -> Double
    private let lock = Lock()
    private var entries: [Data: Entry] = [:]
    private var digestsByAccount: [Int64: Set<Data>] = [:]
    private var generation: UInt64 = 0
    private var listening = false
    private var figures = SessionCacheFigures(hits: 0, misses: 0, invalidations: 0, resets: 0, entries: 0, listening: false)

    init(settings: Settings, now: @escaping @Sendable () -> Double = SessionCache.monotonicSeconds) {
        self.settings = settings
        self.now = now
    }

    /// The cached row for `digest` when it is young enough; else nil and a ticket to store what the server says.
    func lookup(_ digest: Data) -> (row: SessionInfo?, ticket: UInt64?) {
        lock.withLock {
            guard listening else { return (nil, nil) }
            if let entry = entries[digest], now() - entry.storedAt < settings.maxAge {
                figures.hits += 1
                return (entry.row, nil)
            }
            figures.misses += 1
            return (nil, generation)
        }
    }

    /// Keeps `row` unless the cache changed since `ticket` was given (an invalidation could concern this very row).
    func store(_ row: SessionInfo, for digest: Data, ticket: UInt64) {
        lock.withLock {
            guard listening, ticket == generation else { return }
            if entries.count >= settings.capacity, entries[digest] == nil { removeAll() }
            if let old = entries[digest], old.row.accountId != row.accountId { digestsByAccount[old.row.accountId]?.remove(digest) }
            entries[digest] = Entry(row: row, storedAt: now())
            digestsByAccount[row.accountId, default: []].insert(digest)
        }
    }

    /// This host wrote a newer `lastSeenAt` for `digest`: keep the entry in step, so the next request does not write it again.
    func touched(_ digest: Data, lastSeenAt: Double) {
        lock.withLock { entries[digest]?.row.lastSeenAt = Date(timeIntervalSince1970: lastSeenAt) }
    }

    /// Forgets every session of `accountId` (a session ended, an address changed).
    func invalidate(accountId: Int64) {
        lock.withLock {
            generation &+= 1
            figures.invalidations += 1
            for digest in digestsByAccount.removeValue(forKey: accountId) ?? [] { entries[digest] = nil }
        }
    }

    /// Forgets the session `digest`.
    func invalidate(digest: Data) {
        lock.withLock {
            generation &+= 1
            figures.invalidations += 1
            if let entry = entries.removeValue(forKey: digest) { digestsByAccount[entry.row.accountId]?.remove(digest) }
        }
    }

    /// Forgets everything: the listener (re)started listening (`true`) or lost its connection (`false`).
    func reset(listening: Bool) {
        lock.withLock {
            generation &+= 1
            figures.resets += 1
            self.listening = listening
            removeAll()
        }
    }

    var currentFigures: SessionCacheFigures {
        lock.withLock {
            var copy = figures
            copy.entries = entries.count
            copy.listening = listening
            return copy
        }
    }

    private func removeAll() {
        entries.removeAll(keepingCapacity: true)
        digestsByAccount.removeAll(keepingCapacity: true)
    }

    static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// The session changes one transaction reported (one thread uses it), applied to the cache when it ends: what may
/// have ended is forgotten whatever happened (a lost COMMIT may have committed); a touch is kept only once committed.
final class SessionChanges {
    var list: [SessionChange] = []
    var committed = false

    func apply(to cache: SessionCache) {
        for change in list {
            switch change {
            case .account(let accountId): cache.invalidate(accountId: accountId)
            case .session(let digest): cache.invalidate(digest: digest)
            case .touched(let digest, let lastSeenAt): if committed { cache.touched(digest, lastSeenAt: lastSeenAt) }
            }
        }
    }
}
