// PasswordHasher.swift: argon2id password hashes through libargon2, in the encoded `$argon2id$…` form.
//
// Options (config section `password`):
//   argon2_memory_kib   memory per hash in KiB
//   argon2_iterations   passes over memory
//   argon2_parallelism  lanes
// Defaults: `Parameters.default`, OWASP's minimum for argon2id (see the key table).
import Foundation
import Locking

/// Hashes and verifies passwords with argon2id (on a `HashingPool`); unknown accounts are verified against a
/// dummy hash so that they take as long as a wrong password.
public final class PasswordHasher: Sendable {
    /// argon2id cost parameters.
    public struct Parameters: Sendable, Equatable {
        public var memoryKiB: UInt32
        public var iterations: UInt32
        public var parallelism: UInt32

        public init(memoryKiB: UInt32 = 19_456, iterations: UInt32 = 2, parallelism: UInt32 = 1) {
            self.memoryKiB = memoryKiB
            self.iterations = iterations
            self.parallelism = parallelism
        }

        /// OWASP's recommended minimum: m=19 MiB, t=2, p=1.
        public static let `default` = Parameters()

        /// The `m=…,t=…,p=…` part of an encoded hash made with these parameters.
        var encodedPart: String { "m=\(memoryKiB),t=\(iterations),p=\(parallelism)" }
    }

    /// Why hashing failed (libargon2's own message; never contains the password).
    public struct HashingError: Error, CustomStringConvertible {
        public let description: String
    }

    public let parameters: Parameters
    private let random: any RandomSource
    private let dummy: DummyHash
    /// Where the argon2id work runs: a few low-priority threads, whatever thread asks.
    private let pool: HashingPool

    public init(parameters: Parameters = .default, random: any RandomSource) {
        self.parameters = parameters
        self.random = random
        self.dummy = DummyHash()
        self.pool = HashingPool { Argon2.installThreadMemory(kib: parameters.memoryKiB) }
    }

    /// The encoded argon2id hash of `password` with a fresh 16-byte salt.
    public func hash(_ password: String) throws -> String {
        let salt = random.bytes(16)
        let pw = Array(password.utf8)
        let parameters = parameters
        return try pool.run { Argon2.hash(pw, salt: salt, parameters: parameters) }.get()
    }

    /// True when `password` matches the encoded hash; false for a wrong password or an unreadable hash.
    public func verify(_ password: String, against encoded: String) -> Bool {
        let pw = Array(password.utf8)
        return pool.run { Argon2.verify(pw, against: encoded) }
    }

    /// Spends the time of one verification and returns false: for sign-ins to unknown accounts.
    public func verifyAgainstDummy(_ password: String) -> Bool {
        let encoded = dummy.value { (try? hash("frontdoor dummy password")) ?? "" }
        _ = verify(password, against: encoded)
        return false
    }

    /// True when `encoded` was made with other parameters than the current ones (rehash after sign-in).
    public func needsRehash(_ encoded: String) -> Bool {
        !encoded.hasPrefix("$argon2id$v=19$\(parameters.encodedPart)$")
    }
}

/// The dummy hash, made on first use so that start-up (and CGI requests) don't pay for it.
private final class DummyHash: @unchecked Sendable {
    private let lock = Lock()
    private var encoded: String?

    func value(_ make: () -> String) -> String {
        lock.withLock {
            if let encoded { return encoded }
            let made = make()
            encoded = made
            return made
        }
    }
}
