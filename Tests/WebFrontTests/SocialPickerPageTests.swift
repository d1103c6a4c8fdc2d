// SocialPickerPageTests.swift: auth/pick in-process: GitHub vouches for two addresses held by two accounts; the
// person chooses one, proves it on auth/link, and the identity is linked to that account only.
@testable import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct SocialPickerPageTests {
    func linkedAccounts(_ app: TestApp) throws -> [Int64] {
        try app.services.database.read { tx in try tx.values(Int64.self, "SELECT accountId FROM socialIdentity") }
    }

    func accountId(_ app: TestApp, _ address: String) throws -> Int64? {
        try app.services.database.read { tx in
            try tx.value(Int64.self, "SELECT accountId FROM emailAddress WHERE normalizedAddress = ?", [address])
        }
    }

    func signUp(_ app: TestApp, _ email: String) {
        let owner = TestBrowser(app.app)
        #expect(owner.post("/account/sign_up", ["email": email, "password": "correct horse",
                                                "password_confirmation": "correct horse"]).status == 303)
    }

    @Test func twoAccountsHoldingVouchedAddressesAreOfferedAndOnlyTheChosenOneIsLinked() throws {
        let provider = FakeGitHub()
        provider.emails = [["email": "octo@example.com", "primary": true, "verified": true],
                           ["email": "cat@example.com", "primary": false, "verified": true],
                           ["email": "unproven@example.com", "primary": false, "verified": false]]
        let app = try makeSocialApp(provider) { $0.confirmation.required = false }
        signUp(app, "octo@example.com")
        signUp(app, "cat@example.com")
        signUp(app, "unproven@example.com")
        let browser = TestBrowser(app.app)
        #expect(TestBrowser.location(browser.signInWithProvider()) == "/account/auth/pick")
        let page = browser.get("/account/auth/pick").text
        #expect(page.contains("octo@example.com") && page.contains("cat@example.com"))
        #expect(!page.contains("unproven@example.com"), "an address the provider did not verify names no account")
        #expect(try linkedAccounts(app).isEmpty)

        #expect(TestBrowser.location(browser.post("/account/auth/pick", ["choice": "7"])) == "/account/sign_in")
        let again = TestBrowser(app.app)
        again.signInWithProvider(code: "code-2")
        let chosen = again.post("/account/auth/pick", ["choice": "1"])
        #expect(TestBrowser.location(chosen) == "/account/auth/link")
        #expect(again.get("/account/auth/link").text.contains("An account with cat@example.com already exists here"))
        #expect(again.post("/account/auth/link", ["password": "correct horse"]).status == 303)
        #expect(try linkedAccounts(app) == [try #require(try accountId(app, "cat@example.com"))])
        #expect(again.get("/account/").text.contains("cat@example.com"))
        // The picker's cookie is gone: the page now says the attempt expired
        #expect(TestBrowser.location(again.get("/account/auth/pick")) == "/account/sign_in")
    }

    @Test func anAccountSignedInHereIsACandidateNamedByItsOwnAddress() throws {
        let app = try makeSocialApp(FakeGitHub()) { $0.confirmation.required = false }
        signUp(app, "octo@example.com")
        let browser = TestBrowser(app.app)
        #expect(browser.post("/account/sign_up", ["email": "mine@example.com", "password": "correct horse",
                                                  "password_confirmation": "correct horse"]).status == 303)
        #expect(TestBrowser.location(browser.signInWithProvider()) == "/account/auth/pick")
        let page = browser.get("/account/auth/pick").text
        #expect(page.contains("octo@example.com") && page.contains("mine@example.com") && page.contains("signed in in this browser"))
    }

    @Test func addressesThePersonHasNotProvenAreMasked() {
        let pending = PendingIdentity(provider: "github", email: "octo@example.com", displayName: "", linkProviders: [], linkHasPassword: true,
                                      returnTo: "", rememberMe: false, accountId: 7, accountAddress: "someone@example.org")
        #expect(SocialPickerPage.shownAddress(pending, signedIn: []) == "s•••@e•••.org")
        #expect(SocialPickerPage.shownAddress(pending, signedIn: [7]) == "someone@example.org")
        var vouched = pending
        vouched.accountAddress = "octo@example.com"
        #expect(SocialPickerPage.shownAddress(vouched, signedIn: []) == "octo@example.com")
    }
}
