// GateTests.swift: the auth_request check: 401 with the sign-in location, 200 with identity headers, 403 by rule.
import AccountCore
import Testing
@testable import WebFront

struct GateTests {
    let signUpForm = ["email": "Ann@Example.com", "password": "correct horse", "password_confirmation": "correct horse"]

    func check(_ browser: TestBrowser, original: String? = nil, allow: String? = nil) -> Response {
        var params = ["REQUEST_METHOD": "GET", "REQUEST_URI": "/account/auth/check", "REMOTE_ADDR": "127.0.0.1"]
        if !browser.cookies.isEmpty { params["HTTP_COOKIE"] = browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if let original { params["HTTP_X_ORIGINAL_URL"] = original }
        if let allow { params["FRONTDOOR_ALLOW"] = allow }
        return browser.send(Request(params: params))
    }

    @Test func anonymousVisitorsGet401WithTheSignInURLCarryingTheOriginalOne() throws {
        let app = try makeApp { $0.publicURL = "https://login.example.com"; $0.redirect.allowedHosts = "app.example.com" }.app
        let browser = TestBrowser(app)
        let response = check(browser, original: "https://app.example.com/books?id=7")
        #expect(response.status == 401)
        #expect(response.header("Location") == "https://login.example.com/account/sign_in?rd=https%3A%2F%2Fapp.example.com%2Fbooks%3Fid%3D7")
        #expect(response.cookies(named: "frontdoor_csrf").isEmpty, "the gate sets no cookie")
        // A host nobody allowed is not carried: sign-in would refuse it anyway.
        #expect(check(browser, original: "https://evil.example/").header("Location") == "https://login.example.com/account/sign_in")
        #expect(check(browser).header("Location") == "https://login.example.com/account/sign_in")
    }

    /// Marks every address confirmed (the gate passes on and matches confirmed addresses only).
    func confirmAll(_ test: TestApp) throws {
        try test.services.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
    }

    @Test func aSignedInVisitorGets200WithWhoTheyAre() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_up", signUpForm).status == 303)
        let unconfirmed = check(browser)
        #expect(unconfirmed.status == 200 && unconfirmed.header("Remote-User") == "ann")
        #expect(unconfirmed.header("Remote-Email") == nil, "an address nobody proved")
        try confirmAll(test)
        let response = check(browser, original: "http://127.0.0.1:8080/app/")
        #expect(response.status == 200)
        #expect(response.header("Remote-User") == "ann" && response.header("Remote-Email") == "Ann@Example.com")
        #expect(response.header("Remote-Name") == "ann", "no display name: the username")
        #expect(response.body.isEmpty)
    }

    @Test func aRuleRefusesSignedInPeopleItDoesNotList() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let app = test.app
        let browser = TestBrowser(app)
        browser.post("/account/sign_up", signUpForm)
        #expect(check(browser, allow: "ann@example.com").status == 403, "an address nobody proved meets no rule")
        #expect(check(browser, allow: "").status == 200, "an empty rule still lets everyone signed in through")
        try confirmAll(test)
        #expect(check(browser, allow: "bob@example.com, @example.org").status == 403)
        #expect(check(browser, allow: "bob@example.com ann@example.com").status == 200)
        #expect(check(browser, allow: "@EXAMPLE.com").status == 200)
        // Anonymous visitors still get 401 (sign in first), not 403.
        #expect(check(TestBrowser(app), allow: "@example.com").status == 401)
    }

    @Test func theSessionCookieCoversTheWholeHostAndTheConfiguredDomain() throws {
        let app = try makeApp { $0.confirmation.required = false; $0.session.cookieDomain = "example.com" }.app
        let response = TestBrowser(app).post("/account/sign_up", signUpForm)
        let cookie = try #require(response.cookies(named: "frontdoor_session").first)
        #expect(cookie.contains("Path=/;") && cookie.contains("Domain=example.com"))
        let csrf = try #require(TestBrowser(app).get("/account/sign_in").cookies(named: "frontdoor_csrf").first)
        #expect(csrf.contains("Path=/account") && !csrf.contains("Domain="), "other cookies stay under the base path")
    }

    @Test func theClientAddressComesFromXForwardedForOnlyBehindATrustedProxy() throws {
        let trusted = try makeApp { $0.client.trustedProxies = "127.0.0.1, 10.0.0.2" }
        func address(_ app: TestApp, remote: String, forwarded: String?) -> String {
            var params = ["REQUEST_METHOD": "GET", "REQUEST_URI": "/account/sign_in", "REMOTE_ADDR": remote]
            if let forwarded { params["HTTP_X_FORWARDED_FOR"] = forwarded }
            return RequestContext(request: Request(params: params), site: app.app.site, core: app.services).clientAddress
        }
        #expect(address(trusted, remote: "127.0.0.1", forwarded: "203.0.113.9") == "203.0.113.9")
        #expect(address(trusted, remote: "127.0.0.1", forwarded: "1.1.1.1, 203.0.113.9, 10.0.0.2") == "203.0.113.9",
                "the nearest untrusted hop, not what the client wrote first")
        #expect(address(trusted, remote: "198.51.100.4", forwarded: "203.0.113.9") == "198.51.100.4", "an untrusted sender's header is ignored")
        #expect(address(trusted, remote: "127.0.0.1", forwarded: nil) == "127.0.0.1")
        let plain = try makeApp()
        #expect(address(plain, remote: "127.0.0.1", forwarded: "203.0.113.9") == "127.0.0.1")

        // Ranges, and every spelling of an address, are one address (issue 22).
        let ranges = try makeApp { $0.client.trustedProxies = "10.0.0.0/8, 2001:db8:1::/48" }
        #expect(address(ranges, remote: "10.200.3.4", forwarded: "203.0.113.9") == "203.0.113.9")
        #expect(address(ranges, remote: "::ffff:10.200.3.4", forwarded: "203.0.113.9") == "203.0.113.9", "IPv4-mapped is IPv4")
        #expect(address(ranges, remote: "2001:DB8:1:ff::7", forwarded: "203.0.113.9, ::ffff:10.9.9.9") == "203.0.113.9")
        #expect(address(ranges, remote: "11.0.0.1", forwarded: "203.0.113.9") == "11.0.0.1")
        #expect(address(ranges, remote: "::ffff:198.51.100.4", forwarded: nil) == "198.51.100.4", "reported in canonical form")
        #expect(address(ranges, remote: "10.0.0.1", forwarded: "2001:DB8:0:0::9") == "2001:db8::9")
    }
}
