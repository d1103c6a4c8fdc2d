// PasswordChange.swift: a signed-in person changes their password: current password, new one, confirmation.
//
// Options: the sign-up password rules (`password.min_length`, `max_length`).
// TODO(helper B): see the contract.
import AccountRules
import Foundation
import GRDB
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
}
