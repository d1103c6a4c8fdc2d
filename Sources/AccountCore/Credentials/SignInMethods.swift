// SignInMethods.swift: the one place that knows how an account proves who it is: which methods it has, whether one
// may go, which count as a second factor, and re-authentication with any of them.
//
// Options: none. The methods today: a password (`account.passwordHash` not ''; an account made through a provider has
// none), each linked provider, and one-time codes (a second factor only: confirmed codes, OneTimeCodes.swift). A feature that adds a way to sign in or a second factor adds one case to
// `SignInMethod`, one query to `methods(accountId:in:)` and, for a second factor, one line to `acceptSecondFactor`;
// the features that ask (unlinking a provider, re-authentication, deletion, password change, the link page, sign-in)
// then know it without edits of their own.
// Rules kept here:
// - never the last way to sign in: `mayRemove` holds the account's row first (PostgreSQL `SELECT … FOR UPDATE`;
//   SQLite's write transaction excludes every other writer), so of two removals at once the second counts what the
//   first left;
// - re-authentication: an account with a password re-enters it (a wrong one counts towards the lock, as at sign-in);
//   one without proves itself with another method (a provider's `reauthenticate` flow) and then counts as a recent
//   sign-in for `session.reauthenticate_after`;
// - a second factor is asked after the password only when the account has a method that counts as one.
import Foundation

/// One way an account proves who it is.
public enum SignInMethod: Sendable, Hashable {
    case password
    /// A linked provider, by its configured name.
    case provider(String)
    /// One-time codes from an authenticator app (with their recovery codes; OneTimeCodes.swift).
    case oneTimeCode
    /// A passkey, by its id (Passkeys.swift): it signs in alone (with two factors) and serves as a second factor.
    case passkey(Int64)

    /// Whether it signs a person in on its own (so an account keeping only it can still sign in).
    public var signsInAlone: Bool {
        switch self {
        case .password, .provider, .passkey: return true
        case .oneTimeCode: return false
        }
    }

    /// Whether it is asked after a password, as a second factor.
    public var countsAsSecondFactor: Bool {
        switch self {
        case .password, .provider: return false
        case .oneTimeCode, .passkey: return true
        }
    }
}

/// How a session's person proves themselves again before a sensitive change.
enum ReauthenticationRoute: Equatable {
    /// Enter the password again (checked against `passwordHash`).
    case password(accountId: Int64, passwordHash: String)
    /// The account has no password: a recent sign-in with another method (a provider) stands in for it; a password
    /// typed anyway gets the wrong-password answer after the same hash work.
    case recentSignIn(accountId: Int64)

    var accountId: Int64 {
        switch self {
        case .password(let id, _), .recentSignIn(let id): return id
        }
    }
}

/// An account's sign-in methods.
public struct SignInMethods: Sendable {
    let database: AppDatabase
    let audit: AuditLog
    let clock: any Clock
    /// What checks one-time and recovery codes; nil in the copies the features that only ask which methods an account
    /// has make for themselves (`acceptSecondFactor` then accepts nothing). AccountServices' own has it.
    let oneTimeCodes: OneTimeCodes?

    public init(database: AppDatabase, audit: AuditLog, clock: any Clock, oneTimeCodes: OneTimeCodes? = nil) {
        self.database = database
        self.audit = audit
        self.clock = clock
        self.oneTimeCodes = oneTimeCodes
    }

    /// The account's methods: the password first when it has one, then its providers (oldest link first).
    public func methods(accountId: Int64) throws -> [SignInMethod] {
        try database.read { tx in try methods(accountId: accountId, in: tx) }
    }

    /// The account's methods, in the caller's transaction (empty when the account is gone).
    public func methods(accountId: Int64, in tx: Transaction) throws -> [SignInMethod] {
        var found: [SignInMethod] = []
        if try tx.accountHasPassword(accountId) ?? false { found.append(.password) }
        found += try tx.socialProviders(accountId: accountId).map(SignInMethod.provider)
        if try tx.hasConfirmedOneTimeCode(accountId: accountId) { found.append(.oneTimeCode) }
        found += try tx.passkeys(accountId: accountId).map { SignInMethod.passkey($0.id) }
        return found
    }

    /// Whether a stored password hash is a password ('' is none: an account made through a provider).
    static func isPassword(storedHash: String) -> Bool { !storedHash.isEmpty }

    /// Whether the account has a password.
    public func hasPassword(accountId: Int64) throws -> Bool {
        try database.read { tx in try tx.accountHasPassword(accountId) ?? false }
    }

    /// Whether `method` may be removed from the account now: never its last way to sign in. Holds the account's row
    /// until the transaction ends first (see the header), so call it in the transaction that removes the method.
    ///
    /// - Throws: `AccountError.notFound` when the account does not have `method`.
    func mayRemove(_ method: SignInMethod, accountId: Int64, in tx: Transaction) throws -> Bool {
        try tx.lockAccountForSocialChange(accountId: accountId)
        let methods = try methods(accountId: accountId, in: tx)
        guard methods.contains(method) else { throw AccountError.notFound }
        return methods.contains { $0 != method && $0.signsInAlone }
    }

    /// The account's methods that count as a second factor.
    func secondFactors(accountId: Int64, in tx: Transaction) throws -> [SignInMethod] {
        try methods(accountId: accountId, in: tx).filter(\.countsAsSecondFactor)
    }

    /// True when the account has a second factor (a right password then asks for it).
    public func hasSecondFactor(accountId: Int64) throws -> Bool {
        try database.read { tx in try hasSecondFactor(accountId: accountId, in: tx) }
    }

    /// True when the account has a second factor, in the caller's transaction.
    func hasSecondFactor(accountId: Int64, in tx: Transaction) throws -> Bool {
        try !secondFactors(accountId: accountId, in: tx).isEmpty
    }

    /// True when `code` proves the account's second factor now (a one-time code not used before, or an unused recovery
    /// code, which is then used up), in the caller's write transaction. It counts no failure: the caller does.
    func acceptSecondFactor(accountId: Int64, code: String, in tx: Transaction) throws -> Bool {
        guard let oneTimeCodes else { return false }
        return try oneTimeCodes.accept(accountId: accountId, code: code, in: tx)
    }

    // MARK: Re-authentication

    /// How the session `digest`'s person re-authenticates (see the header); nil when the session is gone.
    func reauthenticationRoute(session digest: Data) throws -> ReauthenticationRoute? {
        try database.read { tx in
            try tx.sessionCredentials(digest: digest).map { found in
                Self.isPassword(storedHash: found.passwordHash)
                    ? .password(accountId: found.accountId, passwordHash: found.passwordHash)
                    : .recentSignIn(accountId: found.accountId)
            }
        }
    }

    /// Records that the session's person proved themselves again with `method`: the session counts as a recent sign-in
    /// (Reauthentication.isRecent) and the `reauthenticated` audit row names the method unless it is the password.
    /// False (nothing recorded) when the session is gone or is not the account's.
    @discardableResult
    func recordReauthentication(session digest: Data, accountId: Int64, with method: SignInMethod, client: ClientInfo,
                                in tx: Transaction) throws -> Bool {
        guard try tx.markSessionAuthenticated(digest: digest, of: accountId, at: clock.now()) else { return false }
        let detail: String
        switch method {
        case .password: detail = ""
        case .provider(let name): detail = "via \(name)"
        case .oneTimeCode: detail = "second factor"
        case .passkey: detail = "passkey"
        }
        try audit.record(.reauthenticated, accountId: accountId, email: try EmailAddress.primaryAddress(of: accountId, in: tx),
                         client: client, detail: detail, in: tx)
        return true
    }
}
