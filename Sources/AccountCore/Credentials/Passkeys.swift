// Passkeys.swift: an account's passkeys (WebAuthn credentials, this site the relying party): begin and finish adding
// one, list, rename, remove. Signing in with one, and proving it is you with one, are in Passkeys+SignIn.swift.
//
// Options (PasskeyPolicy, from `public_url` and `passkeys.authenticator_names`): the RP ID and origin, the names of
// authenticators by AAGUID, a challenge's lifetime (5 min), at most 20 passkeys per account.
// The bytes are checked by the WebAuthn target (client data type, challenge, origin, RP ID hash, user presence and
// verification, the COSE key and algorithm); this file keeps the rules around them:
// - A challenge is 32 random bytes, stored as their SHA-256 with its purpose, the account it was made for and the
//   digest of the browser's binding cookie; it is used up once (a conditional UPDATE) before the answer is checked, so
//   a replayed answer finds it used, and any host finishes what another began.
// - The user handle is derived, not stored: HMAC-SHA256(server secret "passkey_user_handle", account id). It is the
//   same for all of an account's passkeys (an authenticator then replaces its own old credential for the account
//   rather than keeping two) and tells nothing about the account to whoever reads it from an authenticator.
// - A credential id is unique across accounts (the table refuses a second row). User verification is required.
// - Removing one needs a recent sign-in (the page asks, Reauthentication.isRecent) and is refused when it is the
//   account's last way to sign in (SignInMethods decides). Adding and removing are audited and mailed to the primary
//   address. Having a passkey makes it the account's second factor after a password (SignInMethods, SecondFactorSignIn).
import AccountRules
import Crypto
import Foundation
import Logging
import WebAuthn

/// An account's passkeys.
public struct Passkeys: Sendable {
    let database: AppDatabase
    let policy: PasskeyPolicy
    let sessions: Sessions
    let lockout: Lockout
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let random: any RandomSource
    let logger: Logger

    public init(database: AppDatabase, policy: PasskeyPolicy, sessions: Sessions, lockout: Lockout, mail: MailQueue,
                audit: AuditLog, clock: any Clock, random: any RandomSource, logger: Logger) {
        self.database = database
        self.policy = policy
        self.sessions = sessions
        self.lockout = lockout
        self.mail = mail
        self.audit = audit
        self.clock = clock
        self.random = random
        self.logger = logger
    }

    /// The relying party the WebAuthn target checks against.
    var relyingParty: RelyingParty { RelyingParty(id: policy.relyingPartyId, origins: [policy.origin]) }

    /// The longest name kept.
    public static let maximumNameLength = 64

    // MARK: Adding

    /// The options for `navigator.credentials.create` for the account: a fresh challenge bound to this browser
    /// (`binding`, its binding cookie), the derived user handle, the credentials it has (excluded).
    ///
    /// - Throws: `.refused("passkey_too_many")` at `maxPerAccount`; `.refused("passkey_challenge_invalid")` without a binding.
    public func beginRegistration(accountId: Int64, userName: String, displayName: String, binding: [UInt8]) throws -> PasskeyOptions {
        let handle = try userHandle(accountId: accountId)
        let existing = try database.read { tx in try tx.passkeyCredentialIds(accountId: accountId) }
        guard existing.count < policy.maxPerAccount else { throw AccountError.refused("passkey_too_many") }
        var options = try newChallenge(.register, accountId: accountId, binding: binding)
        options.userHandle = handle
        options.userName = userName
        options.userDisplayName = displayName.isEmpty ? userName : displayName
        options.credentialIds = existing.map { [UInt8]($0) }
        return options
    }

