// AuthorizePushedAndAppsTests.swift: pushed authorization requests (RFC 9126) end to end, and settings → Connected
// apps (listed after a consent, disconnected by its button, which makes the next authorization ask again).
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct AuthorizePushedAndAppsTests {
    typealias F = AuthorizeFixture

    /// POST oidc/par with HTTP Basic (`secret`), or none.
    private func push(_ browser: TestBrowser, _ form: [String: String], secret: String? = F.secret) -> Response {
        let body = form.map { "\(FormData.encode($0.key))=\(FormData.encode($0.value))" }.joined(separator: "&")
        var params = ["REQUEST_METHOD": "POST", "REQUEST_URI": "/account/oidc/par", "REMOTE_ADDR": "127.0.0.1",
                      "CONTENT_TYPE": "application/x-www-form-urlencoded", "CONTENT_LENGTH": String(body.utf8.count)]
        if let secret { params["HTTP_AUTHORIZATION"] = "Basic " + Data("web:\(secret)".utf8).base64EncodedString() }
        return browser.send(Request(params: params, body: Array(body.utf8)))
    }

    private func json(_ response: Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func aPushedRequestIsUsedOnceByItsClient() throws {
        let test = try makeOpenIDApp()
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_up", F.signUpForm).status == 303)
        let form = ["redirect_uri": "https://app.example/cb", "response_type": "code", "scope": "openid email", "state": "pushed", "nonce": "n-2"]
        let pushed = push(browser, form)
        #expect(pushed.status == 201 && pushed.header("Cache-Control") == "no-store")
        let answer = try json(pushed)
        let requestURI = try #require(answer["request_uri"] as? String)
        #expect(requestURI.hasPrefix("urn:ietf:params:oauth:request_uri:") && answer["expires_in"] as? Int == 90)
        try test.services.openID.grantConsent(accountID: 1, clientID: "web", scopes: ["openid", "email"])
        let uri = "/account/oidc/authorize?client_id=web&request_uri=" + FormData.encode(requestURI)
        let coded = browser.get(uri)
        #expect(coded.header("Location")?.hasPrefix("https://app.example/cb?code=") == true && coded.locationQuery["state"] == "pushed")
        #expect(browser.get(uri).status == 400, "used up: a page")
        #expect(browser.get("/account/oidc/authorize?client_id=native&request_uri=" + FormData.encode(requestURI)).status == 400, "another client's")
    }

    @Test func aPushedRequestIsCheckedLikeTheAuthorizeEndpointChecksIt() throws {
        let test = try makeOpenIDApp()
        let browser = TestBrowser(test.app)
        let good = ["redirect_uri": "https://app.example/cb", "response_type": "code", "scope": "openid"]
        #expect(push(browser, good, secret: "wrong-wrong-wrong-wrong").status == 401)
        #expect(push(browser, good, secret: nil).status == 401, "a confidential client must authenticate")
        var bad = good
        bad["redirect_uri"] = "https://evil.example/cb"
        #expect(try json(push(browser, bad))["error"] as? String == "invalid_request")
        bad = good
        bad["code_challenge_method"] = "plain"
        #expect(push(browser, bad).status == 400)
        bad = good
        bad["request_uri"] = "urn:x"
        #expect(try json(push(browser, bad))["error"] as? String == "invalid_request")
    }

    @Test func connectedAppsListsWhatEachSeesAndDisconnects() throws {
        let test = try makeOpenIDApp()
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_up", F.signUpForm).status == 303)
        #expect(browser.get("/account/settings/apps").text.contains("You have not let any application sign you in yet."))
        try test.services.openID.grantConsent(accountID: 1, clientID: "web", scopes: ["openid", "email", "groups"])
        let page = browser.get("/account/settings/apps")
        #expect(page.status == 200 && page.text.contains("Web App") && page.text.contains("your email address"))
        #expect(page.text.contains(#"aria-current="page">Connected apps"#), "the settings nav marks it")
        #expect(browser.get(authorizeURI(F.web)).locationQuery["code"] != nil, "consent given: no page")
        let revoked = browser.post("/account/settings/apps/revoke", ["client_id": "web"])
        #expect(revoked.status == 303 && revoked.header("Location") == "/account/settings/apps")
        #expect(!browser.get("/account/settings/apps").text.contains("Web App"))
        #expect(browser.get(authorizeURI(F.web)).header("Location")?.hasPrefix("/account/oidc/consent?") == true, "asks again")
        #expect(browser.post("/account/settings/apps/revoke", ["client_id": "bad id!"]).status == 400)
        #expect(browser.post("/account/settings/apps/revoke", ["client_id": "web"], csrf: false).status == 403)
    }

    @Test func theFrenchAndGermanPagesAreTranslated() throws {
        let test = try makeOpenIDApp()
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_up", F.signUpForm).status == 303)
        let consent = try #require(browser.get(authorizeURI(F.web)).header("Location"))
        #expect(browser.post("/account/language", ["lang": "fr", "back": "/account/"]).status == 303)
        #expect(browser.get(consent).text.contains("Autoriser l’application Web App"))
        #expect(browser.post("/account/language", ["lang": "de", "back": "/account/"]).status == 303)
        #expect(browser.get(consent).text.contains("Die Anwendung Web App zulassen?"))
    }
}
