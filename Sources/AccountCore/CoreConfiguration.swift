// CoreConfiguration.swift: the part of the configuration AccountCore needs, with its defaults.
import AccountRules
import Foundation

/// Session lifetimes (config section `session`).
public struct SessionPolicy: Sendable, Equatable {
    /// Absolute lifetime of a session (default 12 h).
    public var lifetime: TimeInterval
    /// A session unused for this long ends (default 1 h); remember-me sessions use `rememberLifetime` instead.
    public var idleTimeout: TimeInterval
    /// Absolute lifetime with "remember me" (default 30 days).
    public var rememberLifetime: TimeInterval
    /// How stale `lastSeenAt` may get before a request updates it (default 60 s: at most one write a minute per session).
    public var touchInterval: TimeInterval

    public init(lifetime: TimeInterval = 12 * 3600, idleTimeout: TimeInterval = 3600,
                rememberLifetime: TimeInterval = 30 * 86400, touchInterval: TimeInterval = 60) {
        self.lifetime = lifetime
        self.idleTimeout = idleTimeout
        self.rememberLifetime = rememberLifetime
        self.touchInterval = touchInterval
    }

    public static let `default` = SessionPolicy()
}

/// Password rules and hashing cost (config section `password`).
public struct PasswordPolicy: Sendable, Equatable {
    /// Accepted password lengths in characters (default 8…128).
    public var length: ClosedRange<Int>
    /// argon2id parameters.
    public var hashing: PasswordHasher.Parameters

    public init(length: ClosedRange<Int> = AccountForms.defaultPasswordLength, hashing: PasswordHasher.Parameters = .default) {
        self.length = length
        self.hashing = hashing
    }

    public static let `default` = PasswordPolicy()
}

/// Everything AccountCore is configured with.
public struct CoreConfiguration: Sendable, Equatable {
    public var session: SessionPolicy
    public var password: PasswordPolicy

    public init(session: SessionPolicy = .default, password: PasswordPolicy = .default) {
        self.session = session
        self.password = password
    }

    public static let `default` = CoreConfiguration()
}
