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
                usleep(20_000)
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
    private(set) var peak = 0
    func enter() { lock.withLock { running += 1; peak = max(peak, running) } }
    func leave() { lock.withLock { running -= 1 } }
}
