// OpenIDGrants+Logout.swift: the back-channel logout queue (OpenID Connect Back-Channel Logout 1.0). Ending a Frontdoor
// session queues one delivery per client (with a back-channel URI) and session, in the transaction that ends it
// (SessionStore → endOpenIDGrants); the web layer's worker sends the logout tokens.
//
// Options: `logoutAttempts` (give up after this many failures, audited `oidc_logout_abandoned`), `logoutKept` (how long
// finished rows stay before the pruner deletes them). A worker claims what is due for a minute (`lease`), so two hosts
// never send the same delivery at once; one that dies mid-send leaves the row due again when the lease ends.
import Foundation

extension OpenIDGrants {
    /// How long a claimed delivery is held by the worker that took it.
    public static let deliveryLease: TimeInterval = 60

    /// How long to wait before the next attempt after `attempts` failed ones: 30 s doubling, at most an hour
    /// (30 s, 1 min, 2 min … 1 h); the worker passes `now + logoutRetryDelay(after: delivery.attempts + 1)` as `retryAt`.
    public static func logoutRetryDelay(after attempts: Int) -> TimeInterval {
        min(30 * pow(2, Double(max(attempts, 1) - 1)), 3600)
    }

    /// Claims up to `limit` deliveries that are due.
    public func dueLogoutDeliveries(limit: Int) throws -> [OpenIDLogoutDelivery] {
        let now = clock.now()
        return try database.write { tx in try tx.claimOpenIDLogoutDeliveries(now: now, lease: Self.deliveryLease, limit: limit) }
    }

    /// The client answered 200.
    public func logoutDelivered(_ id: Int64) throws {
        let now = clock.now()
        try database.write { tx in try tx.markOpenIDLogoutDelivered(id: id, at: now) }
    }

    /// The attempt failed: try again at `retryAt`, or give up after `policy.logoutAttempts` attempts (audited).
    public func logoutFailed(_ id: Int64, retryAt: Date) throws {
        let now = clock.now()
        try database.write { tx in
            guard let abandoned = try tx.failOpenIDLogoutDelivery(id: id, retryAt: retryAt, now: now, maxAttempts: policy.logoutAttempts) else { return }
            try audit.record(.openIDLogoutAbandoned, accountId: abandoned.accountID, email: nil, client: ClientInfo(),
                             detail: "client \(abandoned.clientID) after \(abandoned.attempts) attempts", in: tx)
            logger.warning("back-channel logout given up", metadata: ["client": "\(abandoned.clientID)", "attempts": "\(abandoned.attempts)"])
        }
    }
}
