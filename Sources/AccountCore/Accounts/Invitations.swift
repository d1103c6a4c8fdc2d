// Invitations.swift: invite-only sign-up: an invitation link lets exactly one address sign up; the operator lists the
// invitations and revokes the open ones of an address (`frontdoor invite list|revoke`).
//
// Options (config keys `signup`, `invite.lifetime`):
//   signup            open | invite | closed; invitations are refused when closed
//   invite.lifetime   how long an invitation link works
// Only the token's SHA-256 digest is stored. Redeeming is one conditional UPDATE in the sign-up's
// transaction, so two sign-ups with one link: exactly one account.
import AccountRules
import Foundation
import Logging

/// A new invitation: the raw token goes into the link and is never stored.
public struct IssuedInvitation: Sendable, Equatable {
    /// The address the invitation is for, as given (trimmed).
    public var address: String
    /// The link's token (unpadded base64url).
    public var token: String
    /// When the link stops working.
    public var expiresAt: Date
}

/// One invitation as `frontdoor invite list` shows it (the token is never stored, so never shown).
public struct InvitationRecord: Sendable, Equatable {
    public var address: String
    public var createdAt: Date
    public var expiresAt: Date
    /// When the address signed up with it; nil while unused.
    public var usedAt: Date?
    /// `open`, `used` or `expired`, when it was listed.
    public var state: String
}

/// Invitations (`signup = "invite"`): issued by `frontdoor invite create`, redeemed at sign-up.
public struct Invitations: Sendable {
    let database: AppDatabase
    let policy: SignUpPolicy
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger

    /// Who may sign up.
    public var mode: SignUpPolicy.Mode { policy.mode }

    /// Issues an invitation for `email`, valid for `invite.lifetime`; with `sendMail`, queues the invitation mail too.
    ///
    /// - Throws: `AccountError.signUpClosed` when sign-up is closed; `AccountError.invalid` when the address is
    ///   malformed (`invalid_email`) or already has an account (`taken`).
    public func create(email: String, client: ClientInfo, sendMail: Bool = false) throws -> IssuedInvitation {
        try issue(email: email, lifetime: policy.inviteLifetime, client: client, sendMail: sendMail)
    }

    /// `create`'s work with the link's lifetime given (Invitations+Admin.swift checks an admin's choice first).
    func issue(email: String, lifetime: TimeInterval, client: ClientInfo, sendMail: Bool) throws -> IssuedInvitation {
        guard policy.mode != .closed else { throw AccountError.signUpClosed }
        let address = email.trimmingWhitespace()
        guard EmailFormat.isValid(address) else { throw Self.emailError("invalid_email") }
        let token = SecretToken(random: random)
        let now = clock.now()
        let expiresAt = now.addingTimeInterval(lifetime)
        try database.write { tx in
            guard try tx.emailAddress(holding: address) == nil else { throw Self.emailError("taken") }
            try tx.insertInvite(digest: token.digest, address: address, createdAt: now, expiresAt: expiresAt)
            try audit.record(.inviteCreated, accountId: nil, email: address, client: client, detail: sendMail ? "mailed" : "", in: tx)
            if sendMail { try mail.enqueue(.invitation(token: token.encoded), to: address, in: tx) }
        }
        logger.info("invitation created", metadata: ["mailed": "\(sendMail)"])
        return IssuedInvitation(address: address, token: token.encoded, expiresAt: expiresAt)
    }

    /// The invitations, newest first: the open ones (unused, unexpired), or with `all` the used and expired ones too.
    public func list(all: Bool = false, limit: Int = 100) throws -> [InvitationRecord] {
        try database.read { tx in try tx.invites(now: clock.now(), all: all, limit: limit) }
    }

    /// Revokes every unused invitation for `email` (its links stop working at once); how many there were. Audited as
    /// `invite_revoked` when there was one.
    public func revoke(email: String, client: ClientInfo) throws -> Int {
        let address = email.trimmingWhitespace()
        let revoked = try database.write { tx -> Int in
            let count = try tx.deleteUnusedInvites(for: address)
            if count > 0 { try audit.record(.inviteRevoked, accountId: nil, email: address, client: client, detail: "\(count)", in: tx) }
            return count
        }
        if revoked > 0 { logger.info("invitations revoked", metadata: ["count": "\(revoked)"]) }
        return revoked
    }

    /// The address an invitation link is for; nil when the token is malformed, unknown, used or expired.
    public func invitation(token: String) throws -> String? {
        guard let token = SecretToken(encoded: token) else { return nil }
        return try database.read { tx in try tx.openInviteAddress(digest: token.digest, now: clock.now()) }
    }

    /// Marks the invitation used, in the sign-up's transaction; false when it is unknown, used, expired or for
    /// another address. Of two redeemers of one token exactly one gets true (`redeemInvite`'s conditional UPDATE).
    func redeem(token: String, address: String, in tx: Transaction) throws -> Bool {
        guard let token = SecretToken(encoded: token) else { return false }
        return try tx.redeemInvite(digest: token.digest, address: address, now: clock.now())
    }

    private static func emailError(_ key: String) -> AccountError {
        var errors = ValidationErrors()
        errors.add(FieldError(key: key), to: "email", displayName: "Email")
        return .invalid(errors)
    }
}
