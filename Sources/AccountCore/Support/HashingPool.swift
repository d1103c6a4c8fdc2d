// HashingPool.swift: runs argon2id work on a few dedicated threads of lower priority, so password hashing never
// takes every request thread's CPU: gate checks and pages answered by other workers keep their latency.
//
// Options: `threads` (default: the number of cores), `setUp` (run once on each pool thread as it starts, before any
// job: PasswordHasher gives each thread its argon2 work memory there). Jobs run in arrival order, `threads` at a time,
// each thread on its own; the caller waits for its result. Threads start on first use (a CGI request that hashes
// nothing pays nothing) and run at nice +5 (Linux sets priority per thread): the scheduler favours the cheap
// requests. The first job waits until every thread has finished `setUp`, so what `setUp` allocates is all there
// (and resident) from the first hash on, never later in a run by chance of which thread takes which job.
import Foundation
import Locking

/// A fixed set of background threads for CPU-heavy, memory-heavy work (one argon2id hash costs 19 MiB).
final class HashingPool: @unchecked Sendable {
    private let threads: Int
    private let setUp: @Sendable () -> Void
    private let lock = Lock()
    private var jobs: [() -> Void] = []
    private var started = false
    private var ready = 0

    init(threads: Int = ProcessInfo.processInfo.activeProcessorCount, setUp: @escaping @Sendable () -> Void = {}) {
        self.threads = max(1, threads)
        self.setUp = setUp
    }

    /// Runs `work` on a pool thread and returns its result once done.
    func run<T>(_ work: @escaping () -> T) -> T {
        let done = Lock()
        var result: T?
        submit {
            let value = work()
            done.withLock {
                result = value
                done.broadcast()
            }
        }
        return done.withLock {
            done.wait(until: { result != nil })
            return result!
        }
    }

    private func submit(_ job: @escaping () -> Void) {
        lock.withLock {
            if !started { startThreads() }
            lock.wait(until: { ready == threads })
            jobs.append(job)
            lock.broadcast()
        }
    }

    /// Called with `lock` held.
    private func startThreads() {
        started = true
        for index in 0..<threads {
            let thread = Thread { [self] in
                setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)   // on Linux, who = 0 is this thread only
                setUp()
                lock.withLock {
                    ready += 1
                    lock.broadcast()
                }
                loop()
            }
            thread.name = "argon2-\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    private func loop() {
        while true {
            let job = lock.withLock {
                lock.wait(until: { !jobs.isEmpty })
                return jobs.removeFirst()
            }
            job()
        }
    }
}
