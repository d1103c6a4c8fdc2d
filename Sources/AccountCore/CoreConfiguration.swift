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

/// Mailed links and their mail (config sections `confirmation`, `reminder`, `mail`).
public struct MailPolicy: Sendable, Equatable {
    /// Sign-in waits until the address is confirmed (default true).
    public var confirmationRequired: Bool
    /// Lifetime of a confirmation link (default 3 days).
    public var confirmationLifetime: TimeInterval
    /// Lifetime of a password reset link (default 1 h).
    public var resetLifetime: TimeInterval
    /// At most one mail of a kind per address in this window (default 60 s).
    public var throttle: TimeInterval
    /// First retry delay of a failed delivery, doubling up to an hour (default 30 s).
    public var retryBase: TimeInterval

    public init(confirmationRequired: Bool = true, confirmationLifetime: TimeInterval = 3 * 86400,
                resetLifetime: TimeInterval = 3600, throttle: TimeInterval = 60, retryBase: TimeInterval = 30) {
        self.confirmationRequired = confirmationRequired
        self.confirmationLifetime = confirmationLifetime
        self.resetLifetime = resetLifetime
        self.throttle = throttle
        self.retryBase = retryBase
    }

    public static let `default` = MailPolicy()
}

/// Everything AccountCore is configured with.
public struct CoreConfiguration: Sendable, Equatable {
    public var session: SessionPolicy
    public var password: PasswordPolicy
    public var mail: MailPolicy

    public init(session: SessionPolicy = .default, password: PasswordPolicy = .default, mail: MailPolicy = .default) {
        self.session = session
        self.password = password
        self.mail = mail
    }

    public static let `default` = CoreConfiguration()
}
