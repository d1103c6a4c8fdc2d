// OneTimeCodes.swift: a second factor from an authenticator app (RFC 6238 one-time codes) and its recovery codes:
// enrol, confirm with a first code, accept a code at sign-in, renew the recovery codes, turn off.
//
// Options: none of its own; the codes are RFC 6238's defaults (OneTimeCodes+TOTP.swift): HMAC-SHA1, 30-second steps,
// 6 digits, one step of drift either way. Recency of the sign-in (`session.reauthenticate_after`, Reauthentication)
// guards every change made from the settings page: beginning and confirming an enrolment, new recovery codes and
// turning codes off; a stolen session alone can neither lock the owner out with its own authenticator nor take the codes.
// The secret is sealed with the token key (TokenVault: AES-GCM, bound to the account's id): the server must compute
// codes, so a digest cannot do. The replay guard is the row's `lastUsedStep`: a code is accepted only by the statement
// that moves it forward (OneTimeCodeStore), so across hosts exactly one request takes a code, and a code of that step
// or an earlier one is refused afterwards. Failures are not counted here; the caller counts them toward the lockout.
import AccountRules
import Foundation
import Logging

/// Whether an account uses one-time codes, as the settings page shows it.
public struct TwoStepState: Sendable, Equatable {
    /// Codes are confirmed and asked at sign-in.
    public var enabled: Bool
    /// Unused recovery codes.
    public var recoveryCodesLeft: Int
    /// An enrolment was begun and not confirmed yet.
    public var enrolling: Bool
}

/// What a code proved, when it was accepted.
public enum CodeUse: Sendable, Equatable {
    case oneTimeCode
    case recoveryCode
}

/// One-time codes and recovery codes of accounts.
public struct OneTimeCodes: Sendable {
    let database: AppDatabase
    let vault: TokenVault
    let reauthentication: Reauthentication
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger

    /// The secret's associated data: a sealed secret copied to another account's row does not open.
    static func context(accountId: Int64) -> String { "one-time-code\n\(accountId)" }

    // MARK: For the sign-in (SecondFactorSignIn) and the operator

    /// True when `code` is the account's current one-time code (±1 step) not used before, or one of its unused recovery
    /// codes (then used up). Single use across hosts: a conditional UPDATE decides. Failures are not counted here.
    public func accept(accountId: Int64, code: String, in tx: Transaction) throws -> Bool {
        try check(accountId: accountId, code: code, in: tx) != nil
    }

    /// As `accept`, telling which kind of code it was (nil: refused).
    public func check(accountId: Int64, code: String, in tx: Transaction) throws -> CodeUse? {
        try Self.check(accountId: accountId, code: code, vault: vault, clock: clock, in: tx)
    }

    /// `check` with the token key and clock given (SignInMethods, whose second factors these codes are).
    static func check(accountId: Int64, code: String, vault: TokenVault, clock: any Clock, in tx: Transaction) throws -> CodeUse? {
        if let digits = TOTP.normalized(code) {
            guard let stored = try tx.oneTimeCode(accountId: accountId), stored.confirmedAt != nil else { return nil }
            // A secret that no longer opens (the token key was replaced: `frontdoor keys forget-token-key`) accepts no
            // code; the recovery codes, digests, still work, and the person can then set the app up again.
            guard let opened = try? vault.open(stored.sealedSecret, context: context(accountId: accountId)) else { return nil }
            let secret = [UInt8](opened)
            let now = TOTP.step(at: clock.now())
            // Earliest first: the step taken is the one the code belongs to, and only steps after the last one used count.
            for step in (now - 1)...(now + 1) where step > stored.lastUsedStep && TOTP.same(TOTP.code(secret: secret, step: step), digits) {
                return try tx.useOneTimeCodeStep(accountId: accountId, step: step) ? .oneTimeCode : nil
            }
            return nil
        }
        if let normalized = RecoveryCodes.normalized(code) {
            let digest = RecoveryCodes.digest(normalized, accountId: accountId)
            guard try tx.hasConfirmedOneTimeCode(accountId: accountId),
                  try tx.useRecoveryCode(accountId: accountId, digest: digest, now: clock.now()) else { return nil }
            return .recoveryCode
        }
        return nil
    }

