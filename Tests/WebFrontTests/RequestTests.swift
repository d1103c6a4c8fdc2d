// RequestTests.swift: WebFront's request made from CGI params: the values nginx sets per location reach pages only as
// the named members `gateRule` and `isInternal`, never as headers, and a client's look-alike headers set neither.
import Testing
@testable import WebFront

struct RequestTests {
    @Test func theGateRuleAndTheInternalMarkArriveAsNamedMembers() {
        let request = Request(params: ["REQUEST_METHOD": "get", "REQUEST_URI": "/account/auth/check?a=1", "HTTPS": "on",
                                       "FRONTDOOR_ALLOW": "@example.org", "FRONTDOOR_INTERNAL": "1", "HTTP_COOKIE": "a=1"])
        #expect(request.gateRule == "@example.org")
        #expect(request.isInternal)
        #expect(request.header("FRONTDOOR_ALLOW") == nil && request.header("Frontdoor-Internal") == nil)
        #expect(request.method == "GET" && request.path == "/account/auth/check" && request.query == "a=1" && request.isHTTPS)
        #expect(request.header("cookie") == "a=1")
        let plain = Request(params: ["REQUEST_METHOD": "GET", "REQUEST_URI": "/"])
        #expect(plain.gateRule == nil && !plain.isInternal)
    }

    @Test func onlyTheValue1MarksARequestInternal() {
        for value in ["0", "", "yes", "true", " 1"] {
            #expect(!Request(params: ["FRONTDOOR_INTERNAL": value]).isInternal, "FRONTDOOR_INTERNAL=\(value.debugDescription)")
        }
    }

    @Test func aClientsHeadersOfTheSameNamesSetNeither() {
        let request = Request(params: ["HTTP_FRONTDOOR_ALLOW": "everyone", "HTTP_FRONTDOOR_INTERNAL": "1"])
        #expect(request.gateRule == nil && !request.isInternal)
        #expect(request.header("Frontdoor-Allow") == "everyone")
    }

    @Test func pagesReadThemThroughTheMembers() throws {
        let app = try makeApp { $0.confirmation.required = false }.app
        let browser = TestBrowser(app)
        browser.post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse", "password_confirmation": "correct horse"])
        let cookie = browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        func gate(_ extra: [String: String]) -> Int {
            let base = ["REQUEST_METHOD": "GET", "REQUEST_URI": "/account/auth/check", "REMOTE_ADDR": "127.0.0.1", "HTTP_COOKIE": cookie]
            return app.respond(to: Request(params: base.merging(extra) { $1 })).status
        }
        #expect(gate(["FRONTDOOR_ALLOW": "bob@example.com"]) == 403)
        #expect(gate(["HTTP_FRONTDOOR_ALLOW": "bob@example.com"]) == 200, "a client's header is no rule")
        func metrics(_ extra: [String: String]) -> Int {
            let base = ["REQUEST_METHOD": "GET", "REQUEST_URI": "/account/metrics", "REMOTE_ADDR": "203.0.113.5"]
            return app.respond(to: Request(params: base.merging(extra) { $1 })).status
        }
        #expect(metrics(["FRONTDOOR_INTERNAL": "1"]) == 200)
        #expect(metrics(["HTTP_FRONTDOOR_INTERNAL": "1"]) == 404, "a client's header is no internal mark")
    }
}
