// Pruner.swift: the background thread of `serve` that prunes old rows (see Retention), deletes rows whose time is over
// (Retention+Expiry: sessions, failed sign-ins, blocks, residences, social flows) and expires what was never confirmed
// (Retention+Unconfirmed) at start and then every `retention.prune_interval`; a CGI process runs one batch of each after
// its answer.
//
// One per process, whatever the number of worker threads; several processes on one database each run their own,
// harmlessly: a batch deletes what is still there, and the work is shared.
import Foundation
import Logging

/// Prunes on its own thread until the process ends.
public final class Pruner: Sendable {
    private let retention: Retention
    private let logger: Logger

    public init(retention: Retention, logger: Logger) {
        self.retention = retention
        self.logger = logger
    }

    /// Starts the pruning thread: a pass now, then one every interval.
    public func start() {
        PeriodicThread.start(name: "frontdoor-prune", every: retention.interval) { [self] in pruneOnce() }
    }

    /// One pass (at most `maxBatches` per table); what went is logged, errors are logged, never thrown (the next
    /// pass tries again). Returns the outcomes, nil when it failed.
    @discardableResult
    public func pruneOnce(maxBatches: Int = .max) -> [Retention.Outcome]? {
        do {
            let outcomes = try retention.prune(maxBatches: maxBatches)
            let ended = try retention.deleteEnded(maxBatches: maxBatches)
            let expired = try retention.expireUnconfirmed(maxBatches: maxBatches)
            if outcomes.contains(where: { $0.deleted > 0 }) || ended.values.contains(where: { $0 > 0 }) || expired.accounts > 0
                || expired.addresses > 0 {
                var metadata: Logger.Metadata = [:]
                for outcome in outcomes { metadata[outcome.kind.rawValue] = "\(outcome.deleted)" }
                for (kind, deleted) in ended where deleted > 0 { metadata[kind.rawValue] = "\(deleted)" }
                metadata["unconfirmed_accounts"] = "\(expired.accounts)"
                metadata["unconfirmed_addresses"] = "\(expired.addresses)"
                logger.info("pruned old rows", metadata: metadata)
            }
            return outcomes
        } catch {
            logger.error("pruning failed", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
