// MetricsPage.swift: `GET <base>/metrics`, Prometheus text format, for allow-listed addresses only.
// STUB: filled in by the metrics work (see issue 5).
import FastCGI

struct MetricsPage: Sendable {
    func show(_ context: RequestContext) throws -> Response { throw HTTPError.notFound }
}
