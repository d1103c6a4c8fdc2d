// SocialSignIn+Pending.swift: the next step of a pending identity: show it, take the address the person gives
// (no or unverified address from the provider), or link it to the account holding its address after that account's
// password.
//
// Options: `pendingLifetime` (10 min; a pending identity works once, in the browser it was made for),
// `confirmation.required`, the sign-up mode and `mail.throttle` (the note to an address's owner).
// Giving an address behaves like sign-up: a free address gets a password-less account with the address unverified
// and the identity linked (unproven: it stays only if the address is confirmed in this browser, IdentityProof), then a
// confirmation mail (or, without required confirmation, a session); an address that has an account gets the same
// `.confirmationSent`, nothing is created, and its owner is told (as at sign-up). With an
// invitation carried from the sign-up page for that very address, the address counts as verified and the person is
// signed in; in invite mode any other address is `not_invited`.
// Linking with a password checks it exactly as Authentication does: a blocked client address, a locked account, a
// wrong password and an account without a password (same argon2id work, against the dummy hash) are all
// `.invalidCredentials`, counted towards the lock.
import AccountRules
import Foundation

extension SocialSignIn {
    /// The pending identity `token` names in this browser; `.refused("social_pending_invalid")` when unknown, used,
    /// expired or from another browser.
    public func pending(token: String, binding: [UInt8]) throws -> PendingIdentity {
        guard let digest = SecretToken(encoded: token)?.digest else { throw AccountError.refused("social_pending_invalid") }
        return try database.read { tx in
            guard let pending = try store.pending(digest: digest, binding: binding, in: tx) else {
                throw AccountError.refused("social_pending_invalid")
            }
            return try describe(pending, in: tx)
        }
    }

    /// The address the person gave for a pending identity without a (verified) one. A free address: the account is
    /// created with it unverified and the identity linked; a confirmation link is mailed (`.confirmationSent`), or
    /// without required confirmation the person is signed in. An address that has an account: the same
    /// `.confirmationSent`, nothing created, its owner mailed (as at sign-up). Bad address: `.invalid` on `email`.
    ///
    /// - Throws: also `.refused("social_pending_invalid")`, `.refused("social_identity_taken")` (linked meanwhile from
    ///   another tab), `.signUpClosed`, `.invitationRequired`.
    public func submitEmail(pendingToken: String, binding: [UInt8], email: String, client: ClientInfo,
                            here: BrowserTokens?) throws -> SignUpOutcome {
        guard let digest = SecretToken(encoded: pendingToken)?.digest else { throw AccountError.refused("social_pending_invalid") }
        let address = email.trimmingWhitespace()
        let errors = emailRules.validate(["email": address])
        guard errors.isEmpty else { throw AccountError.invalid(errors) }
        // What to log once committed: the account made, or that the address's owner was told.
        let (outcome, created, ownerNotified) = try retryingOnce {
            try database.write { tx -> (SignUpOutcome, Int64?, Bool) in
                guard let pending = try store.pending(digest: digest, binding: binding, in: tx), pending.linkAccountId == nil else {
                    throw AccountError.refused("social_pending_invalid")
                }
                let mode = invitations.policy.mode
                guard mode != .closed else { throw AccountError.signUpClosed }
                let record = pending.identity
                guard try tx.socialIdentityOwner(provider: record.provider, subject: record.subject) == nil else {
                    throw AccountError.refused("social_identity_taken")
                }
                if let held = try EmailAddress.heldAddress(address, in: tx) {
                    // One winner per pending identity: markUsed's conditional UPDATE.
                    guard try store.markUsed(pending, in: tx) else { throw AccountError.refused("social_pending_invalid") }
                    return (.confirmationSent, nil, try confirmation.noteSignUpAttempt(to: held, in: tx))
                }
                let invite = store.invite(of: pending)
                let invited = invite.isEmpty ? false : try invitations.redeem(token: invite, address: address, in: tx)
                if mode == .invite, !invited {
                    guard try invitedAddress(invite, in: tx) != nil else { throw AccountError.invitationRequired }
                    throw emailError("not_invited")
                }
                guard try store.markUsed(pending, in: tx) else { throw AccountError.refused("social_pending_invalid") }
                var created = record
                created.email = address
                let accountId = try createAccount(created, address: address, verified: invited, binding: binding, client: client,
                                                  detail: invited ? "via \(record.provider), invitation" : "via \(record.provider)", in: tx)
                if confirmation.required && !invited {
                    let emailId = try tx.primaryAddressId(accountId: accountId)
                    try confirmation.start(accountId: accountId, emailAddressId: emailId ?? 0, address: address, in: tx)
                    return (.confirmationSent, accountId, false)
                }
                return (.signedIn(try startSession(accountId: accountId, email: address, rememberMe: pending.rememberMe, client: client,
                                                   here: here, in: tx)), accountId, false)
            }
        }
        if ownerNotified { logger.info("address given for a provider identity has an account; owner notified") }
        if let created { logger.info("account created through a provider", metadata: ["account": "\(created)"]) }
        return outcome
    }

