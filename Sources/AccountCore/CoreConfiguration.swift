// CoreConfiguration.swift: the part of the configuration AccountCore needs. The default values below are those config
// keys' defaults, each written once: here, or in the type a comment names (password length, argon2). WebFront's
// AppConfiguration starts from them, and its key table (`frontdoor config reference`) shows them. Comments name the
// key, never the number.
import AccountRules
import Foundation

/// Session lifetimes (config section `session`).
public struct SessionPolicy: Sendable, Equatable {
    /// Absolute lifetime of a session (config `session.lifetime`).
    public var lifetime: TimeInterval
    /// A session unused for this long ends (`session.idle_timeout`); remember-me sessions use `rememberLifetime` instead.
    public var idleTimeout: TimeInterval
    /// Absolute lifetime with "remember me" (`session.remember_lifetime`).
    public var rememberLifetime: TimeInterval
    /// How stale `lastSeenAt` may get before a request updates it (not a config key: at most one write per interval per session).
    public var touchInterval: TimeInterval
    /// Password change, address changes and deletion need the password entered within this long (`session.reauthenticate_after`).
    public var reauthenticateAfter: TimeInterval
    /// Absolute lifetime of an API token (config `api.token_lifetime`); API tokens have no idle timeout.
    public var apiTokenLifetime: TimeInterval
    /// How many accounts one browser may be signed in to at once (`session.max_accounts`; see BrowserSessions).
    public var maxAccounts: Int

    public init(lifetime: TimeInterval = 12 * 3600, idleTimeout: TimeInterval = 1800,
                rememberLifetime: TimeInterval = 30 * 86400, touchInterval: TimeInterval = 60,
                reauthenticateAfter: TimeInterval = 600, apiTokenLifetime: TimeInterval = 90 * 86400, maxAccounts: Int = 5) {
        self.lifetime = lifetime
        self.idleTimeout = idleTimeout
        self.rememberLifetime = rememberLifetime
        self.touchInterval = touchInterval
        self.reauthenticateAfter = reauthenticateAfter
        self.apiTokenLifetime = apiTokenLifetime
        self.maxAccounts = maxAccounts
    }

    public static let `default` = SessionPolicy()
}

/// Password rules and hashing cost (config section `password`).
public struct PasswordPolicy: Sendable, Equatable {
    /// Accepted password lengths in characters (`password.min_length`…`password.max_length`; AccountRules' `AccountForms.defaultPasswordLength`).
    public var length: ClosedRange<Int>
    /// argon2id parameters (`password.argon2_*`; `PasswordHasher.Parameters.default`).
    public var hashing: PasswordHasher.Parameters

    public init(length: ClosedRange<Int> = AccountForms.defaultPasswordLength, hashing: PasswordHasher.Parameters = .default) {
        self.length = length
        self.hashing = hashing
    }

    public static let `default` = PasswordPolicy()
}

/// Mailed links and their mail (config sections `confirmation`, `reminder`, `mail`).
public struct MailPolicy: Sendable, Equatable {
    /// Sign-in waits until the address is confirmed (`confirmation.required`).
    public var confirmationRequired: Bool
    /// Lifetime of a confirmation link (`confirmation.lifetime`).
    public var confirmationLifetime: TimeInterval
    /// Lifetime of a password reset link (`reminder.lifetime`).
    public var resetLifetime: TimeInterval
    /// At most one mail of a kind per address in this window (`mail.throttle`).
    public var throttle: TimeInterval
    /// First retry delay of a failed delivery, doubling up to an hour (`mail.retry_base`).
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

/// Failed sign-in limits (config section `lockout`); see `Lockout`.
public struct LockoutPolicy: Sendable, Equatable {
    /// Failures of one account within `window` that lock it (`lockout.max_failures`; 0 turns account locks off).
    public var maxFailures: Int
    /// How far back failures count (`lockout.window`).
    public var window: TimeInterval
    /// How long an account stays locked (`lockout.duration`).
    public var duration: TimeInterval
    /// Failures from one client address within `addressWindow` that block the address (`lockout.address_max_failures`; 0: off).
    public var addressMaxFailures: Int
    /// How far back an address's failures count (`lockout.address_window`).
    public var addressWindow: TimeInterval
    /// How long an address stays blocked (`lockout.address_duration`).
    public var addressDuration: TimeInterval

