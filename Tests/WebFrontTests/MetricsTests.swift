// MetricsTests.swift: request counters and histograms, and who may read GET <base>/metrics.
import Testing
@testable import WebFront

struct MetricsTests {
    @Test func observationsBecomeCountersAndCumulativeHistograms() {
        let metrics = Metrics()
        metrics.observe(route: "sign_in", status: 200, seconds: 0.0004)
        metrics.observe(route: "sign_in", status: 200, seconds: 0.003)
        metrics.observe(route: "sign_in", status: 303, seconds: 9)
        metrics.observe(route: "auth/check", status: 401, seconds: 0.001)
        let text = metrics.requestText()
        #expect(text.contains(#"frontdoor_http_requests_total{route="sign_in",status="200"} 2"#))
        #expect(text.contains(#"frontdoor_http_requests_total{route="sign_in",status="303"} 1"#))
        #expect(text.contains(#"frontdoor_http_request_duration_seconds_bucket{route="sign_in",le="0.0005"} 1"#))
        #expect(text.contains(#"frontdoor_http_request_duration_seconds_bucket{route="sign_in",le="0.005"} 2"#))
        #expect(text.contains(#"frontdoor_http_request_duration_seconds_bucket{route="sign_in",le="5.0"} 2"#))
        #expect(text.contains(#"frontdoor_http_request_duration_seconds_bucket{route="sign_in",le="+Inf"} 3"#))
        #expect(text.contains(#"frontdoor_http_request_duration_seconds_count{route="sign_in"} 3"#))
        #expect(text.contains(#"frontdoor_gate_checks_total{result="unauthenticated"} 1"#))
        #expect(text.contains(#"frontdoor_gate_checks_total{result="allowed"} 0"#))
        #expect(Metrics.escape("a\"b\\c\nd") == #"a\"b\\c\nd"#)
    }

    func scrape(_ app: TestApp, remote: String, internal: Bool = false) -> Response {
        var params = ["REQUEST_METHOD": "GET", "REQUEST_URI": "/account/metrics", "REMOTE_ADDR": remote]
        if `internal` { params["FRONTDOOR_INTERNAL"] = "1" }
        return app.app.respond(to: Request(params: params))
    }

    @Test func theAppCountsItsRequestsAndServesThemToAllowedAddressesOnly() throws {
        let app = try makeApp { $0.confirmation.required = false }
        TestBrowser(app.app).get("/account/sign_in")
        TestBrowser(app.app).get("/account/nope")
        let page = scrape(app, remote: "127.0.0.1")
        #expect(page.status == 200 && page.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(page.text.contains(#"frontdoor_http_requests_total{route="sign_in",status="200"} 1"#))
        #expect(page.text.contains(#"frontdoor_http_requests_total{route="unmatched",status="404"} 1"#))
        #expect(page.text.contains("frontdoor_sign_ins_total 0\n") && page.text.contains("frontdoor_mail_queue_depth 0\n"))
        #expect(scrape(app, remote: "203.0.113.5").status == 404)
        #expect(scrape(app, remote: "203.0.113.5", internal: true).status == 200)
        let off = try makeApp { $0.metrics.enabled = false }
        #expect(scrape(off, remote: "127.0.0.1").status == 404)
    }
}
