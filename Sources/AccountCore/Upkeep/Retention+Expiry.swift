// Retention+Expiry.swift: rows whose time is over go: sessions past their lifetime or idle too long, failed sign-ins
// older than every lockout window, address blocks that ended, residence requests, social flows and pending identities
// that expired, and second-step challenges that expired. The pruner does it (at start, every `retention.prune_interval`, one batch after a CGI answer), never a
// request: a purge inside a sign-in held the rows it deleted (and, on PostgreSQL, an audit counter) until the sign-in
// committed, so sign-ins of different kinds waited on each other and could deadlock, and a backlog larger than one
// statement timeout made every sign-in fail without ever healing.
//
// Options: none of its own. What ends a session (`session.idle_timeout`) and how far back lockout counts
// (`lockout.window`, `lockout.address_window`) are the callers' (`Ending`, from CoreConfiguration).
// Every reader already ignores ended rows (a session by `Sessions.isLive` and the lists' `liveSQL`, failures by their
// window, blocks, requests, flows and pending identities by their end time), so a row waiting for the pruner changes
// nothing anyone sees. Each batch is `batchSize` rows found through an index on the end time, in a transaction of its
// own; purged sessions tell no other host (PostgreSQL: the transaction sets `frontdoor.purging`, which the session
// trigger reads, migration v14): every cache already refuses an ended session.
import Foundation

extension Retention {
    /// What ends rows, as the configuration says.
    public struct Ending: Sendable, Equatable {
        /// A session not remembered ends when unused this long (`session.idle_timeout`).
        public var sessionIdleTimeout: TimeInterval
        /// Failed sign-ins older than this count for nothing (the longer of `lockout.window` and `lockout.address_window`).
        public var failureWindow: TimeInterval
        /// Finished back-channel logouts are kept this long (`OpenIDPolicy.logoutKept`).
        public var openIDLogoutKept: TimeInterval = OpenIDPolicy.default.logoutKept

        public init(sessionIdleTimeout: TimeInterval = SessionPolicy.default.idleTimeout,
                    failureWindow: TimeInterval = max(LockoutPolicy.default.window, LockoutPolicy.default.addressWindow)) {
            self.sessionIdleTimeout = sessionIdleTimeout
            self.failureWindow = failureWindow
        }

        public init(_ configuration: CoreConfiguration) {
            self.init(sessionIdleTimeout: configuration.session.idleTimeout,
                      failureWindow: max(configuration.lockout.window, configuration.lockout.addressWindow))
            openIDLogoutKept = configuration.openID.logoutKept
        }
    }

    /// What ends: one batch statement each.
    public enum Ended: String, Sendable, CaseIterable {
        /// Sessions and API tokens past `expiresAt`.
        case expiredSessions = "expired_sessions"
        /// Sessions not remembered, unused for `sessionIdleTimeout`.
        case idleSessions = "idle_sessions"
        /// `signInFailure` rows older than `failureWindow`.
        case signInFailures = "sign_in_failures"
        /// `addressBlock` rows whose block ended.
        case addressBlocks = "address_blocks"
        /// Residence requests past `expiresAt`, whatever their state.
        case residences
        /// Social flows past `expiresAt`.
        case socialFlows = "social_flows"
        /// Pending identities past `expiresAt`.
        case socialPending = "social_pending"
        /// Second-step challenges past `expiresAt` (used or not).
        case secondFactorChallenges = "second_factor_challenges"
        /// Passkey challenges past `expiresAt`, used or not.
        case passkeyChallenges = "passkey_challenges"
        /// OpenID authorization codes past `expiresAt`, used or not (a replay after that is an unknown code).
        case openIDCodes = "oidc_codes"
        /// OpenID access and refresh tokens past `expiresAt`, used or not.
        case openIDTokens = "oidc_tokens"
        /// OpenID grants past `expiresAt` (their session's end), and revoked ones (their tokens go by cascade).
        case openIDGrants = "oidc_grants"
        /// Device authorizations past `expiresAt`, whatever their state.
        case openIDDevices = "oidc_devices"
        /// Pushed authorization requests past `expiresAt`.
        case openIDPushedRequests = "oidc_pushed_requests"
        /// Back-channel logouts delivered or given up, created before `OpenIDPolicy.logoutKept` ago.
        case openIDLogoutDeliveries = "oidc_logout_deliveries"
    }

    /// Deletes every ended row, at most `maxBatches` batches per kind; returns how many of each went.
    @discardableResult
    public func deleteEnded(maxBatches: Int = .max) throws -> [Ended: Int] {
        let now = clock.now()
        var deleted: [Ended: Int] = [:]
        for kind in Ended.allCases {
            let cutoff = switch kind {
            case .idleSessions: now - ending.sessionIdleTimeout
            case .signInFailures: now - ending.failureWindow
            case .openIDLogoutDeliveries: now - ending.openIDLogoutKept
            default: now
            }
            deleted[kind] = try deleteInBatches(maxBatches: maxBatches) { tx in
                try tx.deleteEndedBatch(kind, at: cutoff, limit: batchSize)
            }
        }
        return deleted
    }
}

