// Registration.swift: signs a person up: validates the form, stores the account and its address, starts a session.
//
// Options:
//   validator   the sign-up rules (AccountForms.signUp, with the configured password lengths and extra fields)
//   password    PasswordPolicy (argon2id cost)
// The address is stored as entered and must be unused, compared case-insensitively.
import AccountRules
import Foundation
import GRDB
import Logging

/// Sign-up, as one call from the HTML form, the JSON API or the command line.
public struct Registration: Sendable {
    let database: AppDatabase
    let validator: Validator
    let hasher: PasswordHasher
    let sessions: Sessions
    let clock: any Clock
    let logger: Logger

    public init(database: AppDatabase, validator: Validator, hasher: PasswordHasher, sessions: Sessions, clock: any Clock, logger: Logger) {
        self.database = database
        self.validator = validator
        self.hasher = hasher
        self.sessions = sessions
        self.clock = clock
        self.logger = logger
    }

    /// Creates the account described by `form` (fields email, password, password_confirmation) and signs it in.
    ///
    /// - Throws: `AccountError.invalid` with every problem at once, including an address already taken.
    public func signUp(_ form: [String: String], client: ClientInfo) throws -> SessionGrant {
        var values = form
        values["email"] = (form["email"] ?? "").trimmingWhitespace()
        let address = values["email"]!
        var errors = validator.validate(values)
        if errors.isEmpty, try isTaken(address) { errors.add(takenError, to: "email", displayName: emailDisplayName) }
        guard errors.isEmpty else { throw AccountError.invalid(errors) }

        let passwordHash = try hasher.hash(values["password"] ?? "")
        do {
            let grant = try database.writer.write { db in
                let now = clock.now()
                var account = Account(id: nil, passwordHash: passwordHash, createdAt: now, updatedAt: now)
                try account.insert(db)
                var email = EmailAddress(id: nil, accountId: account.id!, address: address,
                                         normalizedAddress: EmailFormat.normalized(address), isPrimary: true,
                                         verifiedAt: nil, createdAt: now)
                try email.insert(db)
                return try sessions.create(in: db, accountId: account.id!, email: address, rememberMe: false, client: client)
            }
            logger.info("account created", metadata: ["account": "\(grant.session.accountId)"])
            return grant
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            // Another sign-up for the same address won the race between the check and the insert.
            errors.add(takenError, to: "email", displayName: emailDisplayName)
            throw AccountError.invalid(errors)
        }
    }

    private var takenError: FieldError { FieldError(key: "taken") }
    private var emailDisplayName: String { validator.field(named: "email")?.displayName ?? "Email" }

    private func isTaken(_ address: String) throws -> Bool {
        try database.writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM emailAddress WHERE normalizedAddress = ?)",
                              arguments: [EmailFormat.normalized(address)]) ?? false
        }
    }
}
