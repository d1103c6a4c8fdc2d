// LockConditionTests.swift: a condition of its own on a Lock, with real threads: a signal wakes its one waiter, a
// queue of waiters each with its own is served oldest first, and a timed wait gives up.
import Foundation
import Locking
import Testing

/// State the tests' threads share, guarded by `lock` (every access is inside `lock.withLock`).
private final class Shared: @unchecked Sendable {
    final class Waiter {
        let wake: LockCondition
        var item: Int?
        init(_ lock: Lock) { wake = LockCondition(on: lock) }
    }

    let lock = Lock()
    lazy var condition = LockCondition(on: lock)
    var ready = false
    var waiting = false
    var queue: [Waiter] = []
}

@Suite struct LockConditionTests {
    /// Given a thread waiting (up to 30 s) on its own condition; when the state changes and that condition is
    /// signalled, then the thread returns at once, well before its timeout.
    @Test func aSignalWakesItsWaiter() {
        let shared = Shared()
        let condition = shared.condition
        let done = Locked<Bool?>(nil)
        Thread.detachNewThread {
            let woken = shared.lock.withLock {
                shared.waiting = true
                shared.lock.broadcast()
                return condition.wait(until: { shared.ready }, timeout: 30)
            }
            done.change { $0 = woken }
        }
        shared.lock.withLock {
            shared.lock.wait(until: { shared.waiting })
            shared.ready = true
            condition.signal()
        }
        #expect(done.withLock(waitingUntil: { $0 != nil }, timeout: 10) { $0 } == .some(true))
    }

    /// Given five threads queued one after the other, each on its own condition; when items are handed to the oldest
    /// waiter one at a time, then thread i gets item i.
    @Test func aQueueOfWaitersIsServedOldestFirst() {
        let shared = Shared()
        let got = Locked<[Int: Int]>([:])
        let finished = DispatchGroup()
        for index in 0..<5 {
            finished.enter()
            Thread.detachNewThread {
                let item = shared.lock.withLock {
                    let mine = Shared.Waiter(shared.lock)
                    shared.queue.append(mine)
                    shared.lock.broadcast()
                    _ = mine.wake.wait(until: { mine.item != nil })
                    return mine.item
                }
                got.withLock { $0[index] = item }
                finished.leave()
            }
            shared.lock.withLock { shared.lock.wait(until: { shared.queue.count == index + 1 }) }
        }
        for item in 0..<5 {
            shared.lock.withLock {
                let oldest = shared.queue.removeFirst()
                oldest.item = item
                oldest.wake.signal()
            }
        }
        finished.wait()
        #expect(got.withLock { $0 } == [0: 0, 1: 1, 2: 2, 3: 3, 4: 4])
    }

    @Test func aTimedWaitGivesUpWhenNothingChanges() {
        let shared = Shared()
        let condition = shared.condition
        #expect(shared.lock.withLock { condition.wait(until: { false }, timeout: 0.01) } == false)
    }
}