    /// Checks the browser's answer to `beginRegistration` and stores the passkey, named `name` (trimmed), else the
    /// authenticator's name from `passkeys.authenticator_names`, else `defaultName`. Audited; the primary address is mailed.
    ///
    /// - Throws: `.refused("passkey_challenge_invalid")` (unknown, used, expired, another account's or browser's
    ///   challenge), `.refused("passkey_invalid")` (the bytes do not verify), `.refused("passkey_exists")` (the credential
    ///   is stored already), `.refused("passkey_too_many")`. `session`: the adding session, raised to two factors.
    @discardableResult
    public func finishRegistration(accountId: Int64, attestation: PasskeyAttestation, name: String, defaultName: String,
                                   binding: [UInt8], client: ClientInfo, session: Data? = nil) throws -> Passkey {
        let challenge = try useChallenge(clientDataJSON: attestation.clientDataJSON, purpose: .register, accountId: accountId, binding: binding)
        let credential: RegisteredCredential
        do {
            credential = try relyingParty.verifyRegistration(clientDataJSON: attestation.clientDataJSON,
                                                             attestationObject: attestation.attestationObject, challenge: challenge)
        } catch {
            logger.info("passkey registration refused", metadata: ["account": "\(accountId)", "reason": "\(error)"])
            throw AccountError.refused("passkey_invalid")
        }
        let now = clock.now()
        let trimmed = String(name.trimmingWhitespace().prefix(Self.maximumNameLength))
        let named = trimmed.isEmpty ? policy.authenticatorNames[PasskeyPolicy.aaguidString(credential.aaguid)] ?? defaultName : trimmed
        var passkey = Passkey(accountId: accountId, credentialId: Data(credential.credentialId), publicKey: Data(credential.publicKey),
                              algorithm: credential.algorithm, signCount: Int64(credential.signCount), aaguid: Data(credential.aaguid),
                              name: String(named.prefix(Self.maximumNameLength)), backupEligible: credential.backupEligible,
                              backedUp: credential.backedUp, createdAt: now)
        do {
            passkey.id = try database.write { tx in
                try tx.lockAccountForSocialChange(accountId: accountId)
                guard try tx.countPasskeys(accountId: accountId) < policy.maxPerAccount else { throw AccountError.refused("passkey_too_many") }
                let id = try tx.savepoint { try tx.insertPasskey(passkey) }
                // The session that added it has just proved both factors (a recent sign-in, then the passkey with user
                // verification): it counts as two from now, so `second_factor: required` does not send it back at once.
                if let session { _ = try tx.raiseSessionFactors(digest: session, of: accountId, at: now) }
                let primary = try EmailAddress.primaryAddress(of: accountId, in: tx)
                try audit.record(.passkeyAdded, accountId: accountId, email: primary, client: client, detail: passkey.name, in: tx)
                if let primary { try mail.enqueue(.passkeyAdded(name: passkey.name), to: primary, in: tx) }
                return id
            }
        } catch StorageError.uniqueViolation {
            throw AccountError.refused("passkey_exists")
        }
        logger.info("passkey added", metadata: ["account": "\(accountId)", "algorithm": "\(credential.algorithm)"])
        return passkey
    }

    // MARK: The list

    /// The account's passkeys, oldest first.
    public func list(accountId: Int64) throws -> [Passkey] {
        try database.read { tx in try tx.passkeys(accountId: accountId) }
    }

    /// How many passkeys the account has.
    public func count(accountId: Int64, in tx: Transaction) throws -> Int {
        try tx.countPasskeys(accountId: accountId)
    }

    /// Removes every passkey of the account in the caller's transaction (the operator's reset), each audited
    /// `passkey_removed` with "<detail>: <name>", and one mail to the primary address naming them. Returns how many.
    @discardableResult
    public func removeAll(accountId: Int64, client: ClientInfo, detail: String, in tx: Transaction) throws -> Int {
        let names = try tx.passkeys(accountId: accountId).map(\.name)
        guard !names.isEmpty else { return 0 }
        _ = try tx.deletePasskeys(accountId: accountId)
        let primary = try EmailAddress.primaryAddress(of: accountId, in: tx)
        for name in names {
            try audit.record(.passkeyRemoved, accountId: accountId, email: primary, client: client, detail: "\(detail): \(name)", in: tx)
        }
        if let primary { try mail.enqueue(.passkeyRemoved(name: names.joined(separator: ", ")), to: primary, in: tx) }
        return names.count
    }

    /// Renames the account's passkey `id` (trimmed, at most 64 characters).
    ///
    /// - Throws: `.refused("passkey_name_missing")` for an empty name; `.notFound` when the account has no such passkey.
    public func rename(accountId: Int64, id: Int64, name: String, client: ClientInfo) throws {
        let name = String(name.trimmingWhitespace().prefix(Self.maximumNameLength))
        guard !name.isEmpty else { throw AccountError.refused("passkey_name_missing") }
        try database.write { tx in
            guard try tx.renamePasskey(id: id, accountId: accountId, name: name) else { throw AccountError.notFound }
            try audit.record(.passkeyRenamed, accountId: accountId, email: try EmailAddress.primaryAddress(of: accountId, in: tx),
                             client: client, detail: name, in: tx)
        }
    }

