// Registration.swift: signs a person up: validates the form, stores the account and its address, and
// either mails a confirmation link or (without required confirmation) signs the person in.
//
// Options:
//   validator      the sign-up rules (AccountForms.signUp, with the configured password lengths and extra fields)
//   confirmation   Confirmation (`confirmation.required`, link lifetime)
//   invitations    Invitations (`signup`: open | invite | closed; `invite.lifetime`)
//   profile        Profile (`profile.fields`): the declared fields with `sign_up` are stored with the account, in its
//                  transaction; a unique value another account holds is `taken` on that field, and nothing is created
//   usernames      Usernames (`identity.username`): unless `off`, the form's `username` is the account's (checked by
//                  AccountRules' `Username` rule, required when `required`; `taken` when held); else one is made
// With confirmation required, an address that already has an account gets the same outcome as a new
// one (`.confirmationSent`), nothing is created, and its owner is mailed instead: nobody can learn
// from sign-up which addresses have accounts. Both paths hash the password, so they take as long.
// Without required confirmation a new address is signed in at once, so no answer for a held address could look the
// same (only a session would): sign-up says `taken`, as Devise and Kratos do in that mode, and mails the owner the
// same throttled note, so probing is seen by the people probed. The `confirmation.required` row of the key table
// (docs/configuration.md) says so; an operator who needs sign-up to be silent about addresses keeps confirmation on
// (the default).
// With `signup = "invite"` only the address of a valid invitation (form field `invite`) may sign up; the
// invitation is used up in the transaction that creates the account, and the address counts as confirmed
// (the operator vouched for it), so the person is signed in at once. An invitation works in open mode too.
// With `signup = "closed"` nobody may.
import AccountRules
import Foundation
import Logging

/// What a successful sign-up led to.
public enum SignUpOutcome: Sendable {
    /// Confirmation is not required: the account exists and this browser is signed in.
    case signedIn(SessionGrant)
    /// A mail is on its way (a confirmation link, or a note to the existing owner); nothing tells which.
    case confirmationSent
}

/// Sign-up, as one call from the HTML form, the JSON API or the command line.
public struct Registration: Sendable {
    let database: AppDatabase
    let validator: Validator
    let hasher: PasswordHasher
    let sessions: Sessions
    let confirmation: Confirmation
    let audit: AuditLog
    let invitations: Invitations
    let profile: Profile
    let usernames: Usernames
    let clock: any Clock
    let logger: Logger

