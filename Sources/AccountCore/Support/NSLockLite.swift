// NSLockLite.swift: a small lock wrapper (Foundation's NSLock: clean under the thread sanitizer, unlike Mutex).
import Foundation

/// A lock with one method; used where a few fields are shared between worker threads.
final class NSLockLite: @unchecked Sendable {
    private let lock = NSLock()
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
