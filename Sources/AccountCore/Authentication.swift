// Authentication.swift: signs a person in with email and password and starts a fresh session.
//
// Options:
//   password   PasswordPolicy (argon2id cost; hashes made with older parameters are upgraded at sign-in)
// Every failure is the same `AccountError.invalidCredentials`; an unknown address costs one argon2id
// verification like a wrong password does. Only the log tells the reasons apart.
import AccountRules
import Foundation
import GRDB
import Logging

/// Sign-in with a password.
public struct Authentication: Sendable {
    let database: AppDatabase
    let hasher: PasswordHasher
    let sessions: Sessions
    /// Sign-in waits until the address used is confirmed.
    let confirmationRequired: Bool
    let clock: any Clock
    let logger: Logger


    /// Checks `email` and `password` and starts a new session; `previousToken` (the browser's old session) is ended,
    /// so the session id always changes at sign-in.
    ///
    /// - Throws: `AccountError.invalidCredentials` for every kind of failure; `AccountError.unconfirmed`
    ///   after a correct password when the address still waits for confirmation.
    public func signIn(email: String, password: String, rememberMe: Bool, client: ClientInfo,
                       previousToken: String? = nil) throws -> SessionGrant {
        let normalized = EmailFormat.normalized(email)
        let found = try database.writer.read { db in
            try Row.fetchOne(db, sql: """
                SELECT a.id, a.passwordHash, e.verifiedAt IS NOT NULL FROM emailAddress e
                JOIN account a ON a.id = e.accountId
                WHERE e.normalizedAddress = ?
                """, arguments: [normalized]).map { (id: $0[0] as Int64, hash: $0[1] as String, verified: $0[2] as Bool) }
        }
        guard !email.isEmpty, password.utf8.count <= 4096, let found else {
            _ = hasher.verifyAgainstDummy(password)
            logger.info("sign-in failed", metadata: ["reason": "unknown address"])
            throw AccountError.invalidCredentials
        }
        guard hasher.verify(password, against: found.hash) else {
            logger.info("sign-in failed", metadata: ["reason": "wrong password", "account": "\(found.id)"])
            throw AccountError.invalidCredentials
        }
        if confirmationRequired && !found.verified {
            logger.info("sign-in refused", metadata: ["reason": "address not confirmed", "account": "\(found.id)"])
            throw AccountError.unconfirmed
        }
        let upgradedHash = hasher.needsRehash(found.hash) ? try? hasher.hash(password) : nil
        let grant = try database.writer.write { db in
            if let previous = previousToken.flatMap(SecretToken.init(encoded:)) {
                try sessions.revoke(digest: previous.digest, in: db)
            }
            if let upgradedHash {
                try db.execute(sql: "UPDATE account SET passwordHash = ?, updatedAt = ? WHERE id = ?",
                               arguments: [upgradedHash, clock.now().timeIntervalSince1970, found.id])
            }
            let primary = try String.fetchOne(db, sql: "SELECT address FROM emailAddress WHERE accountId = ? AND isPrimary",
                                              arguments: [found.id]) ?? email
            return try sessions.create(in: db, accountId: found.id, email: primary, rememberMe: rememberMe, client: client)
        }
        logger.info("signed in", metadata: ["account": "\(found.id)", "remember": "\(rememberMe)"])
        return grant
    }
}