    /// Creates the account described by `form` (fields email, password, password_confirmation, `invite`, and the declared
    /// profile fields asked at sign-up).
    ///
    /// - Throws: `AccountError.signUpClosed` when sign-up is closed; `AccountError.invitationRequired` in invite
    ///   mode without a valid invitation; `AccountError.invalid` with every problem at once (an address already
    ///   taken only when confirmation is not required or an invitation is used; `not_invited` for another address).
    ///   `kind: .api` signs in with an API token instead of a browser session (the JSON API's sign-up). With `here` (the
    ///   browser's tokens) the new account is added to the browser under the several-accounts rules (BrowserSessions).
    public func signUp(_ form: [String: String], client: ClientInfo, kind: SessionKind = .browser,
                       here: BrowserTokens? = nil) throws -> SignUpOutcome {
        let mode = invitations.policy.mode
        guard mode != .closed else { throw AccountError.signUpClosed }
        let invite = (form["invite"] ?? "").trimmingWhitespace()
        let invited = invite.isEmpty ? nil : try invitations.invitation(token: invite)
        guard mode == .open || invited != nil else { throw AccountError.invitationRequired }

        var values = profile.normalized(form, signUp: true)
        let address = (form["email"] ?? "").trimmingWhitespace()
        values["email"] = address
        // Off, `username` is not ours: a declared profile field may have the name (ConfigReader refuses it otherwise).
        let username = usernames.mode == .off ? "" : (form["username"] ?? "").trimmingWhitespace()
        // A display name sent with the sign-up (the JSON API's `displayName`) is kept, under the profile page's rule.
        let displayName = (form["display_name"] ?? "").trimmingWhitespace()
        var errors = validator.validate(values)
        errors.append(AccountForms.profile([]).validate(["display_name": displayName]))
        errors.append(try usernameErrors(username))
        if let invited {
            if EmailFormat.normalized(invited) == EmailFormat.normalized(address) {
                return try signUpInvited(address: address, username: username, displayName: displayName, values: values, invite: invite,
                                         errors: errors, client: client, kind: kind, here: here)
            }
            // In open mode an invitation for another address is simply not used.
            if mode == .invite { errors.add(FieldError(key: "not_invited"), to: "email", displayName: emailDisplayName) }
        }
        if errors.isEmpty, !confirmation.required, try noteAttemptIfTaken(address) {
            errors.add(takenError, to: "email", displayName: emailDisplayName)
        }
        errors.append(try profile.takenErrors(values, signUp: true, accountId: nil, skipping: errors))
        guard errors.isEmpty else { throw AccountError.invalid(errors) }

        let passwordHash = try hasher.hash(values["password"] ?? "")
        let step: SignUpStep
        do {
            step = try database.write { tx -> SignUpStep in
                if confirmation.required, let owner = try EmailAddress.heldAddress(address, in: tx) {
                    return .ownerNoted(mailed: try confirmation.noteSignUpAttempt(to: owner, in: tx))
                }
                // The count and the insert are in one write transaction (serialised on both backends), so two sign-ups
                // at once cannot both take the last place.
                guard try allowsAnotherAccount(from: client, in: tx) else { return .rateLimited }
                let (accountId, emailId) = try insertAccount(address: address, passwordHash: passwordHash, verified: false,
                                                             language: client.language, username: username, in: tx)
                if !displayName.isEmpty { try tx.setDisplayName(displayName, of: accountId) }
                if !displayName.isEmpty { try tx.setDisplayName(displayName, of: accountId) }
                try profile.store(values, accountId: accountId, signUp: true, in: tx)
                try audit.record(.signUp, accountId: accountId, email: address, client: client, in: tx)
                if confirmation.required {
                    try confirmation.start(accountId: accountId, emailAddressId: emailId, address: address, in: tx)
                    return .created(accountId, .confirmationSent)
                }
                return .created(accountId, .signedIn(try sessions.create(in: tx, accountId: accountId, email: address, rememberMe: false,
                                                                        client: client, kind: kind, here: here, keepPrevious: true)))
            }
        } catch StorageError.uniqueViolation {
            // Another sign-up for the same address won the race between the check and the insert (the unique index on
            // emailAddress.normalizedAddress refused this one; the whole transaction is gone).
            if confirmation.required { return .confirmationSent }
            errors.add(takenError, to: "email", displayName: emailDisplayName)
            throw AccountError.invalid(errors)
        }
        switch step {
        case .ownerNoted(let mailed):
            if mailed { logger.info("sign-up with an address that has an account; owner notified") }
            return .confirmationSent
        case .rateLimited:
            logger.notice("sign-up refused: too many accounts from one client address", metadata: ["address": "\(client.remoteAddress)"])
            throw AccountError.refused("sign_up_rate_limited")
        case .created(let accountId, let outcome):
            logger.info("account created", metadata: ["account": "\(accountId)"])
            return outcome
        }
    }

    /// What the sign-up's write transaction did (logged after it, since the body may run more than once).
    private enum SignUpStep {
        case ownerNoted(mailed: Bool)
        case rateLimited
        case created(Int64, SignUpOutcome)
    }

    /// False when `client`'s address (its `addressGroup`: an IPv6 client's whole /64) created
    /// `signup_limit.max_per_address` accounts within the window (counted from the audit log's sign-ups, inside the
    /// write, with sign-ups from the same address group taking turns: two at once cannot both pass the last place).
    private func allowsAnotherAccount(from client: ClientInfo, in tx: Transaction) throws -> Bool {
        let policy = invitations.policy
        guard policy.maxPerAddress > 0 else { return true }
        let since = clock.now().timeIntervalSince1970 - policy.window
        try tx.serialize(on: "signup.\(client.addressGroup)")
        return try tx.countSignUps(addressGroup: client.addressGroup, since: since) < policy.maxPerAddress
    }

