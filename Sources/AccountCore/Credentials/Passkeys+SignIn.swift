// Passkeys+SignIn.swift: proving who you are with a passkey: signing in (discoverable credentials, no address typed:
// the credential id finds the account), as the second factor after a password, and re-authentication before a
// sensitive change. Each asks its own challenge (`PasskeyPurpose`), so an answer made for one cannot serve another.
//
// Options: PasskeyPolicy (see Passkeys.swift). User verification is required (a passkey sign-in counts as two factors:
// the device, and the PIN or biometric that unlocked it). A locked account is refused like a password sign-in. A
// signature counter lower than the stored one does not refuse the answer (synced passkeys keep no counter, and some
// authenticators reset theirs): it is recorded (audit `passkey_sign_count_went_back`, and `counterWentBackAt`, shown on
// the passkeys page). A refused answer is audited as `sign_in_failed` with the reason; it does not count toward the
// lockout (a signature cannot be guessed), but the challenge it used is gone.
import AccountRules
import Foundation
import WebAuthn

extension Passkeys {
    /// The options for `navigator.credentials.get`: a fresh challenge for `purpose` bound to this browser. A sign-in
    /// names no account and no credential (the authenticator offers its discoverable ones); the second factor and
    /// re-authentication name the account and list its credentials.
    public func beginAssertion(_ purpose: PasskeyPurpose, accountId: Int64? = nil, binding: [UInt8]) throws -> PasskeyOptions {
        precondition(purpose != .register, "registration has beginRegistration")
        var options = try newChallenge(purpose, accountId: purpose == .signIn ? nil : accountId, binding: binding)
        if purpose != .signIn, let accountId {
            options.credentialIds = try database.read { tx in try tx.passkeyCredentialIds(accountId: accountId) }.map { [UInt8]($0) }
        }
        return options
    }

    /// Signs in with the browser's answer to `beginAssertion(.signIn)` and starts a session (as a password sign-in
    /// does: with `here`, the several-accounts rules apply). Audited as `sign_in` with detail "passkey".
    ///
    /// - Throws: `.refused("passkey_challenge_invalid")`, `.refused("passkey_invalid")` (unknown credential, bytes
    ///   that do not verify), `AccountError.invalidCredentials` for a locked account.
    public func signIn(assertion: PasskeyAssertion, binding: [UInt8], rememberMe: Bool, client: ClientInfo,
                       here: BrowserTokens? = nil, keepPrevious: Bool = false) throws -> SessionGrant {
        let (passkey, verified) = try check(assertion, purpose: .signIn, accountId: nil, binding: binding, client: client)
        if try database.read({ tx in try lockout.isLocked(accountId: passkey.accountId, in: tx) }) {
            try lockout.refuse(accountId: passkey.accountId, email: "", client: client, reason: "account locked (passkey)", counts: false)
        }
        let grant = try database.write { tx in
            try record(verified, of: passkey, client: client, in: tx)
            let primary = try EmailAddress.primaryAddress(of: passkey.accountId, in: tx) ?? ""
            try lockout.recordSuccess(accountId: passkey.accountId, in: tx)
            // Two factors: the device, and the PIN or biometric that unlocked it (user verification is required).
            let grant = try sessions.create(in: tx, accountId: passkey.accountId, email: primary, rememberMe: rememberMe, client: client,
                                            here: here, keepPrevious: keepPrevious, factors: 2)
            // The audit row last, as in every sign-in: one lock order everywhere.
            try audit.record(.signIn, accountId: passkey.accountId, email: primary, client: client,
                             detail: rememberMe ? "passkey, remember me" : "passkey", in: tx)
            return grant
        }
        logger.info("signed in", metadata: ["account": "\(passkey.accountId)", "method": "passkey"])
        return grant
    }

