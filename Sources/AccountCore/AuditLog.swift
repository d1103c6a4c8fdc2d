// AuditLog.swift: the `audit` table: who did what, when, from where. Written in the same transaction as the change.
//
// Options: none here; rows older than `retention.audit` are pruned (see Retention). Rows are never updated; the table
// has no foreign key, so the trail outlives a deleted account. Triggers keep what pruning took of each event
// (`auditCount`, added by the deleting statement) and each account's last sign-in (`account.lastSignInAt`) beside it,
// so neither is lost with pruned rows. An insert touches no row shared by other requests (a counter bumped on every
// insert was one row per event that every sign-in of every host held until its COMMIT).
// The detail column holds the real reason of a failure (which the person never sees). Never a password or token.
import Foundation

/// What happened. The raw values are what the table, `frontdoor audit list --event` and metrics use.
public enum AuditEvent: String, Sendable, CaseIterable, Codable {
    case signUp = "sign_up"
    case signIn = "sign_in"
    case signInFailed = "sign_in_failed"
    case signOut = "sign_out"
    case lockout
    case addressBlocked = "address_blocked"
    case unlock
    case passwordChanged = "password_changed"
    case passwordReset = "password_reset"
    /// An admin mailed a person a reset link (PasswordReminder+Admin) or a confirmation link (Confirmation+Admin).
    case passwordResetSent = "password_reset_sent"
    case confirmationSent = "confirmation_sent"
    case emailConfirmed = "email_confirmed"
    case emailChanged = "email_changed"
    case accountCreated = "account_created"
    case accountDeleted = "account_deleted"
    case sessionRevoked = "session_revoked"
    case inviteCreated = "invite_created"
    case inviteRevoked = "invite_revoked"
    case profileUpdated = "profile_updated"
    case emailAdded = "email_added"
    case emailRemoved = "email_removed"
    case reauthenticated
    case identityLinked = "identity_linked"
    case identityUnlinked = "identity_unlinked"
    case residenceRequested = "residence_requested"
    case residenceApproved = "residence_approved"
    case residenceRefused = "residence_refused"
    case groupCreated = "group_created"
    case groupDeleted = "group_deleted"
    case groupMemberAdded = "group_member_added"
    case groupMemberRemoved = "group_member_removed"
    case usernameChanged = "username_changed"
    case secondFactorEnabled = "second_factor_enabled"
    case secondFactorRemoved = "second_factor_removed"
    case recoveryCodesRenewed = "recovery_codes_renewed"
    case passkeyAdded = "passkey_added"
    case passkeyRemoved = "passkey_removed"
    case passkeyRenamed = "passkey_renamed"
    case passkeySignCountWentBack = "passkey_sign_count_went_back"
    /// OpenID Connect provider (Sources/AccountCore/OpenID): a used code presented again (the grant it issued is revoked),
    case openIDCodeReused = "oidc_code_reused"
    /// a used refresh token presented again (its whole grant, the family, is revoked),
    case openIDRefreshTokenReused = "oidc_refresh_token_reused"
    case openIDClientAdded = "oidc_client_added"
    case openIDClientRemoved = "oidc_client_removed"
    case openIDClientSecretRotated = "oidc_client_secret_rotated"
    case openIDConsentGiven = "oidc_consent_given"
    case openIDConsentWithdrawn = "oidc_consent_withdrawn"
    case openIDDeviceApproved = "oidc_device_approved"
    case openIDDeviceDenied = "oidc_device_denied"
    /// a back-channel logout given up after its last attempt.
    case openIDLogoutAbandoned = "oidc_logout_abandoned"
}

/// One audit row.
public struct AuditEntry: Sendable, Equatable, Codable {
    public var id: Int64
    public var createdAt: Date
    public var event: String
    public var accountId: Int64?
    public var email: String?
    public var remoteAddress: String
    public var userAgent: String
    public var detail: String
    /// The admin who made the change on this account (their account id); nil when the person, the CLI or the system did.
    public var actorId: Int64? = nil
}

/// Which audit rows to list; nil fields do not filter.
public struct AuditFilter: Sendable, Equatable {
    public var accountId: Int64?
    /// Matches the row's address, compared without case.
    public var email: String?
    public var event: AuditEvent?
    public var remoteAddress: String?
    public var since: Date?
    public var until: Date?
    /// Rows of changes this admin made (`AuditEntry.actorId`).
    public var actorId: Int64?
    /// With `accountId` and `email` both set: rows matching either (a person's account, or their address).
    public var accountOrEmail = false
    /// Only rows older than this one (paging by id: the last id of the previous page).
    public var beforeId: Int64?
    /// Newest first, at most this many, after skipping `offset`.
    public var limit: Int
    public var offset = 0

    public init(accountId: Int64? = nil, email: String? = nil, event: AuditEvent? = nil, remoteAddress: String? = nil,
                since: Date? = nil, until: Date? = nil, actorId: Int64? = nil, limit: Int = 100) {
        self.actorId = actorId
        self.accountId = accountId
        self.email = email
        self.event = event
        self.remoteAddress = remoteAddress
        self.since = since
        self.until = until
        self.limit = limit
    }
}

/// Writes and reads the audit trail.
public struct AuditLog: Sendable {
    let database: AppDatabase
    let clock: any Clock

    public init(database: AppDatabase, clock: any Clock) {
        self.database = database
        self.clock = clock
    }

    /// Records `event` inside the caller's transaction.
    func record(_ event: AuditEvent, accountId: Int64?, email: String?, client: ClientInfo, detail: String = "", in tx: Transaction) throws {
        try tx.insertAudit(event, accountId: accountId, email: email, client: client, detail: detail, at: clock.now())
    }

    /// Records `event` in a transaction of its own (for actions that change nothing else, such as sign-out).
    public func record(_ event: AuditEvent, accountId: Int64?, email: String?, client: ClientInfo, detail: String = "") throws {
        try database.write { tx in try record(event, accountId: accountId, email: email, client: client, detail: detail, in: tx) }
    }

    /// Rows matching `filter`, newest first.
    public func list(_ filter: AuditFilter) throws -> [AuditEntry] {
        try database.read { tx in try tx.auditEntries(filter) }
    }

    /// How many times each of `events` was recorded since the trail began (for metrics): event name → total, events
    /// never recorded left out. What pruning took (`auditCount`, by key) plus the rows still there (counted on an
    /// index), so the totals never fall when rows go.
    public func counts(of events: [AuditEvent] = AuditEvent.allCases) throws -> [String: Int] {
        try database.read { tx in try tx.auditTotals(of: events) }
    }
}
