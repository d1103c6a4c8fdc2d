// BrowserIDNativePageTests.swift: the native bridge's page (browserid/native), in-process: origins accepted and
// refused (none while browserid.allowed_origins is empty), signing in first, choosing an address, the callback's
// assertion checked by the verifier, and the per-session limit on assertions.
import AccountCore
import BrowserID
import Foundation
import Testing
@testable import WebFront

struct BrowserIDNativePageTests {
    static let page = "/account/browserid/native?origin="
    /// The apps' origins these tests list in `browserid.allowed_origins`.
    static let listed = "http://my.app, http://my.app:3000, https://my.app, http://127.0.0.1:8000"

    func signedIn(configure: (inout AppConfiguration) -> Void = { _ in }) throws -> (TestApp, TestBrowser) {
        try signedInBrowserIDApp { $0.browserID.allowedOrigins = Self.listed; configure(&$0) }
    }

    func listedApp(configure: (inout AppConfiguration) -> Void = { _ in }) throws -> TestApp {
        try makeApp(browserID: true) { $0.browserID.allowedOrigins = Self.listed; configure(&$0) }
    }

    /// The callback URL the done page navigates to (its data-callback attribute; mustache escapes only <>&"').
    func callback(in response: Response) throws -> String {
        let match = try #require(response.text.firstMatch(of: /data-callback="([^"]*)"/))
        return String(match.1).replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func withNoOriginListedTheBridgeIsNotThere() throws {
        for listed in ["", " , ", "my.app"] {   // empty, or nothing in it that is an origin
            let (_, browser) = try signedInBrowserIDApp { $0.browserID.allowedOrigins = listed }
            for origin in ["http://my.app", "https%3A%2F%2Fother.example", "ftp://my.app", ""] {
                let shown = browser.get(Self.page + origin, headers: ["Sec-Fetch-Site": "none"])
                #expect(shown.status == 404, "\(listed): \(origin)")
                #expect(!shown.text.contains("browserid-continue"))
            }
            #expect(browser.get("/account/browserid/native?data=http://my.app/").status == 404)
            let posted = browser.post("/account/browserid/native", ["email": "bea@example.com", "origin": "http://my.app"])
            #expect(posted.status == 404, "\(listed)")
            #expect(!posted.text.contains("browserid-origin://didSucceed"))
        }
    }

    @Test func signedOutThePageAsksToSignInAndComesBackHere() throws {
        let test = try listedApp()
        let response = TestBrowser(test.app).get(Self.page + "http%3A%2F%2Fmy.app%2F")
        #expect(response.status == 200)
        #expect(response.text.contains("<strong id=\"rp-origin\">http://my.app</strong>"))
        #expect(response.text.contains("id=\"browserid-sign-in\""))
        #expect(response.text.contains("name=\"rd\" value=\"/account/browserid/native?origin=http%3A%2F%2Fmy.app\""))
        #expect(response.text.contains("href=\"browserid-origin://didCancel\""))
        #expect(!response.text.contains("browserid-choose"))
        #expect(response.header("X-Frame-Options") == "DENY")
        #expect(response.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        #expect(response.header("Cache-Control") == "no-store")
    }

    @Test func onlyHTTPOriginsAreAccepted() throws {
        let browser = TestBrowser(try listedApp().app)
        for good in ["http://my.app", "https%3A%2F%2FMy.App%3A443%2F", "http%253A%252F%252Fmy.app", "http://127.0.0.1:8000/"] {
            #expect(browser.get(Self.page + good).status == 200, "\(good)")
        }
        #expect(browser.get("/account/browserid/native?data=http://my.app/").status == 200, "the seed shim's name for it")
        for bad in ["", "my.app", "javascript:alert(1)", "ftp://my.app", "http://my.app/path", "http://my.app/?q=1",
                    "http://ann@my.app", "browserid-origin://x", "http://"] {
            let response = browser.get(Self.page + FormData.encode(bad))
            #expect(response.status == 400, "\(bad)")
        }
        #expect(browser.get("/account/browserid/native").status == 400)
        #expect(browser.get(Self.page + "ftp%3A%2F%2Fmy.app").text.contains("does not name a website"))
    }

    @Test func theConfiguredOriginsAloneAndNoNavigationFromAnotherSite() throws {
        let test = try makeApp(browserID: true) { $0.browserID.allowedOrigins = "https://my.app, http://other.app:8000" }
        let browser = TestBrowser(test.app)
        #expect(browser.get(Self.page + "https://my.app/").status == 200)
        #expect(browser.get(Self.page + "http://other.app:8000").status == 200)
        let refused = browser.get(Self.page + "https://evil.app")
        #expect(refused.status == 404)
        #expect(refused.text.contains("may not ask for a sign-in here"))
        #expect(browser.get(Self.page + "http://my.app").status == 404, "another scheme is another origin")
        #expect(browser.get(Self.page + "https://my.app", headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
        #expect(browser.get(Self.page + "https://my.app", headers: ["Sec-Fetch-Site": "none"]).status == 200)
    }

    @Test func confirmingGivesAnAssertionForTheOriginThatTheVerifierAccepts() throws {
        let (test, browser) = try signedIn()
        let form = browser.get(Self.page + "http%3A%2F%2Fmy.app%3A3000%2F")
        #expect(form.text.contains("value=\"Bea@Example.com\" checked"))
        #expect(form.text.contains("name=\"origin\" value=\"http://my.app:3000\""))
        let done = browser.post("/account/browserid/native", ["email": "bea@example.com", "origin": "http://my.app:3000"])
        #expect(done.status == 200)
        #expect(done.text.contains("id=\"browserid-return\""))
        let url = try #require(URLComponents(string: try callback(in: done)))
        #expect(url.scheme == "browserid-origin" && url.host == "didSucceedWithAssertion")
        let assertion = try #require(url.queryItems?.first { $0.name == "data" }?.value)
        let certificate = try IdentityCertificate(token: String(try #require(assertion.split(separator: "~").first)))
        #expect(certificate.email == "Bea@Example.com" && certificate.issuer == "127.0.0.1:8080")
        #expect(certificate.expiresAt.timeIntervalSince(try #require(certificate.issuedAt)) == 3600, "the ephemeral lifetime")

        let verifier = try #require(test.app.site.browserID?.verifier)
        #expect(verifier.verify(assertion: assertion, audience: "http://my.app:3000", now: test.clock.now())
                == .okay(email: "Bea@Example.com", audience: "http://my.app:3000",
                         expires: Int64(test.clock.now().addingTimeInterval(120).timeIntervalSince1970 * 1000), issuer: "127.0.0.1:8080"))
        guard case .failure = verifier.verify(assertion: assertion, audience: "http://my.app", now: test.clock.now()) else {
            Issue.record("another port is another audience"); return
        }
        test.clock.advance(by: 121)
        #expect(verifier.verify(assertion: assertion, audience: "http://my.app:3000", now: test.clock.now())
                == .failure(reason: "assertion has expired"))
    }

    @Test func onlyTheirOwnConfirmedAddressesAndOnlyWithTheToken() throws {
        let (_, browser) = try signedIn()
        let foreign = browser.post("/account/browserid/native", ["email": "someone@example.com", "origin": "http://my.app"])
        #expect(foreign.status == 422)
        #expect(foreign.text.contains("Choose one of your confirmed addresses."))
        #expect(!foreign.text.contains("browserid-origin://didSucceed"))
        let forged = browser.post("/account/browserid/native", ["email": "bea@example.com", "origin": "http://my.app", "csrf_token": "forged"])
        #expect(forged.status == 403)
        #expect(browser.post("/account/browserid/native", ["email": "bea@example.com", "origin": "ftp://my.app"]).status == 400)
    }

    @Test func aSessionGetsAFewAssertionsThenA429() throws {
        let (test, browser) = try signedIn()
        let fields = ["email": "bea@example.com", "origin": "http://my.app"]
        for _ in 0..<5 {
            #expect(browser.post("/account/browserid/native", fields).text.contains("browserid-origin://didSucceedWithAssertion"))
        }
        test.clock.advance(by: 60)
        let refused = browser.post("/account/browserid/native", fields)
        #expect(refused.status == 429)
        #expect(refused.text.contains("Too many sign-ins for apps"))
        #expect(!refused.text.contains("browserid-origin://didSucceed"))
        #expect(refused.header("Retry-After") == "540")
        test.clock.advance(by: 540)
        #expect(browser.post("/account/browserid/native", fields).status == 200, "the window moved on")
    }

    @Test func withoutAConfirmedAddressThereIsNothingToChoose() throws {
        let test = try listedApp { $0.confirmation.required = false }
        let browser = TestBrowser(test.app)
        browser.post("/account/sign_up", ["email": "cy@example.com", "password": "correct horse", "password_confirmation": "correct horse"])
        let page = browser.get(Self.page + "http://my.app")
        #expect(page.status == 200)
        #expect(page.text.contains("no confirmed email address yet"))
        #expect(!page.text.contains("browserid-choose"))
    }
}
