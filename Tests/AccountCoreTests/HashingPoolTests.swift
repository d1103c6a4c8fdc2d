// HashingPoolTests.swift: work runs on the pool's low-priority threads, several at once, and returns its result.
import Foundation
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
        let counts = Concurrency()
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            pool.run {
                counts.enter()
                // Wait (a condition, not a guess at timing) until a second job runs alongside; a pool with one
                // thread never gets there, and the peak stays 1 after the deadline.
                let deadline = Date() + 10
                while counts.peak < 2 && Date() < deadline { usleep(1_000) }
                counts.leave()
            }
        }
        #expect(counts.peak == 2)
    }
}

/// How many jobs run at once, and the most at any moment.
private final class Concurrency: @unchecked Sendable {
    private let lock = NSLock()
    private var running = 0
    private var highest = 0
    var peak: Int { lock.withLock { highest } }
    func enter() { lock.withLock { running += 1; highest = max(highest, running) } }
    func leave() { lock.withLock { running -= 1 } }
}