    /// Removes the account's passkey `id`. The caller has checked the session's recent sign-in.
    ///
    /// - Throws: `.notFound` when the account has no such passkey; `.refused("passkey_last_method")` when it is the
    ///   account's last way to sign in (no password, no provider, no other passkey).
    public func remove(accountId: Int64, id: Int64, client: ClientInfo) throws {
        try database.write { tx in
            // SignInMethods holds the account's row first: two removals at once take turns, the second counting what
            // the first left.
            guard try SignInMethods(database: database, audit: audit, clock: clock).mayRemove(.passkey(id), accountId: accountId, in: tx) else {
                throw AccountError.refused("passkey_last_method")
            }
            guard let name = try tx.deletePasskey(id: id, accountId: accountId) else { throw AccountError.notFound }
            let primary = try EmailAddress.primaryAddress(of: accountId, in: tx)
            try audit.record(.passkeyRemoved, accountId: accountId, email: primary, client: client, detail: name, in: tx)
            if let primary { try mail.enqueue(.passkeyRemoved(name: name), to: primary, in: tx) }
        }
        logger.info("passkey removed", metadata: ["account": "\(accountId)"])
    }

    // MARK: Challenges

    /// The account's user handle: HMAC-SHA256(server secret "passkey_user_handle", the account id as 8 big-endian bytes).
    func userHandle(accountId: Int64) throws -> [UInt8] {
        let key = try database.secret(named: "passkey_user_handle", random: random)
        let id = withUnsafeBytes(of: accountId.bigEndian) { [UInt8]($0) }
        return [UInt8](HMAC<SHA256>.authenticationCode(for: id, using: SymmetricKey(data: key)))
    }

    /// A fresh challenge for `purpose`, stored (as its digest) with the account and the browser's binding.
    func newChallenge(_ purpose: PasskeyPurpose, accountId: Int64?, binding: [UInt8]) throws -> PasskeyOptions {
        guard !binding.isEmpty else { throw AccountError.refused("passkey_challenge_invalid") }
        let bytes = random.bytes(32)
        let now = clock.now()
        let stored = StoredPasskeyChallenge(digest: Data(SHA256.hash(data: bytes)), purpose: purpose.rawValue, accountId: accountId,
                                            bindingDigest: Self.digest(binding), createdAt: now, expiresAt: now + policy.challengeLifetime)
        try database.write { tx in try tx.insertPasskeyChallenge(stored) }
        return PasskeyOptions(challenge: bytes, purpose: purpose, relyingPartyId: policy.relyingPartyId,
                              relyingPartyName: policy.relyingPartyName, timeout: Int(policy.challengeLifetime * 1000))
    }

    /// Uses up the challenge the client data names when it was made for `purpose`, `accountId` (nil: any, for a
    /// sign-in) and this browser; returns its bytes. A challenge for another purpose, account or browser is not used up.
    ///
    /// - Throws: `.refused("passkey_challenge_invalid")`.
    func useChallenge(clientDataJSON: [UInt8], purpose: PasskeyPurpose, accountId: Int64?, binding: [UInt8]) throws -> [UInt8] {
        guard let challenge = PasskeyJSON.challenge(clientDataJSON: clientDataJSON), challenge.count == 32, !binding.isEmpty else {
            throw AccountError.refused("passkey_challenge_invalid")
        }
        let digest = Data(SHA256.hash(data: challenge))
        let now = clock.now()
        let used = try database.write { tx -> Bool in
            guard let stored = try tx.unusedPasskeyChallenge(digest: digest, now: now), stored.purpose == purpose.rawValue,
                  stored.accountId == accountId, Self.constantTimeEquals(stored.bindingDigest, Self.digest(binding)) else { return false }
            // One winner per challenge: the conditional UPDATE's changed-row count.
            return try tx.markPasskeyChallengeUsed(digest: digest, now: now)
        }
        guard used else { throw AccountError.refused("passkey_challenge_invalid") }
        return challenge
    }

    static func digest(_ binding: [UInt8]) -> Data { Data(SHA256.hash(data: binding)) }

    static func constantTimeEquals(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
