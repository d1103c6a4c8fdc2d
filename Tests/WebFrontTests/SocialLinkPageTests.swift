// SocialLinkPageTests.swift: the two pending steps in-process: an address that has an account is linked only after
// that account's password (auth/link), and a provider without a verified address asks for one (auth/email).
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct SocialLinkPageTests {
    func count(_ app: TestApp, _ sql: String) throws -> Int {
        try app.services.database.read { tx in try tx.value(Int.self, sql) ?? 0 }
    }

    @Test func anExistingAddressIsLinkedOnlyAfterThatAccountsPassword() throws {
        let provider = FakeGitHub()
        let app = try makeSocialApp(provider) { $0.confirmation.required = false }
        let owner = TestBrowser(app.app)
        #expect(owner.post("/account/sign_up", ["email": "octo@example.com", "password": "correct horse",
                                                "password_confirmation": "correct horse"]).status == 303)
        let browser = TestBrowser(app.app)
        let response = browser.signInWithProvider()
        #expect(TestBrowser.location(response) == "/account/auth/link")
        let page = browser.get("/account/auth/link").text
        #expect(page.contains("An account with octo@example.com already exists here"))
        #expect(try count(app, "SELECT COUNT(*) FROM socialIdentity") == 0)

        let wrong = browser.post("/account/auth/link", ["password": "not the password"])
        #expect(wrong.status == 200)
        #expect(wrong.text.contains("Invalid email or password") || wrong.text.contains("flash-alert"))
        #expect(try count(app, "SELECT COUNT(*) FROM socialIdentity") == 0)

        let right = browser.post("/account/auth/link", ["password": "correct horse"])
        #expect(right.status == 303)
        #expect(try count(app, "SELECT COUNT(*) FROM socialIdentity") == 1)
        #expect(try count(app, "SELECT COUNT(*) FROM account") == 1)
        #expect(browser.get("/account/").text.contains("GitHub is now linked to your account."))
        // From now on the provider alone signs in to that account.
        let later = TestBrowser(app.app)
        later.signInWithProvider(code: "code-2")
        #expect(later.get("/account/").text.contains("octo@example.com"))
    }

    @Test func withoutAVerifiedAddressThePersonGivesOneAndConfirmsIt() throws {
        let provider = FakeGitHub()
        provider.emails = [["email": "octo@example.com", "primary": true, "verified": false]]
        let app = try makeSocialApp(provider)
        let browser = TestBrowser(app.app)
        #expect(TestBrowser.location(browser.signInWithProvider()) == "/account/auth/email")
        let page = browser.get("/account/auth/email").text
        #expect(page.contains("GitHub didn&#39;t give us a verified email address") || page.contains("GitHub didn't give us a verified email address"))

        let bad = browser.post("/account/auth/email", ["email": "not an address"])
        #expect(bad.status == 200 && bad.text.contains("field-invalid"))
        let sent = browser.post("/account/auth/email", ["email": "cat@example.com"])
        #expect(sent.status == 200 && sent.text.contains("Check your email"))
        #expect(try count(app, "SELECT COUNT(*) FROM emailAddress WHERE address = 'cat@example.com' AND verifiedAt IS NULL") == 1)
        #expect(try count(app, "SELECT COUNT(*) FROM socialIdentity") == 1)
        let link = try #require(try app.link(containing: "/account/confirm?token="))
        browser.get(String(link.dropFirst("http://127.0.0.1:8080".count)))
        let again = TestBrowser(app.app)
        again.signInWithProvider(code: "code-2")
        #expect(again.get("/account/").text.contains("cat@example.com"))
    }

    @Test func thePendingStepsNeedTheBrowserThatBeganThem() throws {
        let app = try makeSocialApp(FakeGitHub())
        let stranger = TestBrowser(app.app)
        #expect(TestBrowser.location(stranger.get("/account/auth/email")) == "/account/sign_in")
        #expect(TestBrowser.location(stranger.get("/account/auth/link")) == "/account/sign_in")
        #expect(stranger.get("/account/sign_in").text.contains("That sign-in attempt has expired"))
    }
}
