// Residences.swift: email residences (IIResidenceStore's verifier): a device proves it may act for an address.
//
// Options: `lifetime` (config `api.residence_lifetime`: how long a request waits for approval and then
// for its collection), `mail.throttle` (one residence mail per address per window).
// Flow: `register` (POST v1/residences) stores a request with a random id and the digest of a random secret, both
// returned once to the device, and mails a link to the address (the mail names the device). The person opens the link
// on any device: `pendingApproval` shows what asks, and `approve` (a POST from that page, never the GET a mail scanner
// makes) decides it: the account holding the address (verified, or its primary, which the approval then verifies),
// else a new account without a password when sign-up is open (invite or closed mode: refused); an address another
// account added but never verified is refused. `collect` (POST v1/residences/{id}/verify) with the secret answers
// pending, refused, or once, after approval, an API token for the account (for an account with a second factor, the
// challenge of its second step instead: the mailed link is one factor). Every answer is the same for addresses with
// and without an account until the mail's owner approves. Audited: residence_requested, _approved, _refused; the token
// as sign_in "residence" (or sign_up "residence" for a new account).
import AccountRules
import Encodings
import Foundation
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
    let invitations: Invitations
    let validator: Validator
    let lockout: Lockout
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger
    /// How long a request lives (config `api.residence_lifetime`).
    let lifetime: TimeInterval
    /// A mailed link is one factor: an account with a second factor gets its second step's challenge, not a token.
    let secondFactor: SecondFactorSignIn

    /// Stores a request for `email` and mails its approval link (not while the holder's account is locked or the client
    /// address blocked: the answer is the same, without the mail). Expired requests go when a new one is made.
    ///
    /// ```swift
    /// let ticket = try services.residences.register(email: body["email"] ?? "", client: client)   // 201 {id, secret}
    /// ```
    /// - Throws: `AccountError.invalid` (field `email`: the email rules); `AccountError.refused("residence_throttled")`
    ///   when a residence mail went to the address within `mail.throttle` (whatever the address, so it tells nothing).
    public func register(email: String, client: ClientInfo) throws -> ResidenceTicket {
        let address = email.trimmingWhitespace()
        let errors = EmailAddresses.emailRules(of: validator).validate(["email": address])
        guard errors.isEmpty else { throw AccountError.invalid(errors) }
        let id = Base64URL.encode(random.bytes(16))
        let secret = SecretToken(random: random), link = SecretToken(random: random)
        let mailed = try database.write { tx -> Bool in
            guard try !mail.isThrottled(.residence(token: "", userAgent: "", remoteAddress: ""), to: address, in: tx) else {
                throw AccountError.refused("residence_throttled")
            }
            let now = clock.now().timeIntervalSince1970
            try tx.insertResidence(id: id, address: address, normalizedAddress: EmailFormat.normalized(address), secretDigest: secret.digest,
                                   linkDigest: link.digest, userAgent: client.userAgent, remoteAddress: client.remoteAddress,
                                   createdAt: now, expiresAt: now + lifetime)
            let holder = try EmailAddress.holding(address, in: tx)?.accountId
            try audit.record(.residenceRequested, accountId: holder, email: address, client: client, in: tx)
            let allowed = if let holder { try lockout.allowsMail(accountId: holder, client: client, in: tx) }
                else { try !lockout.isBlocked(client, in: tx) }
            guard allowed else { return false }
            try mail.enqueue(.residence(token: link.encoded, userAgent: client.userAgent, remoteAddress: client.remoteAddress), to: address,
                             fallback: client.language, in: tx)
            return true
        }
        logger.info("residence requested", metadata: ["mailed": "\(mailed)"])
        return ResidenceTicket(id: id, secret: secret.encoded)
    }

    /// The pending request the link `token` approves.
    ///
    /// - Throws: `AccountError.invalidToken` when the link is unknown, expired, or its request no longer pending.
    public func pendingApproval(token: String) throws -> ResidenceRequest {
        try database.read { tx in
            let request = try pending(link: token, in: tx)
            return ResidenceRequest(email: request.address, userAgent: request.userAgent, remoteAddress: request.remoteAddress,
                                    createdAt: request.createdAt)
        }
    }

    /// Approves the request of the link `token`; returns the address. The request is then verified (and waits
    /// `lifetime` more for its collection), or refused. One write transaction: a refusal commits only the request's
    /// state and its audit row, then throws.
    ///
    /// - Throws: `AccountError.invalidToken` (as `pendingApproval`); `AccountError.refused("residence_refused")` when no
    ///   account may be used or made for the address (the request is marked refused).
    @discardableResult
    public func approve(token: String, client: ClientInfo) throws -> String {
        let (address, approved, created) = try database.write { tx -> (String, Bool, Int64?) in
            let request = try pending(link: token, deciding: true, in: tx)
            let id = request.id, address = request.address
            let now = clock.now().timeIntervalSince1970
            // One decision per request: the request's row is held from the lookup on (a concurrent approval waits there,
            // then finds it decided: an unknown link), and the conditional UPDATE (still pending) decides.
            guard let (accountId, created) = try account(for: address, client: client, in: tx) else {
                guard try tx.refuseResidence(id: id) else { throw AccountError.invalidToken }
                try audit.record(.residenceRefused, accountId: try EmailAddress.holding(address, in: tx)?.accountId, email: address,
                                 client: client, in: tx)
                return (address, false, nil)
            }
            guard try tx.approveResidence(id: id, accountId: accountId, verifiedAt: now, expiresAt: now + lifetime) else {
                throw AccountError.invalidToken
            }
            try audit.record(.residenceApproved, accountId: accountId, email: address, client: client, in: tx)
            return (address, true, created ? accountId : nil)
        }
        if let created { logger.info("account created through a residence", metadata: ["account": "\(created)"]) }
        logger.info("residence decided", metadata: ["approved": "\(approved)"])
        guard approved else { throw AccountError.refused("residence_refused") }
        return address
    }

    /// Collects the request `id` with its `secret`. A verified request issues the API token and is used up in one
    /// transaction, so it answers `.verified` once.
    ///
    /// - Throws: `AccountError.notFound` for an unknown or expired id, a wrong secret, or a request already collected;
    ///   `AccountError.secondFactorRequired` for an account with a second factor (the request is used up all the same:
    ///   the app finishes with the challenge and a code, as after a password).
    public func collect(id: String, secret: String, client: ClientInfo) throws -> ResidenceCollection {
        guard let secret = SecretToken(encoded: secret) else { throw AccountError.notFound }
        // Devices poll: only a verified request takes the write lock.
        let state = try database.read { tx -> String in
            guard let found = try tx.residenceState(id: id, now: clock.now().timeIntervalSince1970),
                  SocialFlows.constantTimeEquals(found.secretDigest, secret.digest) else { throw AccountError.notFound }
            return found.state
        }
        switch state {
        case "pending": return .pending
        case "refused": return .refused("residence_refused")
        case "verified": break
        default: throw AccountError.notFound
        }
        let (accountId, collected) = try database.write { tx -> (Int64, Result<ResidenceCollection, AccountError>) in
            let now = clock.now().timeIntervalSince1970
            // Collected meanwhile, or its account deleted (the row went with it): as unknown. Collected once: the
            // conditional UPDATE (still verified) decides between two concurrent collections.
            guard let found = try tx.verifiedResidence(id: id, now: now), try tx.useResidence(id: id, now: now) else {
                throw AccountError.notFound
            }
            let address = found.address, accountId = found.accountId
            if try secondFactor.methods.hasSecondFactor(accountId: accountId, in: tx) {
                let challenge = try secondFactor.begin(accountId: accountId, rememberMe: true, kind: .api, binding: nil, in: tx)
                return (accountId, .failure(.secondFactorRequired(challenge: challenge)))
            }
            let grant = try apiTokens.issue(accountId: accountId, client: client, in: tx)
            try audit.record(.signIn, accountId: accountId, email: address, client: client, detail: "residence", in: tx)
            return (accountId, .success(.verified(email: address, grant: grant)))
        }
        logger.info("residence collected", metadata: ["account": "\(accountId)"])
        return try collected.get()
    }

    // MARK: Helpers

    /// The pending, unexpired request of the link `token`, or `AccountError.invalidToken`.
    /// `deciding`: the approval's lookup, holding the request's row until its transaction ends.
    private func pending(link token: String, deciding: Bool = false, in tx: Transaction) throws -> PendingResidence {
        guard let link = SecretToken(encoded: token),
              let request = try tx.pendingResidence(linkDigest: link.digest, now: clock.now().timeIntervalSince1970, deciding: deciding) else {
            throw AccountError.invalidToken
        }
        return request
    }

    /// The account an approval of `address` signs in to, in the caller's transaction: the account holding it verified,
    /// or as its primary address (verified now: the mail's owner opened the link); else, when sign-up is open, a new
    /// account without a password. Nil (refused) for another account's unverified added address, or when sign-up is
    /// by invitation or closed. `created`: the account is new (logged after the commit).
    private func account(for address: String, client: ClientInfo, in tx: Transaction) throws -> (id: Int64, created: Bool)? {
        let now = clock.now()
        if let held = try EmailAddress.holding(address, in: tx) {
            if held.verifiedAt != nil { return (held.accountId, false) }
            guard held.isPrimary, let heldId = held.id else { return nil }
            try tx.markEmailAddressVerified(id: heldId, at: now)
            try audit.record(.emailConfirmed, accountId: held.accountId, email: held.address, client: client, detail: "residence", in: tx)
            try IdentityProof.settle(accountId: held.accountId, browser: nil, reason: "address confirmed through a device's link",
                                     client: client, audit: audit, in: tx)
            return (held.accountId, false)
        }
        guard invitations.policy.mode == .open else { return nil }
        let (accountId, _) = try Account.insert(address: address, passwordHash: "", verified: true, language: client.language,
                                                now: now, in: tx)
        try audit.record(.signUp, accountId: accountId, email: address, client: client, detail: "residence", in: tx)
        return (accountId, true)
    }
}
