// SocialSignIn+Settings.swift: the flows begun by a signed-in person or for an existing account: link a provider to
// the signed-in account (settings), re-authenticate the session with a linked provider, and link a pending identity
// after signing in with a provider already linked to the account holding its address (purpose linkPending).
//
// Options: none beyond SocialSignIn's. Linking refuses an identity linked to another account (`social_identity_taken`)
// and a second identity of one provider (`social_already_linked`); linking the identity already linked is a no-op.
// A new link is audited (`identity_linked`, detail: the provider) and mailed to the account's primary address.
// Link and re-authenticate need the session of the account the flow was begun for (`social_wrong_account` otherwise);
// WebFront asks for a recent sign-in before a link, as for address changes.
import Foundation

extension SocialSignIn {
    /// Purpose `link`: the identity joins the signed-in account.
    func link(_ record: IdentityRecord, flow: SocialFlow, session: SessionInfo?, binding: [UInt8], client: ClientInfo) throws -> SocialOutcome {
        guard let session, flow.accountId == session.accountId else { throw AccountError.refused("social_wrong_account") }
        try retryingOnce {
            try database.write { tx in _ = try linkIdentity(record, to: session.accountId, client: client, binding: binding, in: tx) }
        }
        return .linked
    }

    /// Purpose `reauthenticate`: the identity must be linked to the session's account; the session counts as freshly
    /// authenticated (Reauthentication.isRecent).
    func reauthenticate(_ record: IdentityRecord, flow: SocialFlow, session: SessionInfo?, client: ClientInfo) throws -> SocialOutcome {
        guard let session, flow.accountId == session.accountId else { throw AccountError.refused("social_wrong_account") }
        try database.write { tx in
            guard try tx.socialIdentityOwner(provider: record.provider, subject: record.subject) == session.accountId else {
                throw AccountError.refused("social_wrong_account")
            }
            try tx.refreshSocialIdentity(record, now: clock.now())
            let methods = SignInMethods(database: database, audit: audit, clock: clock)
            guard try methods.recordReauthentication(session: session.digest, accountId: session.accountId,
                                                     with: .provider(record.provider), client: client, in: tx) else {
                throw AccountError.notFound
            }
        }
        logger.info("re-authenticated through a provider", metadata: ["account": "\(session.accountId)", "provider": "\(record.provider)"])
        return .reauthenticated
    }

    /// Purpose `linkPending`: `record` (a provider already linked to the account holding the pending identity's
    /// address) proves the person owns that account; the pending identity is linked to it and the person signed in.
    /// An account with a second factor gets `.secondFactorRequired` instead, as linkWithPassword does.
    func linkPending(_ record: IdentityRecord, flow: SocialFlow, binding: [UInt8], client: ClientInfo,
                     here: BrowserTokens?) throws -> SocialOutcome {
        guard let key = flow.pendingKey else { throw AccountError.refused("social_pending_invalid") }
        let outcome = try retryingOnce {
            try settle(database.write { tx -> Settled in
                guard let pending = try store.pending(digest: key, binding: binding, in: tx), let target = pending.linkAccountId else {
                    throw AccountError.refused("social_pending_invalid")
                }
                guard try tx.socialIdentityOwner(provider: record.provider, subject: record.subject) == target else {
                    throw AccountError.refused("social_wrong_account")
                }
                let primary = try EmailAddress.primaryAddress(of: target, in: tx) ?? ""
                if confirmation.required, try tx.primaryAddressIsUnverified(accountId: target) {
                    try audit.record(.signInFailed, accountId: target, email: primary, client: client,
                                     detail: "via \(record.provider): address not confirmed", in: tx)
                    return .failed(.unconfirmed)
                }
                try tx.refreshSocialIdentity(record, now: clock.now())
                if let asked = try askSecondFactor(target, rememberMe: pending.rememberMe || flow.rememberMe, kind: .browser,
                                                   binding: binding, in: tx) {
                    return asked
                }
                _ = try linkIdentity(pending.identity, to: target, client: client, binding: binding, in: tx)
                // One winner per pending identity: markUsed's conditional UPDATE.
                guard try store.markUsed(pending, in: tx) else { throw AccountError.refused("social_pending_invalid") }
                let grant = try startSession(accountId: target, email: primary, rememberMe: pending.rememberMe || flow.rememberMe,
                                             client: client, here: here, in: tx)
                try audit.record(.signIn, accountId: target, email: primary, client: client, detail: "via \(record.provider)", in: tx)
                return .done(.signedIn(grant, created: false))
            })
        }
        if case .signedIn(let grant, _) = outcome {
            logger.info("pending identity linked after a provider sign-in", metadata: ["account": "\(grant.session.accountId)"])
        }
        return outcome
    }

    /// Links `record` to the account in the caller's transaction; false when it already was (nothing but its last use
    /// changes). Refusals throw (the transaction is rolled back).
    /// One owner per identity and one identity per provider per account hold by socialIdentity's unique keys: a
    /// concurrent link makes the insert throw `.uniqueViolation`, and the caller's retryingOnce runs the step again.
    /// An account without a verified address keeps the identity unproven, bound to `binding`'s browser (IdentityProof).
    func linkIdentity(_ record: IdentityRecord, to accountId: Int64, client: ClientInfo, binding: [UInt8]?,
                      in tx: Transaction) throws -> Bool {
        if let owner = try tx.socialIdentityOwner(provider: record.provider, subject: record.subject) {
            guard owner == accountId else {
                logger.info("link refused: identity linked to another account", metadata: ["account": "\(accountId)"])
                throw AccountError.refused("social_identity_taken")
            }
            try tx.refreshSocialIdentity(record, now: clock.now())
            return false
        }
        guard try !tx.hasSocialIdentity(provider: record.provider, accountId: accountId) else {
            throw AccountError.refused("social_already_linked")
        }
        try tx.insertSocialIdentity(record, accountId: accountId, now: clock.now(),
                                    unprovenBinding: try IdentityProof.unprovenBinding(for: accountId, browser: binding, in: tx))
        let primary = try EmailAddress.primaryAddress(of: accountId, in: tx)
        try audit.record(.identityLinked, accountId: accountId, email: primary, client: client, detail: record.provider, in: tx)
        if let primary { try mail.enqueue(.identityLinked(provider: record.provider), to: primary, in: tx) }
        logger.info("identity linked", metadata: ["account": "\(accountId)", "provider": "\(record.provider)"])
        return true
    }
}
