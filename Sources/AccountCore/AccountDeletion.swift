// AccountDeletion.swift: a person deletes their own account (and the operator deletes one with the same code).
//
// TODO(helper B): see the contract.
import AccountRules
import Foundation
import GRDB
import Logging

/// Deleting an account and everything that names it.
public struct AccountDeletion: Sendable {
    let database: AppDatabase
    let reauthentication: Reauthentication
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let logger: Logger
}
