// RandomSource.swift: the injected source of random bytes, the system's or a seeded one for tests.
import Locking

/// Where AccountCore gets random bytes for tokens and salts.
public protocol RandomSource: Sendable {
    /// `count` random bytes.
    func bytes(_ count: Int) -> [UInt8]
}

/// The operating system's cryptographically secure generator (getrandom).
public struct SystemRandomSource: RandomSource {
    public init() {}
    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

/// Repeatable bytes from a seed (SplitMix64): for tests only, never for real tokens.
public final class SeededRandomSource: RandomSource, @unchecked Sendable {
    private let lock = Lock()
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public func bytes(_ count: Int) -> [UInt8] {
        lock.withLock {
            (0..<count).map { _ in
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return UInt8(truncatingIfNeeded: z ^ (z >> 31))
            }
        }
    }
}
