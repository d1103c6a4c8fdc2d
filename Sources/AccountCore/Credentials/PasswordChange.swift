// PasswordChange.swift: a signed-in person changes their password: current password, new one, confirmation.
//
// Options: the sign-up password rules (`password.min_length`, `max_length`) for the new password.
// The current password is checked as re-authentication does (a wrong one counts towards the lock; a locked account is
// refused). Every problem is reported at once. On success, one transaction stores the new hash, ends every OTHER
// session of the account (this one is kept and counts as a fresh password entry), voids outstanding reset links,
// queues "your password was changed" to the primary address and audits how many sessions ended.
// An account without a password (made through a provider) sets one here: the current password is not asked (the page
// hides the field: `needsCurrentPassword`), the session must have signed in recently instead
// (`session.reauthenticate_after`, `.reauthenticationRequired` otherwise), and the rest is the same.
import AccountRules
import Foundation
import Logging

/// Changing the password from the settings.
public struct PasswordChange: Sendable {
    let database: AppDatabase
    let validator: Validator
    let hasher: PasswordHasher
    let reauthentication: Reauthentication
    let tokens: AccountTokens
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let logger: Logger

    /// The sign-up form's rules for `password` (shown as "New password") and `password_confirmation`.
    var passwordValidator: Validator {
        Validator(validator.fields.filter { $0.name == "password" || $0.name == "password_confirmation" }.map { field in
            var field = field
            if field.name == "password" { field.displayName = MessageCatalog.english.text("field_new_password") }
            return field
        })
    }

    /// The answer when a password appeared while a first one was being set: the current one is needed now.
    private var blankCurrent: AccountError {
        var errors = ValidationErrors()
        errors.add(FieldError(key: "blank"), to: "current_password", displayName: MessageCatalog.english.text("field_current_password"))
        return .invalid(errors)
    }

    /// Whether changing the account's password asks the current one: false for an account without a password.
    public func needsCurrentPassword(accountId: Int64) throws -> Bool {
        try database.read { tx in try tx.accountHasPassword(accountId) == nil
            || SignInMethods(database: database, audit: audit, clock: clock).methods(accountId: accountId, in: tx).contains(.password) }
    }

    /// Changes the password of the session `digest`'s account from `form` (`current_password`, `password`,
    /// `password_confirmation`); returns how many other sessions were ended. For an account without a password,
    /// `current_password` is ignored and the session must have signed in recently.
    ///
    /// - Throws: `AccountError.invalid` with every problem (`current_password`: `blank` or `wrong_password`;
    ///   `password`: the sign-up rules, or `password_unchanged`; `password_confirmation`: `confirmation`), nothing
    ///   changed; `AccountError.reauthenticationRequired` for an account without a password whose session did not sign
    ///   in recently; `AccountError.notFound` when the session is gone.
    ///   With `recentSignInSuffices` (the JSON API: devise-ios sends no current password), an empty `current_password`
    ///   is accepted when the session signed in recently; otherwise it is `blank` as usual.
    @discardableResult
    public func change(session digest: Data, form: [String: String], client: ClientInfo, recentSignInSuffices: Bool = false) throws -> Int {
        let current = form["current_password"] ?? ""
        let password = form["password"] ?? ""
        let currentName = MessageCatalog.english.text("field_current_password")
        var errors = ValidationErrors()
        var accountId = try reauthentication.passwordlessAccount(session: digest)
        let setting = accountId != nil
        if !setting, current.isEmpty, recentSignInSuffices, try reauthentication.isRecent(digest) {
            accountId = try reauthentication.sessionAccount(digest)
        } else if setting {
            guard try reauthentication.isRecent(digest) else { throw AccountError.reauthenticationRequired }
        } else if current.isEmpty {
            errors.add(FieldError(key: "blank"), to: "current_password", displayName: currentName)
        } else {
            do {
                accountId = try reauthentication.checkPassword(session: digest, password: current, client: client,
                                                               field: "current_password", displayName: currentName)
            } catch AccountError.invalid(let wrong) {
                for entry in wrong.entries { errors.add(entry.error, to: entry.field, displayName: entry.displayName) }
            }
        }
        let rules = passwordValidator.validate(form)
        for entry in rules.entries { errors.add(entry.error, to: entry.field, displayName: entry.displayName) }
        if !setting, accountId != nil, !password.isEmpty, password == current, rules.keys(for: "password").isEmpty {
            errors.add(FieldError(key: "password_unchanged"), to: "password",
                       displayName: passwordValidator.field(named: "password")?.displayName ?? "New password")
        }
        guard errors.isEmpty, let accountId else { throw AccountError.invalid(errors) }

        let passwordHash = try hasher.hash(password)
        let now = clock.now()
        let ended = try database.write { tx -> Int in
            // This session must still be there: it is kept, and now counts as a fresh password entry.
            guard try tx.markSessionAuthenticated(digest: digest, of: accountId, at: now) else { throw AccountError.notFound }
            // Setting a first password holds only while there is none (a reset may have set one since the check): the
            // conditional UPDATE (`AND passwordHash = ''`) and its changed-row count decide.
            guard try tx.setPasswordHash(passwordHash, of: accountId, at: now, onlyIfUnset: setting) else {
                throw setting ? blankCurrent : AccountError.notFound
            }
            let ended = try tx.deleteSessions(of: accountId, keeping: digest, at: clock.now())
            try tokens.voidAll(.reset, accountId: accountId, in: tx)
            let primary = try EmailAddress.primaryAddress(of: accountId, in: tx) ?? ""
            if !primary.isEmpty { try mail.enqueue(.passwordChanged(providers: try tx.socialProviders(accountId: accountId)), to: primary, in: tx) }
            try audit.record(.passwordChanged, accountId: accountId, email: primary, client: client,
                             detail: "\(setting ? "set " : "")by its owner; \(ended) other session(s) ended", in: tx)
            return ended
        }
        logger.info("password changed", metadata: ["account": "\(accountId)", "sessions_ended": "\(ended)"])
        return ended
    }
}