    /// Links a pending identity to the account holding its address after that account's password: signs in.
    /// A wrong password is `.invalidCredentials` and counts towards the account's lock, as at sign-in. An account with a
    /// second factor is neither linked nor signed in: the right password answers `.secondFactorRequired` (its second
    /// step signs in; the provider is then linked from the settings), so nothing changes on one factor.
    ///
    /// - Throws: also `.refused("social_pending_invalid")` (unknown, used, expired, other browser, or not a pending
    ///   identity waiting for a link), `.unconfirmed` (right password, primary address not confirmed, confirmation
    ///   required), the refusals of linking (`social_identity_taken`, `social_already_linked`).
    public func linkWithPassword(pendingToken: String, binding: [UInt8], password: String, client: ClientInfo,
                                 here: BrowserTokens?) throws -> SessionGrant {
        guard let digest = SecretToken(encoded: pendingToken)?.digest else { throw AccountError.refused("social_pending_invalid") }
        let (found, blocked) = try database.read { tx in
            let found = try store.pending(digest: digest, binding: binding, in: tx).flatMap { pending -> (Int64, String, String)? in
                guard let target = pending.linkAccountId, let hash = try tx.storedPasswordHash(accountId: target) else { return nil }
                // The address naming the account (the picker may have offered one signed in here by another address).
                return (target, hash, try describe(pending, in: tx).accountAddress ?? "")
            }
            return (found, try lockout.isBlocked(client, in: tx))
        }
        guard let (target, hash, typed) = found else { throw AccountError.refused("social_pending_invalid") }
        if blocked { try lockout.refuseBlocked(accountId: target, email: typed, client: client, reason: "linking: client address blocked") }
        let usable = !hash.isEmpty && password.utf8.count <= 4096
        let matches = usable ? hasher.verify(password, against: hash) : hasher.verifyAgainstDummy(password)
        if try database.read({ tx in try lockout.isLocked(accountId: target, in: tx) }) {
            try lockout.refuse(accountId: target, email: typed, client: client, reason: matches ? "linking: account locked" : "linking: account locked, wrong password",
                     counts: !matches)
        }
        guard matches else {
            try lockout.refuse(accountId: target, email: typed, client: client, reason: hash.isEmpty ? "linking: account has no password" : "linking: wrong password")
        }
        let settled = try retryingOnce {
            try database.write { tx -> Settled in
                guard let pending = try store.pending(digest: digest, binding: binding, in: tx), pending.linkAccountId == target else {
                    throw AccountError.refused("social_pending_invalid")
                }
                let primary = try EmailAddress.primaryAddress(of: target, in: tx) ?? typed
                if confirmation.required, try tx.primaryAddressIsUnverified(accountId: target) {
                    try audit.record(.signInFailed, accountId: target, email: primary, client: client, detail: "linking: address not confirmed", in: tx)
                    return .failed(.unconfirmed)
                }
                if let asked = try askSecondFactor(target, rememberMe: pending.rememberMe, kind: .browser, binding: binding, in: tx) {
                    return asked
                }
                _ = try linkIdentity(pending.identity, to: target, client: client, binding: binding, in: tx)
                // One winner per pending identity: markUsed's conditional UPDATE.
                guard try store.markUsed(pending, in: tx) else { throw AccountError.refused("social_pending_invalid") }
                try lockout.recordSuccess(accountId: target, in: tx)
                let grant = try startSession(accountId: target, email: primary, rememberMe: pending.rememberMe, client: client,
                                             here: here, in: tx)
                try audit.record(.signIn, accountId: target, email: primary, client: client,
                                 detail: "password, linking \(pending.identity.provider)", in: tx)
                return .done(.signedIn(grant, created: false))
            }
        }
        guard case .signedIn(let grant, _) = try settle(settled) else { throw AccountError.refused("social_pending_invalid") }
        logger.info("pending identity linked after the password", metadata: ["account": "\(target)"])
        return grant
    }

    // MARK: Helpers

    /// The `email` field as sign-up declares it (rules and display name).
    private var emailRules: Validator {
        Validator([validator.field(named: "email") ?? Field("email", displayName: "Email", rules: [.required, .email])])
    }

    private func emailError(_ key: String) -> AccountError {
        var errors = ValidationErrors()
        errors.add(FieldError(key: key), to: "email", displayName: validator.field(named: "email")?.displayName ?? "Email")
        return .invalid(errors)
    }
}