    /// Sign-up through a valid invitation for `address`: the invitation is used only when the account is created
    /// (same transaction); the address is confirmed and the person signed in. Only the invitee holds the link, so
    /// saying that the address is taken tells nobody else anything.
    private func signUpInvited(address: String, username: String, displayName: String, values: [String: String], invite: String,
                               errors: ValidationErrors,
                               client: ClientInfo, kind: SessionKind, here: BrowserTokens?) throws -> SignUpOutcome {
        var errors = errors
        if errors.isEmpty, try isTaken(address) { errors.add(takenError, to: "email", displayName: emailDisplayName) }
        errors.append(try profile.takenErrors(values, signUp: true, accountId: nil, skipping: errors))
        guard errors.isEmpty else { throw AccountError.invalid(errors) }
        let passwordHash = try hasher.hash(values["password"] ?? "")
        do {
            let grant = try database.write { tx -> SessionGrant in
                // Another sign-up with this link may have won since the check above: the redemption's conditional
                // UPDATE decides (InviteStore.redeemInvite).
                guard try invitations.redeem(token: invite, address: address, in: tx) else { throw AccountError.invitationRequired }
                let (accountId, _) = try insertAccount(address: address, passwordHash: passwordHash, verified: true,
                                                       language: client.language, username: username, in: tx)
                try profile.store(values, accountId: accountId, signUp: true, in: tx)
                try audit.record(.signUp, accountId: accountId, email: address, client: client, detail: "invitation", in: tx)
                return try sessions.create(in: tx, accountId: accountId, email: address, rememberMe: false, client: client, kind: kind,
                                           here: here, keepPrevious: true)
            }
            logger.info("account created from an invitation", metadata: ["account": "\(grant.session.accountId)"])
            return .signedIn(grant)
        } catch StorageError.uniqueViolation {
            // The address got an account in the meantime; the transaction (and the redemption) was rolled back.
            errors.add(takenError, to: "email", displayName: emailDisplayName)
            throw AccountError.invalid(errors)
        }
    }

    private func insertAccount(address: String, passwordHash: String, verified: Bool, language: String?, username: String,
                               in tx: Transaction) throws -> (Int64, Int64) {
        try Account.insert(address: address, passwordHash: passwordHash, verified: verified, language: language, now: clock.now(),
                           username: username, in: tx)
    }

    /// What is wrong with the chosen `username` (empty when the setting is `off`): the rule, then `taken` when another
    /// account holds it (a race past this check is settled by the unique index: Usernames.assign).
    private func usernameErrors(_ username: String) throws -> ValidationErrors {
        var errors = ValidationErrors()
        guard usernames.mode != .off else { return errors }
        let displayName = validator.field(named: "username")?.displayName ?? "Username"
        if !username.isEmpty || usernames.mode == .required, let problem = Username.problem(username) {
            errors.add(problem, to: "username", displayName: displayName)
            return errors
        }
        if !username.isEmpty, try database.read({ tx in try tx.account(withUsername: username) }) != nil {
            errors.add(takenError, to: "username", displayName: displayName)
        }
        return errors
    }

    private var takenError: FieldError { FieldError(key: "taken") }
    private var emailDisplayName: String { validator.field(named: "email")?.displayName ?? "Email" }

    /// With confirmation off: when `address` is held, its owner is mailed the throttled sign-up-attempt note. One read
    /// finds the owner, so the common path of a free address never takes a write transaction; the write only queues.
    private func noteAttemptIfTaken(_ address: String) throws -> Bool {
        guard let owner = try database.read({ tx in try EmailAddress.heldAddress(address, in: tx) }) else { return false }
        try database.write { tx in _ = try confirmation.noteSignUpAttempt(to: owner, in: tx) }
        return true
    }

    private func isTaken(_ address: String) throws -> Bool {
        try database.read { tx in try EmailAddress.heldAddress(address, in: tx) != nil }
    }
}
