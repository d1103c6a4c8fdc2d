// Clock.swift: the injected source of "now", real or fixed for tests.
import Foundation
import Locking

/// Where AccountCore reads the time; injected so expiry can be tested.
public protocol Clock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system's wall clock.
public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that stands still until moved: for tests.
public final class FixedClock: Clock, @unchecked Sendable {
    private let lock = Lock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = start }

    public func now() -> Date { lock.withLock { current } }

    /// Moves the clock forward by `interval` seconds.
    public func advance(by interval: TimeInterval) { lock.withLock { current += interval } }
}
