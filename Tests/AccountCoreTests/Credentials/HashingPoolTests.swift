// HashingPoolTests.swift: work runs on the pool's low-priority threads, several at once, and returns its result.
import Foundation
import Locking
import Testing
@testable import AccountCore

struct HashingPoolTests {
    @Test func workRunsOnALowerPriorityThreadAndReturnsItsResult() {
        let pool = HashingPool(threads: 2)
        let callerNice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let (value, nice, onCaller) = pool.run { (21 * 2, getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), Thread.isMainThread) }
        #expect(value == 42 && !onCaller)
        #expect(nice == 5 && callerNice != 5, "only the pool's threads are reniced")
    }

    @Test func jobsFromManyCallersRunInParallelUpToTheThreadCount() {
        let pool = HashingPool(threads: 2)
        let running = Locked((now: 0, peak: 0))
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            pool.run {
                running.change { $0.now += 1; $0.peak = max($0.peak, $0.now) }
                // Wait (a condition, not a guess at timing) until a second job runs alongside; a pool with one
                // thread never gets there, and the peak stays 1 after the deadline.
                _ = running.withLock(waitingUntil: { $0.peak >= 2 }, timeout: 10) { _ in }
                running.change { $0.now -= 1 }
            }
        }
        #expect(running.withLock { $0.peak } == 2)
    }

    @Test func everyThreadIsSetUpBeforeTheFirstJobRuns() {
        // Given a pool whose threads each record their set-up
        let setUp = Locked<Set<UInt>>([])
        let pool = HashingPool(threads: 3) { setUp.change { $0.insert(UInt(pthread_self())) } }
        // When the first job runs, every thread has already been set up (PasswordHasher's argon2 memory is all
        // resident from the first hash on, not whenever a thread happens to take its first job)
        let (seenByFirstJob, runner) = pool.run { (setUp.withLock { $0 }, UInt(pthread_self())) }
        #expect(seenByFirstJob.count == 3)
        #expect(seenByFirstJob.contains(runner))
    }
}
