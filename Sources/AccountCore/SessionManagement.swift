// SessionManagement.swift: a person's view of their own sessions: list, revoke one, sign out everywhere else.
//
// TODO(helper B): see the contract.
import Foundation
import GRDB
import Logging

/// The sessions of one account, as their owner manages them.
public struct SessionManagement: Sendable {
    let database: AppDatabase
    let sessions: Sessions
    let audit: AuditLog
    let clock: any Clock
    let logger: Logger
}
