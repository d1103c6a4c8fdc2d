// Racers.swift: racing threads for the rules that need exactly one winner (ConcurrencyRulesTests, SeveralHostsTests).
//
// Options: how many racers. Each runs on a thread of its own, not a pool as wide as the cores, so every racer is in
// flight at once even on two cores; all wait at one gate and are released together.
import Foundation
import Locking

public enum Racers {
    /// Runs `body` on `count` threads released together; returns each racer's error, nil for those that returned.
    public static func outcomes(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> [(any Error)?] {
        let errors = Locked([Int: any Error]())
        let ready = DispatchGroup(), start = DispatchSemaphore(value: 0), done = DispatchGroup()
        for index in 0..<count {
            ready.enter()
            done.enter()
            Thread.detachNewThread {
                ready.leave()
                start.wait()
                do { try body(index) } catch { errors.change { $0[index] = error } }
                done.leave()
            }
        }
        ready.wait()
        for _ in 0..<count { start.signal() }
        done.wait()
        return errors.withLock { found in (0..<count).map { found[$0] } }
    }
}
