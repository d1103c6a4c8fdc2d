// PasswordReminder.swift: "forgot my password": a mailed single-use link to set a new one.
//
// Options (config section `reminder`):
//   lifetime   how long a reset link works
// Reminders go only to known, confirmed addresses, throttled per address (mail.throttle), and the
// caller always shows the same neutral page. A reset replaces the password, ends every session of
// the account, voids other reset links, lifts a lock (not for an account with a second factor: below), mails "your password was changed" (naming the providers still
// linked, which sign in without the password) and signs in this browser. The reset page names them too
// (`linkedProviders`). Identities linked while the account had no verified address and not proven since are unlinked
// unless the reset happens in the browser that linked them (IdentityProof).
// A reset never removes a second factor, nor gets around it: an account with one is not signed in by the link alone
// (its mail is one factor); the new password is set and the browser gets the second step's challenge
// (`.secondFactorRequired`), as after a right password. Nor does it lift such an account's lock or clear its failures:
// the link proves the mailbox, not the second factor, and each reset would otherwise buy a fresh round of code guesses.
import AccountRules
import Foundation
import Logging

/// Password reminders and resets.
public struct PasswordReminder: Sendable {
    let database: AppDatabase
    let validator: Validator
    let hasher: PasswordHasher
    let sessions: Sessions
    let tokens: AccountTokens
    let mail: MailQueue
    let lockout: Lockout
    let audit: AuditLog
    let secondFactor: SecondFactorSignIn
    let clock: any Clock
    let logger: Logger
    /// Lifetime of a reset link.
    public let lifetime: TimeInterval

    /// The password rules of the sign-up form, applied to `password` and `password_confirmation`.
    var passwordValidator: Validator {
        Validator(validator.fields.filter { $0.name == "password" || $0.name == "password_confirmation" })
    }

    /// Mails a reset link when `email` is a known, confirmed address not mailed within the throttle window,
    /// its account not locked and `client`'s address not blocked.
    public func sendReminder(email: String, client: ClientInfo = ClientInfo()) throws {
        // Why nothing was sent, logged after the transaction (a retried body would log twice, or log work rolled back).
        let unsent = try database.write { tx -> String? in
            guard let held = try EmailAddress.holding(email, in: tx), held.verifiedAt != nil else { return "unknown or unconfirmed address" }
            guard try lockout.allowsMail(accountId: held.accountId, client: client, in: tx) else {
                return "account locked or client address blocked"
            }
            guard try !mail.isThrottled(.passwordReset(token: ""), to: held.address, in: tx) else { return "throttled" }
            let token = try tokens.issue(.reset, accountId: held.accountId, emailAddressId: nil, lifetime: lifetime, in: tx)
            try mail.enqueue(.passwordReset(token: token.encoded), to: held.address, fallback: client.language, in: tx)
            return nil
        }
        if let unsent { logger.info("reminder not sent", metadata: ["reason": "\(unsent)"]) }
    }

    /// The providers linked to the account of reset link `token` while it can be used (empty otherwise): the reset page
    /// says they sign in to the account too, whatever the new password.
    public func linkedProviders(token: String) throws -> [String] {
        try database.read { tx in
            guard let accountId = try tokens.account(of: token, purpose: .reset, in: tx) else { return [] }
            return try tx.socialProviders(accountId: accountId)
        }
    }

    /// True while the reset link can still be used (GET shows the form, or the "expired" page).
    public func isRedeemable(token: String) throws -> Bool {
        try database.read { tx in try tokens.isRedeemable(token, purpose: .reset, in: tx) }
    }

    /// Sets the new password from `form` (password, password_confirmation) and signs this browser in.
    ///
    /// - Throws: `AccountError.invalidToken` for an unknown, used or expired link (checked first);
    ///   `AccountError.invalid` when the new password breaks the rules.
    /// `kind: .api` signs in with an API token (the JSON API's `PUT password` with a reset token). With `here` (the
    /// browser's tokens) the account is added to the browser under the several-accounts rules (BrowserSessions).
    /// `binding`: the browser's social binding cookie, which keeps the identities it linked before any address was proven
    /// (and binds the second step's challenge to the browser).
    /// - Throws: `AccountError.secondFactorRequired` when the account has a second factor: the password is set, no session
    ///   is made; the challenge finishes the sign-in (SecondFactorSignIn.complete).
    public func reset(token: String, form: [String: String], client: ClientInfo, kind: SessionKind = .browser,
                      here: BrowserTokens? = nil, binding: [UInt8]? = nil) throws -> SessionGrant {
        guard try isRedeemable(token: token) else { throw AccountError.invalidToken }
        let errors = passwordValidator.validate(form)
        guard errors.isEmpty else { throw AccountError.invalid(errors) }
        let passwordHash = try hasher.hash(form["password"] ?? "")
        enum Outcome { case signedIn(SessionGrant), secondStep(String) }
        let outcome = try database.write { tx -> Outcome? in
            // One winner: the reset token's redemption is a conditional UPDATE (AccountTokens.redeem); a second reset
            // with the same link gets nil.
            guard let redeemed = try tokens.redeem(token, purpose: .reset, in: tx) else { return nil }
            let accountId = redeemed.accountId
            _ = try tx.setPasswordHash(passwordHash, of: accountId, at: clock.now())
            try IdentityProof.settle(accountId: accountId, browser: binding, reason: "password reset in another browser", client: client,
                                     audit: audit, in: tx)
            try tx.deleteSessions(of: accountId, at: clock.now())
            try tokens.voidAll(.reset, accountId: accountId, in: tx)
            // The link proves the mailbox, not the second factor: with one still to come, the lock and the failures
            // stay (else each reset would buy whoever reads the mail a fresh round of code guesses).
            let secondFactorToCome = try secondFactor.methods.hasSecondFactor(accountId: accountId, in: tx)
            if !secondFactorToCome { try lockout.unlock(accountId: accountId, in: tx) }
            let primary = try EmailAddress.primaryAddress(of: accountId, in: tx) ?? ""
            try mail.enqueue(.passwordChanged(providers: try tx.socialProviders(accountId: accountId)), to: primary, in: tx)
            try audit.record(.passwordReset, accountId: accountId, email: primary, client: client, in: tx)
            if secondFactorToCome {
                return .secondStep(try secondFactor.begin(accountId: accountId, rememberMe: false, kind: kind, binding: binding, in: tx))
            }
            return .signedIn(try sessions.create(in: tx, accountId: accountId, email: primary, rememberMe: false, client: client, kind: kind,
                                                 here: here, keepPrevious: true))
        }
        switch outcome {
        case nil:
            throw AccountError.invalidToken
        case .secondStep(let challenge):
            logger.info("password reset; second factor asked")
            throw AccountError.secondFactorRequired(challenge: challenge)
        case .signedIn(let grant):
            logger.info("password reset", metadata: ["account": "\(grant.session.accountId)"])
            return grant
        }
    }
}
