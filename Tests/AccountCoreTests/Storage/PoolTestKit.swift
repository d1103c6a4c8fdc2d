// PoolTestKit.swift: what the pool and touch tests share: a backend with chosen pool limits, a thread that holds a
// pooled connection until told to let go, and a poll for a condition.
import AccountRules
import Foundation
import Locking
import StorageTestKit
@testable import AccountCore

enum PoolTestKit {
    /// A PostgreSQL backend on `url` with `size` connections, a pool wait of `wait` seconds and `reserve` kept for the gate.
    static func backend(_ url: String, size: Int, wait: TimeInterval = 1, reserve: Int = 0, cacheMaxAge: TimeInterval = 0) throws -> PostgresBackend {
        var settings = PostgresSettings(url: url, poolSize: size, sessionCacheMaxAge: cacheMaxAge)
        settings.poolWait = wait
        settings.gateReserve = reserve
        return try PostgresBackend(settings: settings)
    }

    /// Polls `condition` every millisecond for up to `seconds`; throws when it never held.
    static func waitUntil(_ what: String, seconds: Double = 10, _ condition: () throws -> Bool) throws {
        let start = Date()
        while try !condition() {
            guard Date().timeIntervalSince(start) < seconds else { throw StorageError.failed("timed out waiting until \(what)") }
            usleep(1000)
        }
    }

    /// An account with a primary address and one browser session seen at `now`; returns the account id.
    @discardableResult
    static func account(_ email: String, session digest: Data, at now: Date, on backend: any StorageBackend) throws -> Int64 {
        try backend.write { tx in
            // With its username, as this version makes every account (UsernamesTests covers an older host's, without).
            let id = try tx.insert("INSERT INTO account (passwordHash, createdAt, updatedAt, username) VALUES ('x', 1, 1, ?) RETURNING id",
                                   [Username.base(from: email)])
            try tx.execute("INSERT INTO emailAddress (accountId, address, normalizedAddress, isPrimary, verifiedAt, createdAt) VALUES (?, ?, ?, TRUE, 1, 1)",
                           [id, email, email])
            try tx.insertSession(digest: digest, accountId: id, now: now, expiresAt: now + 3600, rememberMe: false,
                                 client: ClientInfo(), kind: .browser)
            return id
        }
    }

    /// The server's process ids of `count` pooled connections taken at once (each read waits inside until all have one).
    static func backendPids(_ backend: PostgresBackend, count: Int) throws -> Set<Int64> {
        let pids = Locked<Set<Int64>>([])
        let arrived = Locked(0)
        let errors = Racers.outcomes(count) { _ in
            try backend.read { tx in
                let pid = try tx.value(Int64.self, "SELECT CAST(pg_backend_pid() AS bigint)") ?? 0
                pids.withLock { _ = $0.insert(pid) }
                arrived.change { $0 += 1 }
                guard arrived.withLock(waitingUntil: { $0 == count }, timeout: 10, { _ in true }) != nil else {
                    throw StorageError.failed("the readers never all held a connection")
                }
            }
        }
        if let error = errors.compactMap({ $0 }).first { throw error }
        return pids.withLock { $0 }
    }
}

/// A thread holding one pooled connection (inside a read) until `release()`; `gaveUp` when it let go on its own after
/// `patience` seconds (a test that waited for something that never came).
final class ConnectionHolder: @unchecked Sendable {
    private let state = Locked<(entered: Bool, failed: (any Error)?, released: Bool, done: Bool, gaveUp: Bool)>(
        (false, nil, false, false, false))

    init(_ backend: PostgresBackend, patience: Double = 20, then next: (@Sendable () -> Void)? = nil) {
        let state = self.state
        Thread.detachNewThread {
            do {
                try backend.read { tx in
                    _ = try tx.value(Int.self, "SELECT 1")
                    state.change { $0.entered = true }
                    if state.withLock(waitingUntil: { $0.released }, timeout: patience, { _ in true }) == nil {
                        state.change { $0.gaveUp = true }
                    }
                }
            } catch {
                state.change { $0.failed = error }
            }
            next?()
            state.change { $0.done = true }
        }
    }

    /// Waits until the thread holds its connection (true) or could not get one (false).
    func holds() -> Bool {
        state.withLock(waitingUntil: { $0.entered || $0.failed != nil }, { $0.entered }) ?? false
    }

    func release() { state.change { $0.released = true } }

    /// Waits until the thread is done; true when it let go only when told to.
    func finish() -> Bool {
        state.withLock(waitingUntil: { $0.done }, { !$0.gaveUp }) ?? false
    }
}
