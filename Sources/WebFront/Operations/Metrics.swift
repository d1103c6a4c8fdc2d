// Metrics.swift: request counts and latency histograms per route, kept in memory by the worker threads.
//
// Options: none here (config section `metrics` decides who may read them; see MetricsPage).
// One lock per answered request, held for a few dictionary updates. Counters start at zero with the process,
// as Prometheus expects; figures that must survive restarts (sign-ins, lockouts, mail) come from the database.
import AccountCore
import Foundation
import Locking

/// What `GET <base>/metrics` reports about requests; shared by every worker thread.
public final class Metrics: @unchecked Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    /// One route's figures.
    struct Series: Equatable {
        var byStatus: [Int: Int] = [:]
        /// Non-cumulative counts per bucket (the last one is +Inf).
        var bucketCounts = [Int](repeating: 0, count: Metrics.buckets.count + 1)
        var sum = 0.0
        var count = 0
    }

    private let lock = Lock()
    private var series: [String: Series] = [:]

    public init() {}

    /// Counts one answered request: its route (the route table's key, or "unmatched"), status and duration.
    public func observe(route: String, status: Int, seconds: Double) {
        let bucket = Self.buckets.firstIndex { seconds <= $0 } ?? Self.buckets.count
        lock.withLock {
            series[route, default: Series()].byStatus[status, default: 0] += 1
            series[route]!.bucketCounts[bucket] += 1
            series[route]!.sum += seconds
            series[route]!.count += 1
        }
    }

    /// A copy of every route's figures.
    func snapshot() -> [String: Series] {
        lock.withLock { series }
    }

    /// The request families in Prometheus text format (requests by route and status, latency histograms by route,
    /// gate checks by result, and this build: frontdoor_build_info).
    func requestText() -> String {
        let all = snapshot()
        var out = "# HELP frontdoor_http_requests_total Requests answered, by route and status.\n# TYPE frontdoor_http_requests_total counter\n"
        for route in all.keys.sorted() {
            for (status, count) in all[route]!.byStatus.sorted(by: { $0.key < $1.key }) {
                out += "frontdoor_http_requests_total{route=\"\(Self.escape(route))\",status=\"\(status)\"} \(count)\n"
            }
        }
        out += "# HELP frontdoor_http_request_duration_seconds Time to answer, by route.\n# TYPE frontdoor_http_request_duration_seconds histogram\n"
        for route in all.keys.sorted() {
            let figures = all[route]!, label = "route=\"\(Self.escape(route))\""
            var cumulative = 0
            for (index, bound) in Self.buckets.enumerated() {
                cumulative += figures.bucketCounts[index]
                out += "frontdoor_http_request_duration_seconds_bucket{\(label),le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "frontdoor_http_request_duration_seconds_bucket{\(label),le=\"+Inf\"} \(figures.count)\n"
            out += "frontdoor_http_request_duration_seconds_sum{\(label)} \(figures.sum)\n"
            out += "frontdoor_http_request_duration_seconds_count{\(label)} \(figures.count)\n"
        }
        let gate = all["auth/check"]?.byStatus ?? [:]
        out += "# HELP frontdoor_gate_checks_total auth_request checks, by result.\n# TYPE frontdoor_gate_checks_total counter\n"
        for (result, status) in [("allowed", 200), ("unauthenticated", 401), ("forbidden", 403)] {
            out += "frontdoor_gate_checks_total{result=\"\(result)\"} \(gate[status] ?? 0)\n"
        }
        let build = BuildInfo.current
        out += "# HELP frontdoor_build_info The version and commit this process runs (always 1).\n# TYPE frontdoor_build_info gauge\n"
        out += "frontdoor_build_info{version=\"\(Self.escape(build.version))\",commit=\"\(Self.escape(build.commit))\"} 1\n"
        return out
    }

    /// A server database's figures: round trips, and the session cache's hits, misses, invalidations, resets and size.
    static func storageText(_ figures: StorageFigures) -> String {
        var out = "# HELP frontdoor_database_round_trips_total Statements sent to the database server.\n"
        out += "# TYPE frontdoor_database_round_trips_total counter\nfrontdoor_database_round_trips_total \(figures.roundTrips)\n"
        out += "# HELP frontdoor_database_retries_total Writes run again after a deadlock or serialization failure.\n"
        out += "# TYPE frontdoor_database_retries_total counter\nfrontdoor_database_retries_total \(figures.retries)\n"
        guard let cache = figures.sessionCache else { return out }
        for (name, value, help) in [("hits", cache.hits, "Session lookups answered from this host's cache."),
                                    ("misses", cache.misses, "Session lookups that went to the database."),
                                    ("invalidations", cache.invalidations, "Session changes heard (this host's or another's)."),
                                    ("resets", cache.resets, "Times the cache was emptied (listener connected or lost).")] {
            out += "# HELP frontdoor_session_cache_\(name)_total \(help)\n# TYPE frontdoor_session_cache_\(name)_total counter\n"
            out += "frontdoor_session_cache_\(name)_total \(value)\n"
        }
        out += "# HELP frontdoor_session_cache_entries Session lookups kept now.\n# TYPE frontdoor_session_cache_entries gauge\n"
        out += "frontdoor_session_cache_entries \(cache.entries)\n"
        out += "# HELP frontdoor_session_cache_listening 1 while the host hears session changes (LISTEN); 0: cache bypassed.\n"
        out += "# TYPE frontdoor_session_cache_listening gauge\nfrontdoor_session_cache_listening \(cache.listening ? 1 : 0)\n"
        return out
    }

    /// A label value with `\`, `"` and line breaks escaped.
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