    /// Whether the account has confirmed one-time codes (then they are its second factor).
    public func isEnrolled(accountId: Int64, in tx: Transaction) throws -> Bool {
        try tx.hasConfirmedOneTimeCode(accountId: accountId)
    }

    /// Removes the account's codes and recovery codes (turned off by the person, or the operator's reset, whose
    /// `detail` says so); audited and mailed to the primary address when codes were on. False when there were none.
    @discardableResult
    public func remove(accountId: Int64, client: ClientInfo, detail: String = "", in tx: Transaction) throws -> Bool {
        guard try tx.deleteOneTimeCode(accountId: accountId) else { return false }
        let primary = try EmailAddress.primaryAddress(of: accountId, in: tx)
        try audit.record(.secondFactorRemoved, accountId: accountId, email: primary, client: client, detail: detail, in: tx)
        if let primary { try mail.enqueue(.secondFactorRemoved, to: primary, in: tx) }
        return true
    }

    // MARK: For the settings page

    /// The account's state.
    public func state(accountId: Int64) throws -> TwoStepState {
        try database.read { tx in
            let stored = try tx.oneTimeCode(accountId: accountId)
            return TwoStepState(enabled: stored?.confirmedAt != nil, recoveryCodesLeft: try tx.unusedRecoveryCodeCount(accountId: accountId),
                                enrolling: stored != nil && stored?.confirmedAt == nil)
        }
    }

    /// Unused recovery codes of the account.
    public func recoveryCodesLeft(accountId: Int64) throws -> Int {
        try database.read { tx in try tx.unusedRecoveryCodeCount(accountId: accountId) }
    }

    /// Begins an enrolment for the session's account: a new random 160-bit secret, unconfirmed, replacing one begun before.
    ///
    /// - Throws: `.reauthenticationRequired` when the sign-in is not recent; `.refused("two_step_already_on")` when
    ///   codes are on already; `.notFound` when the session is gone.
    public func begin(session digest: Data) throws -> Enrolment {
        let accountId = try recentAccount(session: digest)
        let enrolment = Enrolment(secret: random.bytes(TOTP.secretLength))
        let sealed = try vault.seal(Data(enrolment.secret), context: Self.context(accountId: accountId))
        try database.write { tx in
            guard try tx.beginOneTimeCode(accountId: accountId, sealedSecret: sealed, now: clock.now()) else {
                throw AccountError.refused("two_step_already_on")
            }
        }
        logger.info("one-time codes enrolment begun", metadata: ["account": "\(accountId)"])
        return enrolment
    }

    /// The enrolment begun and not confirmed yet, to show again (after a wrong first code); nil when there is none.
    public func pending(accountId: Int64) throws -> Enrolment? {
        let stored = try database.read { tx in try tx.oneTimeCode(accountId: accountId) }
        guard let stored, stored.confirmedAt == nil,
              let opened = try? vault.open(stored.sealedSecret, context: Self.context(accountId: accountId)) else { return nil }
        return Enrolment(secret: [UInt8](opened))
    }

