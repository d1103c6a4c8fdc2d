// BrowserIDPagesTests.swift: the support document, certificate signing, /verify and key rotation, in-process.
import AccountCore
import BrowserID
import Foundation
import Testing
@testable import WebFront

/// An app with BrowserID (and `configure`) and a browser signed in as a confirmed bea@example.com (the dialog's and the
/// native bridge's tests).
func signedInBrowserIDApp(configure: (inout AppConfiguration) -> Void = { _ in }) throws -> (TestApp, TestBrowser) {
    let test = try makeApp(browserID: true, configure: configure)
    let browser = TestBrowser(test.app)
    browser.post("/account/sign_up", ["email": "Bea@Example.com", "password": "correct horse", "password_confirmation": "correct horse"])
    let link = try #require(try test.link(containing: "/account/confirm?token="))
    browser.get(String(link.dropFirst("http://127.0.0.1:8080".count)))
    #expect(browser.post("/account/sign_in", ["email": "bea@example.com", "password": "correct horse"]).status == 303)
    return (test, browser)
}

struct BrowserIDPagesTests {
    func signedIn() throws -> (TestApp, TestBrowser) { try signedInBrowserIDApp() }

    func json(_ response: Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    func certify(_ browser: TestBrowser, email: String = "bea@example.com", key: PublicKey, ephemeral: Bool = false) -> Response {
        browser.post("/account/browserid/certify", ["email": email, "pubkey": key.jsonText, "ephemeral": ephemeral ? "true" : "false"])
    }

    func verify(_ browser: TestBrowser, _ fields: [String: String]) -> Response {
        browser.post("/account/verify", fields, csrf: false)
    }

    @Test func theSupportDocumentPublishesTheRootKey() throws {
        let test = try makeApp(browserID: true)
        let response = TestBrowser(test.app).get("/.well-known/browserid")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Cache-Control") == "public, max-age=300")
        guard case let .support(key, keys, authentication, provisioning) = try SupportDocument(data: response.body) else {
            Issue.record("not a support document"); return
        }
        #expect(key.algorithm == "RS256" && keys == [key])
        #expect(authentication == "/account/browserid/authenticate" && provisioning == "/account/browserid/provision")
    }

    @Test func aCertificateIsSignedForAVerifiedAddressOnly() throws {
        let (test, browser) = try signedIn()
        let user = try RSASigningKey.generate()
        let response = certify(browser, email: "BEA@example.com", key: user.publicKey)
        #expect(response.status == 200)
        let body = try json(response)
        let certificate = try IdentityCertificate(token: try #require(body["certificate"] as? String))
        #expect(certificate.email == "Bea@Example.com" && certificate.issuer == "127.0.0.1:8080")
        #expect(certificate.expiresAt.timeIntervalSince(try #require(certificate.issuedAt)) == 86400)
        #expect(certificate.publicKey == user.publicKey)
        #expect(body["server_time"] as? Int64 == Int64(test.clock.now().timeIntervalSince1970 * 1000))

        let ephemeral = try json(certify(browser, key: user.publicKey, ephemeral: true))
        let short = try IdentityCertificate(token: try #require(ephemeral["certificate"] as? String))
        #expect(short.expiresAt.timeIntervalSince(try #require(short.issuedAt)) == 3600)

        #expect(certify(browser, email: "someone@example.com", key: user.publicKey).status == 403)
        #expect(browser.post("/account/browserid/certify", ["email": "bea@example.com", "pubkey": "{\"algorithm\":\"RS\",\"n\":\"15\",\"e\":\"3\"}"]).status == 400)
        #expect(browser.post("/account/browserid/certify", ["email": "bea@example.com"]).status == 400)
        #expect(browser.post("/account/browserid/certify", ["email": "bea@example.com", "pubkey": user.publicKey.jsonText,
                                                            "csrf_token": "forged"]).status == 403)
        #expect(TestBrowser(test.app).post("/account/browserid/certify", ["email": "bea@example.com", "pubkey": user.publicKey.jsonText],
                                           csrf: false).status == 401)
    }

    @Test func verifyAcceptsAnAssertionFromACertifiedKeyForItsAudienceOnly() throws {
        let (test, browser) = try signedIn()
        let user = try RSASigningKey.generate()
        let certificate = try #require(try json(certify(browser, key: user.publicKey))["certificate"] as? String)
        let expires = test.clock.now().addingTimeInterval(120)
        let assertion = IdentityAssertion.bundle(certificates: [certificate],
                                                 assertion: try IdentityAssertion.sign(audience: "https://rp.example", expiresAt: expires, key: user))
        let okay = try json(verify(browser, ["assertion": assertion, "audience": "https://rp.example:443"]))
        #expect(okay["status"] as? String == "okay")
        #expect(okay["email"] as? String == "Bea@Example.com")
        #expect(okay["audience"] as? String == "https://rp.example:443", "the audience is echoed as given")
        #expect(okay["issuer"] as? String == "127.0.0.1:8080")
        #expect(okay["expires"] as? Int64 == Int64(expires.timeIntervalSince1970 * 1000))

        let other = try json(verify(browser, ["assertion": assertion, "audience": "https://evil.example"]))
        #expect(other["status"] as? String == "failure")
        #expect((other["reason"] as? String)?.hasPrefix("audience mismatch") == true)

        test.clock.advance(by: 121)
        let late = try json(verify(browser, ["assertion": assertion, "audience": "https://rp.example"]))
        #expect(late["reason"] as? String == "assertion has expired")
    }

    @Test func verifyRefusesBadRequestsWithTheirStatus() throws {
        let test = try makeApp(browserID: true)
        let browser = TestBrowser(test.app)
        let get = browser.get("/account/verify")
        #expect(get.status == 405 && get.header("Allow") == "POST")
        #expect(verify(browser, ["audience": "https://rp.example"]).status == 400)
        var params = ["REQUEST_METHOD": "POST", "REQUEST_URI": "/account/verify", "CONTENT_TYPE": "text/plain", "CONTENT_LENGTH": "3"]
        #expect(browser.send(Request(params: params, body: Array("a=b".utf8))).status == 415)
        params["CONTENT_TYPE"] = "application/json"
        let body = Array(#"{"assertion": "x~y", "audience": "https://rp.example"}"#.utf8)
        params["CONTENT_LENGTH"] = String(body.count)
        let answer = browser.send(Request(params: params, body: body))
        #expect(answer.status == 200)
        #expect(try json(answer)["status"] as? String == "failure")
    }

    @Test func certificatesSignedBeforeARotationStillVerify() throws {
        let (test, browser) = try signedIn()
        let user = try RSASigningKey.generate()
        let before = try #require(try json(certify(browser, key: user.publicKey))["certificate"] as? String)
        let provider = try #require(test.app.site.browserID?.provider)
        try provider.rotate()
        let after = try #require(try json(certify(browser, key: user.publicKey))["certificate"] as? String)
        #expect(try provider.publishedKeys().count == 2)
        for certificate in [before, after] {
            let assertion = IdentityAssertion.bundle(certificates: [certificate], assertion: try IdentityAssertion.sign(
                audience: "https://rp.example", expiresAt: test.clock.now().addingTimeInterval(120), key: user))
            #expect(try json(verify(browser, ["assertion": assertion, "audience": "https://rp.example"]))["status"] as? String == "okay")
        }
    }

    @Test func onlyTheProvisioningPageMayBeFramedAndOnlyByFrontdoorItself() throws {
        let (test, browser) = try signedIn()
        let provision = browser.get("/account/browserid/provision")
        #expect(provision.status == 200)
        #expect(provision.header("X-Frame-Options") == nil)
        #expect(provision.header("Content-Security-Policy")?.contains("frame-ancestors 'self';") == true)
        #expect(provision.text.contains("data-signed-in=\"true\" data-parents=\"\""))
        #expect(!provision.text.contains("bea@example.com"), "the page says whether someone is signed in, not who")
        #expect(TestBrowser(test.app).get("/account/browserid/provision").text.contains("data-signed-in=\"false\""))
        #expect(browser.get("/account/browserid/communication_iframe").status == 404)
        let dialog = browser.get("/account/browserid/sign_in")
        #expect(dialog.status == 200)
        #expect(dialog.header("X-Frame-Options") == "DENY")
        #expect(dialog.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        #expect(browser.get("/account/browserid/sign_in?return_to=javascript:alert(1)").status == 400)
        #expect(browser.get("/account/browserid/authenticate").header("Location") == "/account/sign_in")
    }

    @Test func allowedSitesMayFrameTheProvisioningPageAndUseThePopup() throws {
        let test = try makeApp(browserID: true) {
            $0.browserID.allowedOrigins = "https://App.Example:443, http://localhost:3000, https://bad.example;x, ftp://f.example"
        }
        let browser = TestBrowser(test.app)
        let provision = browser.get("/account/browserid/provision")
        #expect(provision.header("Content-Security-Policy")?.contains("frame-ancestors 'self' https://app.example http://localhost:3000;") == true)
        #expect(provision.header("X-Frame-Options") == nil)
        #expect(provision.text.contains("data-parents=\"https://app.example http://localhost:3000\""))
        #expect(browser.get("/account/browserid/sign_in").text.contains("data-allowed-origins=\"https://app.example http://localhost:3000\""))
    }

    @Test func theRedirectFlowCanBeLimitedToKnownSites() throws {
        let test = try makeApp(browserID: true) { $0.browserID.allowedOrigins = "https://app.example" }
        let browser = TestBrowser(test.app)
        #expect(browser.get("/account/browserid/sign_in?return_to=https%3A%2F%2Fapp.example%3A443%2Fback").status == 200)
        #expect(browser.get("/account/browserid/sign_in?return_to=https%3A%2F%2Fevil.example%2F").status == 400)
    }

    @Test func listedOriginsAreComparedAsOriginsAndAnEntryThatIsNoneAllowsNobody() throws {
        // An entry with the default port or in capitals names the same site the dialog sees
        let written = try makeApp(browserID: true) { $0.browserID.allowedOrigins = "HTTPS://App.Example:443/" }
        #expect(TestBrowser(written.app).get("/account/browserid/sign_in?return_to=https%3A%2F%2Fapp.example%2Fback").status == 200)
        // A list of entries that are not origins does not become "any site"
        let typo = try makeApp(browserID: true) { $0.browserID.allowedOrigins = "app.example" }
        #expect(TestBrowser(typo.app).get("/account/browserid/sign_in?return_to=https%3A%2F%2Fapp.example%2Fback").status == 400)
        #expect(!typo.app.site.configuration.browserID.allowsOrigin("https://evil.example"))
    }

    @Test func relyingPartyOriginsAreNormalised() {
        #expect(RelyingPartyOrigin.of("https://App.Example:443/x?y#z") == "https://app.example")
        #expect(RelyingPartyOrigin.of("http://localhost:3000/") == "http://localhost:3000")
        #expect(RelyingPartyOrigin.of("ftp://x.example/") == nil)
        #expect(RelyingPartyOrigin.of("https://user:pw@x.example/") == nil)
        #expect(RelyingPartyOrigin.of("/relative") == nil)
        #expect(RelyingPartyOrigin.withoutFragment("https://a/b#c") == "https://a/b")
    }
}