    /// Records a recent sign-in for the session `digest` of `accountId` with the answer to
    /// `beginAssertion(.reauthenticate, accountId:)`. Audited as `reauthenticated` with detail "passkey".
    ///
    /// - Throws: as `signIn`; `AccountError.invalidCredentials` for a locked account; `.notFound` when the session is gone.
    public func reauthenticate(session digest: Data, accountId: Int64, assertion: PasskeyAssertion, binding: [UInt8],
                               client: ClientInfo) throws {
        let (passkey, verified) = try check(assertion, purpose: .reauthenticate, accountId: accountId, binding: binding, client: client)
        if try database.read({ tx in try lockout.isLocked(accountId: accountId, in: tx) }) {
            try lockout.refuse(accountId: accountId, email: "", client: client, reason: "re-authentication: account locked (passkey)", counts: false)
        }
        try database.write { tx in
            try record(verified, of: passkey, client: client, in: tx)
            let methods = SignInMethods(database: database, audit: audit, clock: clock)
            guard try methods.recordReauthentication(session: digest, accountId: accountId, with: .passkey(passkey.id), client: client, in: tx) else {
                throw AccountError.notFound
            }
        }
    }

    /// Checks the answer to `beginAssertion(.secondFactor, accountId:)` and records the passkey's use; the caller
    /// (the second-factor step) then starts or steps up the session.
    ///
    /// - Throws: as `signIn`.
    public func verifySecondFactor(accountId: Int64, assertion: PasskeyAssertion, binding: [UInt8], client: ClientInfo) throws {
        let (passkey, verified) = try check(assertion, purpose: .secondFactor, accountId: accountId, binding: binding, client: client)
        try database.write { tx in try record(verified, of: passkey, client: client, in: tx) }
    }

    // MARK: Checking

    /// Uses up the challenge, finds the passkey (of `accountId` when given) and verifies the answer against it.
    func check(_ assertion: PasskeyAssertion, purpose: PasskeyPurpose, accountId: Int64?, binding: [UInt8],
               client: ClientInfo) throws -> (Passkey, VerifiedAssertion) {
        let challenge = try useChallenge(clientDataJSON: assertion.clientDataJSON, purpose: purpose, accountId: accountId, binding: binding)
        let passkey = try database.read { tx in try tx.passkey(credentialId: Data(assertion.credentialId)) }
        guard let passkey, accountId == nil || passkey.accountId == accountId else {
            try refuse(accountId: accountId, purpose: purpose, reason: "unknown credential", client: client)
        }
        if let handle = assertion.userHandle, handle != (try userHandle(accountId: passkey.accountId)) {
            try refuse(accountId: passkey.accountId, purpose: purpose, reason: "user handle of another account", client: client)
        }
        do {
            let verified = try relyingParty.verifyAssertion(
                clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData, signature: assertion.signature,
                publicKey: [UInt8](passkey.publicKey), storedSignCount: UInt32(clamping: passkey.signCount), challenge: challenge)
            return (passkey, verified)
        } catch {
            try refuse(accountId: passkey.accountId, purpose: purpose, reason: "\(error)", client: client)
        }
    }

    /// The passkey's new counter, backup state and time of use; a counter that went back is audited.
    func record(_ verified: VerifiedAssertion, of passkey: Passkey, client: ClientInfo, in tx: Transaction) throws {
        try tx.recordPasskeyUse(id: passkey.id, signCount: Int64(verified.signCount), backedUp: verified.backedUp,
                                counterWentBack: verified.counterWentBack, at: clock.now())
        if verified.counterWentBack {
            logger.warning("passkey signature counter went back", metadata: ["account": "\(passkey.accountId)", "passkey": "\(passkey.id)"])
            try audit.record(.passkeySignCountWentBack, accountId: passkey.accountId,
                             email: try EmailAddress.primaryAddress(of: passkey.accountId, in: tx), client: client,
                             detail: "\(passkey.name): stored \(passkey.signCount), given \(verified.signCount)", in: tx)
        }
    }

    /// Audits a refused answer (`sign_in_failed`, "passkey: <reason>") and throws `.refused("passkey_invalid")`.
    func refuse(accountId: Int64?, purpose: PasskeyPurpose, reason: String, client: ClientInfo) throws -> Never {
        logger.info("passkey refused", metadata: ["account": "\(accountId.map(String.init) ?? "-")", "purpose": "\(purpose.rawValue)",
                                                  "reason": "\(reason)", "client": "\(client.remoteAddress)"])
        try database.write { tx in
            let email = try accountId.flatMap { try EmailAddress.primaryAddress(of: $0, in: tx) }
            try audit.record(.signInFailed, accountId: accountId, email: email, client: client,
                             detail: "passkey (\(purpose.rawValue)): \(reason)", in: tx)
        }
        throw AccountError.refused("passkey_invalid")
    }
}