extension Transaction {
    /// Deletes one batch (at most `limit` rows, the longest ended first) of `kind` that ended at or before `cutoff`.
    func deleteEndedBatch(_ kind: Retention.Ended, at cutoff: Date, limit: Int) throws -> Int {
        switch kind {
        case .expiredSessions: try purgeExpiredSessions(endedBy: cutoff, limit: limit)
        case .idleSessions: try purgeIdleSessions(lastSeenBy: cutoff, limit: limit)
        case .signInFailures: try purgeSignInFailures(before: cutoff.timeIntervalSince1970, limit: limit)
        case .addressBlocks: try purgeAddressBlocks(endedBy: cutoff.timeIntervalSince1970, limit: limit)
        case .residences: try deleteExpiredResidences(now: cutoff.timeIntervalSince1970, limit: limit)
        case .socialFlows: try deleteExpiredSocialFlows(now: cutoff, limit: limit)
        case .socialPending: try deleteExpiredSocialPending(now: cutoff, limit: limit)
        case .secondFactorChallenges: try deleteExpiredSecondFactorChallenges(now: cutoff, limit: limit)
        case .passkeyChallenges: try deleteExpiredPasskeyChallenges(now: cutoff, limit: limit)
        case .openIDCodes, .openIDTokens, .openIDDevices, .openIDPushedRequests, .openIDLogoutDeliveries:
            try execute(Self.endedBatchSQL(kind), [cutoff.timeIntervalSince1970, limit])
        case .openIDGrants:
            try execute(Self.endedBatchSQL(kind), [cutoff.timeIntervalSince1970, limit])
                + execute("DELETE FROM openIDGrant WHERE id IN (SELECT id FROM openIDGrant WHERE revokedAt <= ? ORDER BY revokedAt LIMIT ?)",
                          [cutoff.timeIntervalSince1970, limit])
        }
    }

    /// The statement of one batch of `kind` (parameters: the cutoff, the batch size): the rows are found through an
    /// index on their end time, never by scanning the table.
    static func endedBatchSQL(_ kind: Retention.Ended) -> String {
        switch kind {
        case .expiredSessions:
            "DELETE FROM session WHERE digest IN (SELECT digest FROM session WHERE expiresAt <= ? ORDER BY expiresAt LIMIT ?)"
        case .idleSessions:
            "DELETE FROM session WHERE digest IN (SELECT digest FROM session WHERE NOT rememberMe AND lastSeenAt <= ? ORDER BY lastSeenAt LIMIT ?)"
        case .signInFailures:
            "DELETE FROM signInFailure WHERE id IN (SELECT id FROM signInFailure WHERE createdAt <= ? ORDER BY createdAt LIMIT ?)"
        case .addressBlocks:
            "DELETE FROM addressBlock WHERE remoteAddress IN (SELECT remoteAddress FROM addressBlock WHERE blockedUntil <= ? ORDER BY blockedUntil LIMIT ?)"
        case .residences:
            "DELETE FROM residence WHERE id IN (SELECT id FROM residence WHERE expiresAt <= ? ORDER BY expiresAt LIMIT ?)"
        case .socialFlows:
            "DELETE FROM socialFlow WHERE digest IN (SELECT digest FROM socialFlow WHERE expiresAt <= ? ORDER BY expiresAt LIMIT ?)"
        case .socialPending:
            "DELETE FROM socialPending WHERE digest IN (SELECT digest FROM socialPending WHERE expiresAt <= ? ORDER BY expiresAt LIMIT ?)"
        case .secondFactorChallenges:
            "DELETE FROM secondFactorChallenge WHERE digest IN (SELECT digest FROM secondFactorChallenge WHERE expiresAt <= ? ORDER BY expiresAt LIMIT ?)"
        case .passkeyChallenges:
            "DELETE FROM passkeyChallenge WHERE digest IN (SELECT digest FROM passkeyChallenge WHERE expiresAt <= ? ORDER BY expiresAt LIMIT ?)"
        case .openIDCodes:
            "DELETE FROM openIDCode WHERE digest IN (SELECT digest FROM openIDCode WHERE expiresAt <= ? ORDER BY expiresAt LIMIT ?)"
        case .openIDTokens:
            "DELETE FROM openIDToken WHERE digest IN (SELECT digest FROM openIDToken WHERE expiresAt <= ? ORDER BY expiresAt LIMIT ?)"
        case .openIDGrants:
            "DELETE FROM openIDGrant WHERE id IN (SELECT id FROM openIDGrant WHERE expiresAt <= ? ORDER BY expiresAt LIMIT ?)"
        case .openIDDevices:
            "DELETE FROM openIDDevice WHERE digest IN (SELECT digest FROM openIDDevice WHERE expiresAt <= ? ORDER BY expiresAt LIMIT ?)"
        case .openIDPushedRequests:
            "DELETE FROM openIDPushedRequest WHERE digest IN (SELECT digest FROM openIDPushedRequest WHERE expiresAt <= ? ORDER BY expiresAt LIMIT ?)"
        case .openIDLogoutDeliveries:
            """
            DELETE FROM openIDLogoutDelivery WHERE id IN (SELECT id FROM openIDLogoutDelivery WHERE createdAt <= ?
                AND (deliveredAt IS NOT NULL OR abandonedAt IS NOT NULL) ORDER BY createdAt LIMIT ?)
            """
        }
    }
}
