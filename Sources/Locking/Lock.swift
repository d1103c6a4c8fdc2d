// Lock.swift: the project's one lock: a pthread mutex with a condition, which the thread sanitizer sees.
//
// Why not `Synchronization.Mutex`: on Linux it is a priority-inheriting futex, and under contention the kernel hands
// it over with no user-space atomic, so the thread sanitizer reports races that are not there. Why not
// NSLock/NSCondition: one kind in the whole project, whose timed wait reads the monotonic clock, and no Foundation.
// The sanitizer intercepts `pthread_mutex_*` and `pthread_cond_*`, so it sees every hand-over.
//
// Options: none. Use `withLock` for a critical section; inside it, `wait(until:)` sleeps until a predicate over the
// guarded state holds (another thread changes the state inside `withLock` and calls `broadcast()`). Where a change
// must wake one chosen thread and no other (a queue that hands a resource to its oldest waiter), each waiter waits on
// a `LockCondition` of its own on the same lock, and the changer `signal()`s that one.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock with a condition for waiting on the state it guards.
///
/// ```swift
/// let lock = Lock()
/// var jobs: [Job] = []
/// lock.withLock { jobs.append(job); lock.broadcast() }
/// let next = lock.withLock { lock.wait(until: { !jobs.isEmpty }); return jobs.removeFirst() }
/// ```
public final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init")
        Self.initialize(condition)
    }

    /// Makes `condition` a condition whose timed waits read the monotonic clock (they ignore wall-clock jumps).
    fileprivate static func initialize(_ condition: UnsafeMutablePointer<pthread_cond_t>) {
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if !canImport(Darwin)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        precondition(pthread_cond_init(condition, &attributes) == 0, "pthread_cond_init")
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Only inside `withLock`: releases the lock while asleep and returns, holding it, once `ready()` is true.
    public func wait(until ready: () -> Bool) {
        while !ready() { pthread_cond_wait(condition, mutex) }
    }

    /// Only inside `withLock`: as `wait(until:)`, but gives up after `seconds` (infinity: never); returns whether
    /// `ready()` holds.
    public func wait(until ready: () -> Bool, timeout seconds: Double) -> Bool {
        wait(on: condition, until: ready, timeout: seconds)
    }

    /// Sleeps on `condition` (holding this lock) until `ready()`, or `seconds` have passed; returns whether it holds.
    fileprivate func wait(on condition: UnsafeMutablePointer<pthread_cond_t>, until ready: () -> Bool, timeout seconds: Double) -> Bool {
        guard seconds.isFinite else {
            while !ready() { pthread_cond_wait(condition, mutex) }
            return true
        }
        let deadline = Self.monotonicNow() + seconds
        while !ready() {
            let left = deadline - Self.monotonicNow()
            guard left > 0 else { return false }
            #if canImport(Darwin)
            var span = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
            _ = pthread_cond_timedwait_relative_np(condition, mutex, &span)
            #else
            var at = timespec(tv_sec: Int(deadline), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
            _ = pthread_cond_timedwait(condition, mutex, &at)
            #endif
        }
        return true
    }

    /// Wakes every thread in `wait`; call it after changing the guarded state, inside `withLock`.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }

    private static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// A condition of its own on a `Lock`: the one thread waiting on it is woken by `signal()`, and nobody else is.
///
/// ```swift
/// // A waiter, inside lock.withLock: queue up with a condition of its own and sleep until served.
/// let mine = Waiter(wake: LockCondition(on: lock)); queue.append(mine)
/// _ = mine.wake.wait(until: { mine.item != nil }, timeout: 1)
/// // The server, inside lock.withLock: hand the item to the oldest waiter and wake only it.
/// let oldest = queue.removeFirst(); oldest.item = item; oldest.wake.signal()
/// ```
public final class LockCondition: @unchecked Sendable {
    private let lock: Lock
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init(on lock: Lock) {
        self.lock = lock
        Lock.initialize(condition)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Only inside the lock's `withLock`: releases the lock while asleep, until `ready()` holds (true) or `seconds`
    /// have passed (false); infinity waits for as long as it takes. Woken by `signal()` only.
    public func wait(until ready: () -> Bool, timeout seconds: Double = .infinity) -> Bool {
        lock.wait(on: condition, until: ready, timeout: seconds)
    }

    /// Wakes the thread waiting on this condition; call it after changing what it waits for, inside `withLock`.
    public func signal() {
        pthread_cond_signal(condition)
    }
}

/// A value that only one thread at a time may read or change: a `Lock` and the state it guards.
///
/// ```swift
/// let cache = Locked<[String: Document]>([:])
/// cache.withLock { $0[url] = document }
/// ```
public final class Locked<Value> {
    private let lock = Lock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` on the value, holding the lock.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }

    /// Waits (up to `seconds`; by default for as long as it takes) until `ready` holds for the value, then runs
    /// `body` on it, holding the lock; nil when the time ran out.
    public func withLock<T>(waitingUntil ready: (Value) -> Bool, timeout seconds: Double = .infinity,
                            _ body: (inout Value) throws -> T) rethrows -> T? {
        try lock.withLock {
            guard lock.wait(until: { ready(value) }, timeout: seconds) else { return nil }
            return try body(&value)
        }
    }

    /// Changes the value and wakes every thread waiting in `withLock(waitingUntil:)`.
    public func change(_ body: (inout Value) -> Void) {
        lock.withLock {
            body(&value)
            lock.broadcast()
        }
    }
}

extension Locked: @unchecked Sendable where Value: Sendable {}
