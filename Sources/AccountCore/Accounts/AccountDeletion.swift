// AccountDeletion.swift: a person deletes their own account (and the operator deletes one with the same code).
//
// Options: none of its own. The password is checked as re-authentication does (a wrong one counts towards the lock;
// a locked account is refused); an account without a password (made through a provider) needs a recent sign-in
// instead (`session.reauthenticate_after`, e.g. through its provider; SignInMethods says which). One transaction removes the account with everything that hangs off it (addresses,
// sessions, tokens, profile values and failed sign-ins go by cascade), its unsent mail, and the invitations its
// addresses used; its audit rows keep the account id as an anonymous id but lose the address. Then a goodbye mail
// goes to the former primary address. `Administration.delete` shares `deleteAccount` but keeps the address in the
// trail (the operator finds a deleted account's trail by address) and sends no goodbye.
import AccountRules
import Foundation
import Logging

/// Deleting an account and everything that names it.
public struct AccountDeletion: Sendable {
    let database: AppDatabase
    let reauthentication: Reauthentication
    let mail: MailQueue
    let audit: AuditLog
    let clock: any Clock
    let logger: Logger

    /// Deletes the account of the session `digest` when `password` is its password; returns its former primary address.
    /// An account without a password needs no password (it is ignored), but a recent sign-in.
    ///
    /// - Throws: `AccountError.invalid` (field `password`: `blank`, or `wrong_password` for a wrong password or a locked
    ///   account; nothing is deleted); `AccountError.reauthenticationRequired` for an account without a password whose
    ///   session did not sign in recently; `AccountError.notFound` when the session or account is gone.
    ///   With `recentSignInSuffices` (the JSON API's DELETE, which sends no password), an empty password is accepted
    ///   when the session signed in recently, and `.reauthenticationRequired` is thrown otherwise.
    @discardableResult
    public func delete(session digest: Data, password: String, client: ClientInfo, recentSignInSuffices: Bool = false) throws -> String {
        let accountId: Int64
        if let passwordless = try reauthentication.passwordlessAccount(session: digest) {
            guard try reauthentication.isRecent(digest) else { throw AccountError.reauthenticationRequired }
            accountId = passwordless
        } else if password.isEmpty, recentSignInSuffices {
            guard try reauthentication.isRecent(digest), let found = try reauthentication.sessionAccount(digest) else {
                throw AccountError.reauthenticationRequired
            }
            accountId = found
        } else {
            let displayName = MessageCatalog.english.text("field_password")
            guard !password.isEmpty else {
                var errors = ValidationErrors()
                errors.add(FieldError(key: "blank"), to: "password", displayName: displayName)
                throw AccountError.invalid(errors)
            }
            accountId = try reauthentication.checkPassword(session: digest, password: password, client: client,
                                                           field: "password", displayName: displayName)
        }
        let primary = try database.write { tx -> String in
            // The session that proved the password must still be there (not revoked or deleted meanwhile).
            guard try tx.sessionBelongs(digest: digest, to: accountId) else { throw AccountError.notFound }
            let language = try tx.accountLanguage(accountId)
            let primary = try deleteAccount(accountId, client: client, detail: "by its owner", in: tx)
            if !primary.isEmpty { try mail.enqueue(.accountDeleted, to: primary, fallback: language, in: tx) }
            return primary
        }
        logger.notice("account deleted by its owner", metadata: ["account": "\(accountId)"])
        return primary
    }

    /// The body of every account deletion, inside the caller's transaction; returns the former primary address.
    ///
    /// Removes unsent mail to any of the account's addresses, the invitations they used, then the account (the rest
    /// goes by cascade). With `anonymize`, the account's audit rows (and rows naming its addresses without an account)
    /// lose the address; the account id stays as the anonymous id. Records `.accountDeleted` with `detail`.
    ///
    /// - Throws: `AccountError.notFound` when there is no such account (nothing is changed).
    func deleteAccount(_ accountId: Int64, client: ClientInfo, detail: String, anonymize: Bool = true, in tx: Transaction) throws -> String {
        let addresses = try tx.emailAddresses(of: accountId)
        let primary = addresses.first(where: \.isPrimary)?.address ?? ""
        guard try tx.deleteAccountRow(accountId, at: clock.now()) else { throw AccountError.notFound }
        for email in addresses {
            // The queue's key is `address.lowercased()` (MailQueue.enqueue); invitations use the normalized form.
            try tx.deleteUnsentMail(recipientKey: email.address.lowercased())
            try tx.deleteUsedInvites(for: email.address)
            if anonymize { try tx.forgetAuditAddress(email.address) }
        }
        if anonymize { try tx.forgetAuditAddresses(of: accountId) }
        try audit.record(.accountDeleted, accountId: accountId, email: anonymize ? nil : primary, client: client, detail: detail, in: tx)
        return primary
    }
}
