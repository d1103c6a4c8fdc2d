// Retention.swift: deletes audit rows and delivered mail older than their retention, in small batches.
//
// Options (RetentionPolicy, config section `retention`):
//   audit            audit rows older than this go (0: kept forever)
//   sent_mail        delivered mail sent longer ago than this goes (0: kept forever); unsent mail never
//   prune_interval   how often `serve` prunes (Pruner), after once at start
// Each batch of `batchSize` rows is a transaction of its own, so the one SQLite writer is never held for long and a
// pruning stopped half-way leaves whole batches deleted. Two processes pruning at once only share the work.
// Rules that read these tables look back less far than the shortest retention allowed (`shortestRetention`), and what
// must outlive the rows is kept beside them (`auditCount`: what pruning took of each event, added by the deleting
// statement since v14; `account.lastSignInAt`).
import Foundation

/// Prunes the tables that grow with use.
///
/// ```swift
/// let outcomes = try services.retention.prune()                  // the configured ages
/// let older = try services.retention.prune(olderThan: 90 * 86400)  // `frontdoor audit prune --older-than 90d`
/// ```
public struct Retention: Sendable {
    /// What is pruned.
    public enum Kind: String, Sendable, CaseIterable {
        /// The `audit` table, by `createdAt`.
        case audit
        /// Delivered rows of `mailQueue`, by `sentAt`.
        case sentMail = "sent_mail"
    }

    /// What one table's pruning did.
    public struct Outcome: Sendable, Equatable {
        public var kind: Kind
        /// Rows from before this time were deleted; nil: the table is kept forever (its retention is 0).
        public var cutoff: Date?
        public var deleted: Int
    }

    let database: AppDatabase
    public let policy: RetentionPolicy
    let clock: any Clock
    /// What ends sessions and failed sign-ins (Retention+Expiry).
    public let ending: Ending
    /// Rows deleted per transaction.
    public var batchSize = 1000

    public init(database: AppDatabase, policy: RetentionPolicy, clock: any Clock, ending: Ending = Ending()) {
        self.database = database
        self.policy = policy
        self.clock = clock
        self.ending = ending
    }

    /// How often `serve` prunes.
    public var interval: TimeInterval { policy.pruneInterval }

    /// Deletes every table's rows older than its retention, or than `age` for all of them when given, at most
    /// `maxBatches` batches per table (a CGI process does one). The caller keeps `age` at or above `shortestRetention`.
    @discardableResult
    public func prune(olderThan age: TimeInterval? = nil, maxBatches: Int = .max) throws -> [Outcome] {
        let now = clock.now()
        return try Kind.allCases.map { kind in
            let keep = age ?? policy.age(of: kind)
            guard keep > 0 else { return Outcome(kind: kind, cutoff: nil, deleted: 0) }
            let cutoff = now - keep
            return Outcome(kind: kind, cutoff: cutoff, deleted: try deleteInBatches(maxBatches: maxBatches) { tx in
                try tx.pruneBatch(kind, before: cutoff, limit: batchSize)
            })
        }
    }

    /// Runs `batch` (which deletes at most `batchSize` rows and says how many) one transaction at a time, until a batch
    /// comes back short or `maxBatches` ran; returns how many rows went.
    func deleteInBatches(maxBatches: Int, _ batch: (Transaction) throws -> Int) throws -> Int {
        var deleted = 0
        for _ in 0..<max(maxBatches, 0) {
            let count = try database.write(batch)
            deleted += count
            if count < batchSize { break }
        }
        return deleted
    }
}

extension RetentionPolicy {
    /// The configured age of `kind`'s rows (0: kept forever).
    public func age(of kind: Retention.Kind) -> TimeInterval {
        switch kind {
        case .audit: audit
        case .sentMail: sentMail
        }
    }
}

extension CoreConfiguration {
    /// The shortest retention `kind` may have: the longest look-back of a rule that reads its rows. The sign-up limit
    /// counts the audit trail's sign-ups within `signUp.window` (lockout counts its own `signInFailure` rows); the mail
    /// throttle looks for mail created within `mail.throttle`.
    public func shortestRetention(_ kind: Retention.Kind) -> TimeInterval {
        switch kind {
        case .audit: signUp.window
        case .sentMail: mail.throttle
        }
    }
}
