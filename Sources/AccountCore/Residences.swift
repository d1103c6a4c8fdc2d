// Residences.swift: email residences (IIResidenceStore's verifier): a device proves it may act for an address.
//
// Options: `lifetime` (config `api.residence_lifetime`, default 1 h: how long a request waits for approval and then
// for its collection), `mail.throttle` (one residence mail per address per window).
// Flow: `register` (POST v1/residences) stores a request with a random id and the digest of a random secret, both
// returned once to the device, and mails a link to the address (the mail names the device). The person opens the link
// on any device: `pendingApproval` shows what asks, and `approve` (a POST from that page, never the GET a mail scanner
// makes) decides it: the account holding the address (verified, or its primary, which the approval then verifies),
// else a new account without a password when sign-up is open (invite or closed mode: refused); an address another
// account added but never verified is refused. `collect` (POST v1/residences/{id}/verify) with the secret answers
// pending, refused, or once, after approval, an API token for the account. Every answer is the same for addresses with
// and without an account until the mail's owner approves. Audited: residence_requested, _approved, _refused; the token
// as sign_in "residence" (or sign_up "residence" for a new account).
import AccountRules
import Foundation
import GRDB
import Logging

/// What `register` hands back to the device, once: the request's id and the secret that collects its token.
public struct ResidenceTicket: Sendable, Equatable {
    public var id: String
    public var secret: String
}

/// A request waiting for approval, as the approval page shows it.
public struct ResidenceRequest: Sendable, Equatable {
    public var email: String
    public var userAgent: String
    public var remoteAddress: String
    public var createdAt: Date
}

/// What collecting a residence found.
public enum ResidenceCollection: Sendable {
    /// The mail's link was not approved yet.
    case pending
    /// The approval was refused (the key of the catalog message saying why).
    case refused(String)
    /// Approved: the address (as registered) and the API token issued now; the request is used up.
    case verified(email: String, grant: SessionGrant)
}

/// Registering, approving and collecting email residences.
public struct Residences: Sendable {
    let database: AppDatabase
    let apiTokens: APITokens
    let confirmation: Confirmation
    let invitations: Invitations
    let validator: Validator
    let lockout: Lockout
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
    /// How long a request lives (default 1 h).
    public var lifetime: TimeInterval = 3600

    /// Stores a request for `email` and mails its approval link.
    ///
    /// - Throws: `AccountError.invalid` (field `email`: the email rules); `AccountError.refused("residence_throttled")`
    ///   when a residence mail went to the address within `mail.throttle` (whatever the address, so it tells nothing).
    public func register(email: String, client: ClientInfo) throws -> ResidenceTicket {
        throw AccountError.notFound   // TODO(helper C)
    }

    /// The pending request the link `token` approves.
    ///
    /// - Throws: `AccountError.invalidToken` when the link is unknown, expired, or its request no longer pending.
    public func pendingApproval(token: String) throws -> ResidenceRequest {
        throw AccountError.invalidToken   // TODO(helper C)
    }

    /// Approves the request of the link `token`; returns the address. The request is then verified, or refused.
    ///
    /// - Throws: `AccountError.invalidToken` (as `pendingApproval`); `AccountError.refused("residence_refused")` when no
    ///   account may be used or made for the address (the request is marked refused).
    @discardableResult
    public func approve(token: String, client: ClientInfo) throws -> String {
        throw AccountError.invalidToken   // TODO(helper C)
    }

    /// Collects the request `id` with its `secret`.
    ///
    /// - Throws: `AccountError.notFound` for an unknown or expired id, a wrong secret, or a request already collected.
    public func collect(id: String, secret: String, client: ClientInfo) throws -> ResidenceCollection {
        throw AccountError.notFound   // TODO(helper C)
    }
}
