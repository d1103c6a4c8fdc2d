// SocialCallbackPageTests.swift: the start button and the callback in-process, against a fake GitHub: the behaviour
// table's rows, and the refusals of a bad, reused or foreign state.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct SocialCallbackPageTests {
    func count(_ app: TestApp, _ sql: String) throws -> Int {
        try app.services.database.read { tx in try tx.value(Int.self, sql) ?? 0 }
    }

    @Test func theSignInAndSignUpPagesShowAButtonPerProvider() throws {
        let app = try makeSocialApp(FakeGitHub())
        let browser = TestBrowser(app.app)
        #expect(browser.get("/account/sign_in").text.contains("data-provider=\"github\">Sign in with GitHub</button>"))
        #expect(browser.get("/account/sign_up").text.contains("Sign up with GitHub"))
        #expect(!TestBrowser(try makeApp().app).get("/account/sign_in").text.contains("data-provider"))
    }

    @Test func theButtonSendsThePersonToTheProviderWithStatePKCEAndTheCallback() throws {
        let app = try makeSocialApp(FakeGitHub())
        let browser = TestBrowser(app.app)
        let response = browser.post("/account/auth/github", ["csrf_token": browser.csrfToken(for: "/account/sign_in")])
        #expect(response.status == 303)
        let location = try #require(TestBrowser.location(response).flatMap(URLComponents.init(string:)))
        let items = Dictionary(uniqueKeysWithValues: (location.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(location.host == "gh.test")
        #expect(items["client_id"] == "client-1" && items["response_type"] == "code" && items["code_challenge_method"] == "S256")
        #expect(items["redirect_uri"] == "http://127.0.0.1:8080/account/auth/github/callback")
        #expect(items["state"]?.count == 43 && items["code_challenge"]?.count == 43)
        #expect(browser.cookies[RequestContext.socialBindingCookie] != nil)
        // Without the CSRF token nothing starts.
        #expect(TestBrowser(app.app).post("/account/auth/github", [:], csrf: false).status == 403)
    }

    @Test func aNewIdentityWithAVerifiedAddressSignsUpWithoutAPassword() throws {
        let provider = FakeGitHub()
        let app = try makeSocialApp(provider)
        let browser = TestBrowser(app.app)
        let response = browser.signInWithProvider()
        #expect(response.status == 302 || response.status == 303)
        #expect(browser.get("/account/").text.contains("octo@example.com"))
        #expect(try count(app, "SELECT COUNT(*) FROM account WHERE passwordHash = ''") == 1)
        #expect(try count(app, "SELECT COUNT(*) FROM emailAddress WHERE address = 'octo@example.com' AND verifiedAt IS NOT NULL") == 1)
        #expect(try count(app, "SELECT COUNT(*) FROM socialIdentity WHERE provider = 'github' AND subject = '42'") == 1)
        // The code went to the token endpoint with the PKCE verifier.
        let exchange = try #require(provider.requests.first { $0.url.hasPrefix("https://gh.test/token") })
        #expect(String(decoding: exchange.body, as: UTF8.self).contains("code_verifier="))
        // Back again later: the same account, none new.
        let again = TestBrowser(app.app)
        again.signInWithProvider(code: "code-2")
        #expect(again.get("/account/").text.contains("octo@example.com"))
        #expect(try count(app, "SELECT COUNT(*) FROM account") == 1)
    }

    @Test func aDeniedConsentComesBackWithAMessageAndNothingMade() throws {
        let app = try makeSocialApp(FakeGitHub())
        let browser = TestBrowser(app.app)
        let state = try #require(browser.startSocial())
        let response = browser.callback("github", "error=access_denied&state=\(state)")
        #expect(TestBrowser.location(response) == "/account/sign_in")
        #expect(browser.get("/account/sign_in").text.contains("You cancelled signing in with GitHub."))
        #expect(try count(app, "SELECT COUNT(*) FROM account") == 0)
    }

    @Test func aProviderErrorIsAClearMessageAndNothingIsMade() throws {
        let provider = FakeGitHub()
        provider.tokenStatus = 400
        let app = try makeSocialApp(provider)
        let browser = TestBrowser(app.app)
        browser.signInWithProvider()
        #expect(browser.get("/account/sign_in").text.contains("We couldn&#39;t sign you in with GitHub")
                || browser.get("/account/sign_in").text.contains("We couldn't sign you in with GitHub"))
        #expect(try count(app, "SELECT COUNT(*) FROM account") == 0)
    }

    @Test func aStateWorksOnceInTheBrowserThatBeganIt() throws {
        let app = try makeSocialApp(FakeGitHub())
        let browser = TestBrowser(app.app)
        let state = try #require(browser.startSocial())
        // Another browser (no binding cookie, or its own) cannot finish it…
        let other = TestBrowser(app.app)
        _ = other.startSocial()
        other.callback("github", "code=c&state=\(state)")
        #expect(other.get("/account/sign_in").text.contains("expired or was already used"))
        // A state works once, in its own browser.
        let fresh = try #require(browser.startSocial())
        browser.callback("github", "code=c&state=\(fresh)")
        #expect(browser.get("/account/").text.contains("octo@example.com"))
        let replay = TestBrowser(app.app)
        replay.cookies = [RequestContext.socialBindingCookie: browser.cookies[RequestContext.socialBindingCookie] ?? ""]
        replay.callback("github", "code=c&state=\(fresh)")
        #expect(replay.get("/account/sign_in").text.contains("expired or was already used"))
        // A made-up state is refused the same way.
        let stranger = TestBrowser(app.app)
        stranger.callback("github", "code=c&state=AAAA")
        #expect(stranger.get("/account/sign_in").text.contains("expired or was already used"))
        #expect(try count(app, "SELECT COUNT(*) FROM account") == 1)
    }

    @Test func formActionAllowsTheProvidersAuthorizationOrigin() throws {
        // Browsers check form-action on the redirect after a form: the button's 303 to the provider must be allowed.
        let app = try makeSocialApp(FakeGitHub())
        let policy = TestBrowser(app.app).get("/account/sign_in").header("Content-Security-Policy") ?? ""
        #expect(policy.contains("form-action 'self' https://gh.test;"))
        let plain = TestBrowser(try makeApp().app).get("/account/sign_in").header("Content-Security-Policy") ?? ""
        #expect(plain.contains("form-action 'self';"))
    }

    @Test func anUnknownProviderIsNotFound() throws {
        let app = try makeSocialApp(FakeGitHub())
        #expect(TestBrowser(app.app).get("/account/auth/google/callback?code=a&state=b").status == 404)
    }
}
