// Registration.swift: signs a person up: validates the form, stores the account and its address, and
// either mails a confirmation link or (without required confirmation) signs the person in.
//
// Options:
//   validator      the sign-up rules (AccountForms.signUp, with the configured password lengths and extra fields)
//   confirmation   Confirmation (`confirmation.required`, link lifetime)
// With confirmation required, an address that already has an account gets the same outcome as a new
// one (`.confirmationSent`), nothing is created, and its owner is mailed instead: nobody can learn
// from sign-up which addresses have accounts. Both paths hash the password, so they take as long.
import AccountRules
import Foundation
import GRDB
import Logging

/// What a successful sign-up led to.
public enum SignUpOutcome: Sendable {
    /// Confirmation is not required: the account exists and this browser is signed in.
    case signedIn(SessionGrant)
    /// A mail is on its way (a confirmation link, or a note to the existing owner); nothing tells which.
    case confirmationSent
}

/// Sign-up, as one call from the HTML form, the JSON API or the command line.
public struct Registration: Sendable {
    let database: AppDatabase
    let validator: Validator
    let hasher: PasswordHasher
    let sessions: Sessions
    let confirmation: Confirmation
    let audit: AuditLog
    let clock: any Clock
    let logger: Logger


    /// Creates the account described by `form` (fields email, password, password_confirmation).
    ///
    /// - Throws: `AccountError.invalid` with every problem at once (and, only when confirmation is not
    ///   required, an address already taken).
    public func signUp(_ form: [String: String], client: ClientInfo) throws -> SignUpOutcome {
        var values = form
        let address = (form["email"] ?? "").trimmingWhitespace()
        values["email"] = address
        var errors = validator.validate(values)
        if errors.isEmpty, !confirmation.required, try isTaken(address) { errors.add(takenError, to: "email", displayName: emailDisplayName) }
        guard errors.isEmpty else { throw AccountError.invalid(errors) }

        let passwordHash = try hasher.hash(values["password"] ?? "")
        do {
            return try database.writer.write { db in
                if confirmation.required, let owner = try existingAddress(address, in: db) {
                    try mailExistingOwner(owner, in: db)
                    return .confirmationSent
                }
                let (accountId, emailId) = try insertAccount(address: address, passwordHash: passwordHash, in: db)
                logger.info("account created", metadata: ["account": "\(accountId)"])
                try audit.record(.signUp, accountId: accountId, email: address, client: client, in: db)
                if confirmation.required {
                    try confirmation.start(accountId: accountId, emailAddressId: emailId, address: address, in: db)
                    return .confirmationSent
                }
                return .signedIn(try sessions.create(in: db, accountId: accountId, email: address, rememberMe: false, client: client))
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            // Another sign-up for the same address won the race between the check and the insert.
            if confirmation.required { return .confirmationSent }
            errors.add(takenError, to: "email", displayName: emailDisplayName)
            throw AccountError.invalid(errors)
        }
    }

    private func insertAccount(address: String, passwordHash: String, in db: Database) throws -> (Int64, Int64) {
        let now = clock.now()
        var account = Account(id: nil, passwordHash: passwordHash, createdAt: now, updatedAt: now)
        try account.insert(db)
        var email = EmailAddress(id: nil, accountId: account.id!, address: address, normalizedAddress: EmailFormat.normalized(address),
                                 isPrimary: true, verifiedAt: nil, createdAt: now)
        try email.insert(db)
        return (account.id!, email.id!)
    }

    /// Tells the owner of `address` (as they entered it) that someone tried to sign up with it, at most once per throttle window.
    private func mailExistingOwner(_ address: String, in db: Database) throws {
        guard try !confirmation.mail.isThrottled(.signUpAttempt, to: address, in: db) else { return }
        try confirmation.mail.enqueue(.signUpAttempt, to: address, in: db)
        logger.info("sign-up with an address that has an account; owner notified")
    }

    private var takenError: FieldError { FieldError(key: "taken") }
    private var emailDisplayName: String { validator.field(named: "email")?.displayName ?? "Email" }

    private func existingAddress(_ address: String, in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT address FROM emailAddress WHERE normalizedAddress = ?", arguments: [EmailFormat.normalized(address)])
    }

    private func isTaken(_ address: String) throws -> Bool {
        try database.writer.read { db in try existingAddress(address, in: db) != nil }
    }
}
