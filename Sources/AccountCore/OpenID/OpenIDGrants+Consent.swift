// OpenIDGrants+Consent.swift: what a person let each client see (the consent page, settings → Connected apps).
//
// Options: none. Consent is per account and client; it covers the union of the scopes ever agreed to, so asking again
// for fewer or the same scopes needs no new page. Disconnecting forgets the consent and ends the client's grants
// (queueing their back-channel logouts) in one transaction. Both are audited.
import Foundation

extension OpenIDGrants {
    /// Whether the person agreed to `clientID` seeing `scopes` (all of them).
    public func hasConsent(accountID: Int64, clientID: String, scopes: [String]) throws -> Bool {
        guard let agreed = try database.read({ tx in try tx.openIDConsentScopes(accountId: accountID, clientId: clientID) }) else { return false }
        return Set(scopes).isSubset(of: agreed)
    }

    /// Records the person's yes to `scopes` (added to what they agreed to before).
    public func grantConsent(accountID: Int64, clientID: String, scopes: [String], client: ClientInfo = ClientInfo()) throws {
        let now = clock.now()
        try database.write { tx in
            let before = try tx.openIDConsentScopes(accountId: accountID, clientId: clientID) ?? []
            let all = Array(Set(before).union(scopes)).sorted()
            try tx.upsertOpenIDConsent(accountId: accountID, clientId: clientID, scopes: all, at: now)
            try audit.record(.openIDConsentGiven, accountId: accountID, email: nil, client: client,
                             detail: "client \(clientID): \(OpenIDScopes.join(all))", in: tx)
        }
    }

    /// The clients the person let in (consents, and first-party clients holding live grants).
    public func connectedApps(accountID: Int64) throws -> [OpenIDConnectedApp] {
        let now = clock.now()
        return try database.read { tx in try tx.openIDConnectedApps(accountId: accountID, now: now) }
    }

    /// Forgets the consent and ends every grant of the client for the account; audited when there was something to end.
    public func disconnect(accountID: Int64, clientID: String, client: ClientInfo = ClientInfo()) throws {
        let now = clock.now()
        try database.write { tx in
            let forgot = try tx.deleteOpenIDConsent(accountId: accountID, clientId: clientID)
            try tx.endOpenIDGrants(where: "accountId = ? AND clientId = ?", [accountID, clientID], at: now)
            if forgot {
                try audit.record(.openIDConsentWithdrawn, accountId: accountID, email: nil, client: client, detail: "client \(clientID)", in: tx)
            }
        }
    }
}
