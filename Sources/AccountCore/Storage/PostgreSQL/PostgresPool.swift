// PostgresPool.swift: the process's PostgreSQL connections, handed out first come, first served.
//
// Options (config section `database`, through PostgresSettings):
//   pool_size     connections at most
//   pool_wait     how long a request waits for one before it is answered 503 (separate from connect_timeout, and
//                 short: an overloaded host says so at once rather than holding its workers)
//   gate_reserve  connections only the gate's session lookup may take (at most pool_size − 1): however busy ordinary
//                 work is, the question every protected request asks can still be answered
// Waiters queue: a returned connection goes straight to the oldest waiter that may take it (only that thread is
// woken), so a thread that just gave one back cannot overtake threads already asleep. Idle connections are handed out
// most recently used first (their prepared statements are warm). A connection goes back to the pool only when it is
// outside any transaction and the server has not closed it; one found dead is replaced alone, the others stay.
import Foundation
import Locking

/// Who asks for a connection: ordinary work, or the gate's session lookup (which may also take the reserve).
enum PoolClaim {
    case ordinary
    case gate
}

/// The pool: idle connections, how many are open and in use, and the queue of waiting threads.
final class PostgresPool: @unchecked Sendable {
    struct Limits: Sendable, Equatable {
        var size: Int
        var wait: TimeInterval
        var gateReserve: Int
    }

    /// What a waiter is given: an idle connection, or leave to open one.
    private enum Grant {
        case connection(PostgresConnection)
        case open
    }

    private final class Waiter {
        let claim: PoolClaim
        let wake: LockCondition
        var grant: Grant?

        init(claim: PoolClaim, lock: Lock) {
            self.claim = claim
            wake = LockCondition(on: lock)
        }
    }

    let limits: Limits
    private let connect: () throws -> PostgresConnection
    private let lock = Lock()
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var ordinaryInUse = 0
    private var queue: [Waiter] = []

    /// A pool that opens its connections with `connect` and starts with `first`.
    init(limits: Limits, first: PostgresConnection, connect: @escaping () throws -> PostgresConnection) {
        self.limits = limits
        self.connect = connect
        idle = [first]
        open = 1
    }

    /// Connections ordinary work may hold at once: all but the gate's reserve (always at least one).
    private var ordinaryLimit: Int { max(1, limits.size - max(0, limits.gateReserve)) }

    /// Threads waiting for a connection now (tests watch the queue fill).
    var waiting: Int { lock.withLock { queue.count } }

    /// Connections open now (idle or in use).
    var openCount: Int { lock.withLock { open } }

    /// A connection for `claim`, waiting in line up to `limits.wait`; `StorageError.unavailable` when none came.
    func checkout(_ claim: PoolClaim) throws -> PostgresConnection {
        let grant: Grant? = lock.withLock {
            if let grant = take(for: claim) { return grant }
            let waiter = Waiter(claim: claim, lock: lock)
            queue.append(waiter)
            guard waiter.wake.wait(until: { waiter.grant != nil }, timeout: limits.wait) else {
                queue.removeAll { $0 === waiter }
                return nil
            }
            return waiter.grant
        }
        guard let grant else { throw StorageError.unavailable("postgresql: all \(limits.size) connections busy") }
        return try ready(grant, for: claim)
    }

    /// An idle connection for `claim` when one is free this instant and nobody waits; nil otherwise (never waits, never
    /// connects): for work that is better skipped than waited for.
    func checkoutIfFree(_ claim: PoolClaim) -> PostgresConnection? {
        let connection: PostgresConnection? = lock.withLock {
            guard queue.isEmpty, mayTake(claim), let connection = idle.popLast() else { return nil }
            claimed(claim)
            return connection
        }
        guard let connection else { return nil }
        if connection.isReusable { return connection }
        checkin(connection, claim)   // the server closed it while it sat idle: it goes, and so does this turn
        return nil
    }

    /// Gives `connection` back: to the oldest waiter that may take it, else to the idle ones; closed instead when it is
    /// still inside a transaction or the server has gone away.
    func checkin(_ connection: PostgresConnection, _ claim: PoolClaim) {
        let reusable = connection.isReusable
        lock.withLock {
            released(claim)
            if reusable { idle.append(connection) } else { open -= 1 }
            handOver()
        }
    }

    /// The grant for a caller that may go first: an idle connection, or leave to open one; nil when it must wait.
    private func take(for claim: PoolClaim) -> Grant? {
        guard mayTake(claim) else { return nil }
        if let connection = idle.popLast() {
            claimed(claim)
            return .connection(connection)
        }
        guard open < limits.size else { return nil }
        open += 1
        claimed(claim)
        return .open
    }

    private func mayTake(_ claim: PoolClaim) -> Bool {
        claim == .gate || ordinaryInUse < ordinaryLimit
    }

    private func claimed(_ claim: PoolClaim) { if claim == .ordinary { ordinaryInUse += 1 } }
    private func released(_ claim: PoolClaim) { if claim == .ordinary { ordinaryInUse -= 1 } }

    /// Hands what is free to the waiters in order of arrival, each woken alone; a waiter that may not take what is free
    /// (ordinary work while only the gate's reserve is left) keeps its place.
    private func handOver() {
        var index = 0
        while index < queue.count, !idle.isEmpty || open < limits.size {
            let waiter = queue[index]
            if let grant = take(for: waiter.claim) {
                waiter.grant = grant
                queue.remove(at: index)
                waiter.wake.signal()
            } else {
                index += 1
            }
        }
    }

    /// The connection a grant stands for: the idle one when the server has not closed it meanwhile, else a new one in
    /// its place (only that one: the others are checked as they come up).
    private func ready(_ grant: Grant, for claim: PoolClaim) throws -> PostgresConnection {
        if case .connection(let connection) = grant, connection.isReusable { return connection }
        do {
            return try connect()
        } catch {
            lock.withLock {
                released(claim)
                open -= 1
                handOver()
            }
            throw error
        }
    }
}
