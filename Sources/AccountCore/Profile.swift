// Profile.swift: the display name and the operator's declared profile fields (config `profile.fields`).
//
// TODO(helper C): see the contract.
import AccountRules
import Foundation
import GRDB
import Logging

/// Reading and changing an account's profile.
public struct Profile: Sendable {
    let database: AppDatabase
    /// The declared fields, in the order the forms show them.
    public let fields: [ProfileField]
    let audit: AuditLog
    let clock: any Clock
    let logger: Logger
}
