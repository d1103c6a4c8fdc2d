// Metrics.swift: request counts and latency histograms per route, kept in memory by the worker threads.
// STUB: filled in by the metrics work (see issue 5).
import Foundation

/// What `GET <base>/metrics` reports about requests; shared by every worker thread.
public final class Metrics: Sendable {
    public init() {}

    /// Counts one answered request: its route (the route table's key, or "unmatched"), status and duration.
    public func observe(route: String, status: Int, seconds: Double) {}
}
