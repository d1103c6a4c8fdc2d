// Administration.swift: the operator's account operations (`frontdoor user …`, `frontdoor sessions …`).
// STUB: filled in by the operator-tools work (see issue 5).
import AccountRules
import Foundation
import GRDB
import Logging

/// Account operations for the operator: add, list, show, confirm, lock, unlock, delete, set a password; sessions.
public struct Administration: Sendable {
    let database: AppDatabase
    let validator: Validator
    let hasher: PasswordHasher
    let sessions: Sessions
    let lockout: Lockout
    let audit: AuditLog
    let clock: any Clock
    let logger: Logger
}
