// Invitations.swift: invite-only sign-up: an invitation link lets exactly one address sign up.
//
// Options (config keys `signup`, `invite.lifetime`):
//   signup            open | invite | closed; invitations are refused when closed
//   invite.lifetime   how long an invitation link works (default 7 days)
// Only the token's SHA-256 digest is stored. Redeeming is one conditional UPDATE in the sign-up's
// transaction, so two sign-ups with one link: exactly one account.
import AccountRules
import Foundation
import GRDB
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
        guard policy.mode != .closed else { throw AccountError.signUpClosed }
        let address = email.trimmingWhitespace()
        guard EmailFormat.isValid(address) else { throw Self.emailError("invalid_email") }
        let token = SecretToken(random: random)
        let now = clock.now()
        let expiresAt = now.addingTimeInterval(policy.inviteLifetime)
        try database.writer.write { db in
            let taken = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM emailAddress WHERE normalizedAddress = ?)",
                                          arguments: [EmailFormat.normalized(address)]) ?? false
            guard !taken else { throw Self.emailError("taken") }
            try db.execute(sql: """
                INSERT INTO invite (digest, address, normalizedAddress, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?)
                """, arguments: [token.digest, address, EmailFormat.normalized(address), now.timeIntervalSince1970,
                                 expiresAt.timeIntervalSince1970])
            try audit.record(.inviteCreated, accountId: nil, email: address, client: client, detail: sendMail ? "mailed" : "", in: db)
            if sendMail { try mail.enqueue(.invitation(token: token.encoded), to: address, in: Transaction(sqlite: db)) }
        }
        logger.info("invitation created", metadata: ["mailed": "\(sendMail)"])
        return IssuedInvitation(address: address, token: token.encoded, expiresAt: expiresAt)
    }

    /// The address an invitation link is for; nil when the token is malformed, unknown, used or expired.
    public func invitation(token: String) throws -> String? {
        guard let token = SecretToken(encoded: token) else { return nil }
        return try database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT address FROM invite WHERE digest = ? AND usedAt IS NULL AND expiresAt > ?",
                                arguments: [token.digest, clock.now().timeIntervalSince1970])
        }
    }

    /// Marks the invitation used, in the sign-up's transaction; false when it is unknown, used, expired or for
    /// another address. Of two redeemers of one token exactly one gets true.
    func redeem(token: String, address: String, in db: Database) throws -> Bool {
        guard let token = SecretToken(encoded: token) else { return false }
        let now = clock.now().timeIntervalSince1970
        try db.execute(sql: """
            UPDATE invite SET usedAt = ? WHERE digest = ? AND usedAt IS NULL AND expiresAt > ? AND normalizedAddress = ?
            """, arguments: [now, token.digest, now, EmailFormat.normalized(address)])
        return db.changesCount == 1
    }

    private static func emailError(_ key: String) -> AccountError {
        var errors = ValidationErrors()
        errors.add(FieldError(key: key), to: "email", displayName: "Email")
        return .invalid(errors)
    }
}