    public init(maxFailures: Int = 5, window: TimeInterval = 600, duration: TimeInterval = 900,
                addressMaxFailures: Int = 50, addressWindow: TimeInterval = 600, addressDuration: TimeInterval = 900) {
        self.maxFailures = maxFailures
        self.window = window
        self.duration = duration
        self.addressMaxFailures = addressMaxFailures
        self.addressWindow = addressWindow
        self.addressDuration = addressDuration
    }

    public static let `default` = LockoutPolicy()
}

/// Who may sign up (config keys `signup`, `invite.lifetime`, `signup_limit.max_per_address`, `signup_limit.window`).
public struct SignUpPolicy: Sendable, Equatable {
    /// Who may create an account.
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// Anyone.
        case open
        /// Only the address an invitation (`frontdoor invite create`) names, through its link.
        case invite
        /// Nobody: accounts come from `frontdoor user add`.
        case closed
    }

    public var mode: Mode
    /// How long an invitation link works (`invite.lifetime`).
    public var inviteLifetime: TimeInterval

    /// At most this many accounts are created from one client address within `window` (anti-automation, ASVS 4.2.2);
    /// 0: no limit. Invitations are not counted against it.
    public var maxPerAddress: Int
    public var window: TimeInterval

    public init(mode: Mode = .open, inviteLifetime: TimeInterval = 7 * 86400, maxPerAddress: Int = 20, window: TimeInterval = 3600) {
        self.mode = mode
        self.inviteLifetime = inviteLifetime
        self.maxPerAddress = maxPerAddress
        self.window = window
    }

    public static let `default` = SignUpPolicy()
}

/// How long old rows are kept (config section `retention`); see `Retention`. 0 keeps a table's rows forever.
public struct RetentionPolicy: Sendable, Equatable {
    /// Audit rows older than this are deleted (`retention.audit`).
    public var audit: TimeInterval
    /// Delivered mail sent longer ago than this is deleted (`retention.sent_mail`); unsent mail is never deleted.
    public var sentMail: TimeInterval
    /// How often `serve` prunes, after pruning once at start (`retention.prune_interval`).
    public var pruneInterval: TimeInterval
    /// Accounts never confirmed (and not in use), and added addresses never confirmed, older than this are deleted once
    /// no link of theirs works any more (`retention.unconfirmed`; see Retention+Unconfirmed).
    public var unconfirmed: TimeInterval

    public init(audit: TimeInterval = 365 * 86400, sentMail: TimeInterval = 30 * 86400, pruneInterval: TimeInterval = 3600,
                unconfirmed: TimeInterval = 7 * 86400) {
        self.audit = audit
        self.sentMail = sentMail
        self.pruneInterval = pruneInterval
        self.unconfirmed = unconfirmed
    }

    public static let `default` = RetentionPolicy()
}

/// Everything AccountCore is configured with.
public struct CoreConfiguration: Sendable, Equatable {
    public var session: SessionPolicy
    public var password: PasswordPolicy
    public var mail: MailPolicy
    public var lockout: LockoutPolicy
    public var signUp: SignUpPolicy
    /// How long an email residence request lives (config `api.residence_lifetime`).
    public var residenceLifetime: TimeInterval = 600
    /// The languages an account may prefer (config `languages.available`); empty: any language code.
    public var languages: [String] = []
    /// How long audit rows and sent mail are kept (config section `retention`).
    public var retention = RetentionPolicy.default
    /// Whether people choose their username (config `identity.username`).
    public var usernames = Username.Mode.off
    /// Whether a second factor is asked of everyone, and how long the second step may wait (config `second_factor`).
    public var secondFactor = SecondFactorPolicy()
    /// The site as a passkeys relying party (`public_url`, `passkeys.authenticator_names`).
    public var passkeys = PasskeyPolicy.default
    /// The OpenID Connect provider's lifetimes (config section `oidc`).
    public var openID = OpenIDPolicy.default

    public init(session: SessionPolicy = .default, password: PasswordPolicy = .default, mail: MailPolicy = .default,
                lockout: LockoutPolicy = .default, signUp: SignUpPolicy = .default) {
        self.session = session
        self.password = password
        self.mail = mail
        self.lockout = lockout
        self.signUp = signUp
    }

    public static let `default` = CoreConfiguration()
}
