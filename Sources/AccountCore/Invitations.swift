// Invitations.swift: invite-only sign-up: an invitation link lets exactly one address sign up.
// STUB: filled in by the invitations work (see issue 5).
import AccountRules
import Foundation
import GRDB
import Logging

/// Invitations (`signup = "invite"`): issued by `frontdoor invite create`, redeemed at sign-up.
public struct Invitations: Sendable {
    let database: AppDatabase
    let policy: SignUpPolicy
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
}