    /// Confirms the session's account's enrolment with its first code: codes are on from now, the session counts as two
    /// factors, and the ten recovery codes are returned (shown once; only their digests are kept). Audited; the primary
    /// address is mailed.
    ///
    /// - Throws: `.invalid` (field `code`, key `wrong_code`) for a code that is not the current one;
    ///   `.refused("two_step_not_begun")` without a pending enrolment; `.reauthenticationRequired`; `.notFound`.
    public func confirm(session digest: Data, code: String, client: ClientInfo) throws -> [String] {
        let accountId = try recentAccount(session: digest)
        let stored = try database.read { tx in try tx.oneTimeCode(accountId: accountId) }
        guard let stored, stored.confirmedAt == nil else { throw AccountError.refused("two_step_not_begun") }
        guard let opened = try? vault.open(stored.sealedSecret, context: Self.context(accountId: accountId)) else {
            throw AccountError.refused("two_step_not_begun")
        }
        let secret = [UInt8](opened)
        let now = TOTP.step(at: clock.now())
        let step = TOTP.normalized(code).flatMap { digits in
            ((now - 1)...(now + 1)).first { TOTP.same(TOTP.code(secret: secret, step: $0), digits) }
        }
        guard let step else { throw Self.wrongCode() }
        let codes = RecoveryCodes.make(random: random)
        try database.write { tx in
            // Still the same enrolment: a second begin meanwhile (another tab) changed the secret, and this code is not its.
            guard try tx.oneTimeCode(accountId: accountId)?.sealedSecret == stored.sealedSecret,
                  try tx.confirmOneTimeCode(accountId: accountId, step: step, now: clock.now()) else { throw Self.wrongCode() }
            try tx.replaceRecoveryCodes(accountId: accountId, digests: codes.map { RecoveryCodes.digest(RecoveryCodes.normalized($0)!, accountId: accountId) },
                                        now: clock.now())
            // The session that confirmed has just proved both factors (a recent password, then the app's code): it
            // counts as two from now, so `second_factor: required` does not ask it for a code again at once.
            _ = try tx.raiseSessionFactors(digest: digest, of: accountId, at: clock.now())
            let primary = try EmailAddress.primaryAddress(of: accountId, in: tx)
            try audit.record(.secondFactorEnabled, accountId: accountId, email: primary, client: client, detail: "one-time codes", in: tx)
            if let primary { try mail.enqueue(.secondFactorEnabled, to: primary, in: tx) }
        }
        logger.info("one-time codes on", metadata: ["account": "\(accountId)"])
        return codes
    }

    /// Ten new recovery codes for the session's account, replacing all of its old ones (used or not). Audited.
    ///
    /// - Throws: `.refused("two_step_off")` when codes are not on; `.reauthenticationRequired`; `.notFound`.
    public func renewRecoveryCodes(session digest: Data, client: ClientInfo) throws -> [String] {
        let accountId = try recentAccount(session: digest)
        let codes = RecoveryCodes.make(random: random)
        try database.write { tx in
            guard try tx.hasConfirmedOneTimeCode(accountId: accountId) else { throw AccountError.refused("two_step_off") }
            try tx.replaceRecoveryCodes(accountId: accountId, digests: codes.map { RecoveryCodes.digest(RecoveryCodes.normalized($0)!, accountId: accountId) },
                                        now: clock.now())
            try audit.record(.recoveryCodesRenewed, accountId: accountId, email: try EmailAddress.primaryAddress(of: accountId, in: tx),
                             client: client, in: tx)
        }
        logger.info("recovery codes renewed", metadata: ["account": "\(accountId)"])
        return codes
    }

    /// Turns codes off for the session's account (as `remove`).
    ///
    /// - Throws: `.refused("two_step_off")` when codes were not on; `.reauthenticationRequired`; `.notFound`.
    public func turnOff(session digest: Data, client: ClientInfo) throws {
        let accountId = try recentAccount(session: digest)
        let removed = try database.write { tx in try remove(accountId: accountId, client: client, in: tx) }
        guard removed else { throw AccountError.refused("two_step_off") }
        logger.info("one-time codes off", metadata: ["account": "\(accountId)"])
    }

    /// The session's account when its sign-in is recent.
    private func recentAccount(session digest: Data) throws -> Int64 {
        guard let accountId = try reauthentication.sessionAccount(digest) else { throw AccountError.notFound }
        guard try reauthentication.isRecent(digest) else { throw AccountError.reauthenticationRequired }
        return accountId
    }

    private static func wrongCode() -> AccountError {
        var errors = ValidationErrors()
        errors.add(FieldError(key: "wrong_code"), to: "code", displayName: "Code")
        return AccountError.invalid(errors)
    }
}
