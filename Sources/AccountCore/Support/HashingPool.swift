// HashingPool.swift: runs argon2id work on a few dedicated threads of lower priority, so password hashing never
// takes every request thread's CPU: gate checks and pages answered by other workers keep their latency.
//
// Options: `threads` (default: the number of cores). Jobs run in arrival order, `threads` at a time, each thread on
// its own; the caller waits for its result. Threads start on first use (a CGI request that hashes nothing pays nothing)
// and run at nice +5 (Linux sets priority per thread): the scheduler favours the cheap requests. Memory: each pool
// thread's malloc arena keeps one argon2 block (19 MiB) for reuse, so hashing memory is bounded by `threads` blocks
// and pays no page faults after the first hash (workers hashing themselves kept one block per worker: ~150 MiB).
import Foundation

/// A fixed set of background threads for CPU-heavy, memory-heavy work (one argon2id hash costs 19 MiB).
final class HashingPool: @unchecked Sendable {
    private let threads: Int
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var started = false

    init(threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.threads = max(1, threads)
    }

    /// Runs `work` on a pool thread and returns its result once done.
    func run<T>(_ work: @escaping () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        var result: T?
        submit {
            result = work()
            done.signal()
        }
        done.wait()
        return result!
    }

    private func submit(_ job: @escaping () -> Void) {
        condition.lock()
        if !started { startThreads() }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Called with `condition` held.
    private func startThreads() {
        started = true
        for index in 0..<threads {
            let thread = Thread { [self] in
                setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)   // on Linux, who = 0 is this thread only
                loop()
            }
            thread.name = "argon2-\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
