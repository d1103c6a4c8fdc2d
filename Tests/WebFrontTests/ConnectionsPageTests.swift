// ConnectionsPageTests.swift: connected accounts in the settings: link from a password account, list, unlink; the
// last way to sign in stays.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct ConnectionsPageTests {
    func count(_ app: TestApp, _ sql: String) throws -> Int {
        try app.services.database.read { tx in try tx.value(Int.self, sql) ?? 0 }
    }

    @Test func aPasswordAccountLinksListsAndUnlinksAProvider() throws {
        let app = try makeSocialApp(FakeGitHub()) { $0.confirmation.required = false }
        let browser = TestBrowser(app.app)
        #expect(browser.post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse",
                                                  "password_confirmation": "correct horse"]).status == 303)
        let empty = browser.get("/account/settings/connections")
        #expect(empty.status == 200 && empty.text.contains("Link GitHub"))
        // Sign-up counts as a recent sign-in? If not, the start asks for the password first.
        var state = browser.startSocial(from: "/account/settings/connections", fields: ["purpose": "link"])
        if state == nil {
            #expect(browser.post("/account/settings/reauthenticate", ["password": "correct horse", "rd": "/account/settings/connections"]).status == 303)
            state = browser.startSocial(from: "/account/settings/connections", fields: ["purpose": "link"])
        }
        let linked = browser.callback("github", "code=c&state=\(try #require(state))")
        #expect(TestBrowser.location(linked) == "/account/settings/connections")
        let list = browser.get("/account/settings/connections").text
        #expect(list.contains("GitHub is now linked to your account.") && list.contains("data-unlink=\"github\""))
        #expect(try count(app, "SELECT COUNT(*) FROM socialIdentity WHERE accountId = 1") == 1)

        #expect(browser.post("/account/settings/connections/unlink", ["provider": "github"]).status == 303)
        #expect(browser.get("/account/settings/connections").text.contains("GitHub was unlinked from your account."))
        #expect(try count(app, "SELECT COUNT(*) FROM socialIdentity") == 0)
    }

    @Test func theOnlyWayToSignInCannotBeUnlinked() throws {
        let app = try makeSocialApp(FakeGitHub())
        let browser = TestBrowser(app.app)
        browser.signInWithProvider()
        let page = browser.get("/account/settings/connections").text
        #expect(page.contains("Your account has no password"))
        #expect(browser.post("/account/settings/connections/unlink", ["provider": "github"]).status == 303)
        #expect(browser.get("/account/settings/connections").text.contains("You can&#39;t unlink GitHub")
                || browser.get("/account/settings/connections").text.contains("You can't unlink GitHub"))
        #expect(try count(app, "SELECT COUNT(*) FROM socialIdentity") == 1)
    }

    @Test func anotherAccountsIdentityIsNotLinkedTwice() throws {
        let app = try makeSocialApp(FakeGitHub()) { $0.confirmation.required = false }
        TestBrowser(app.app).signInWithProvider()   // octo's account holds GitHub user 42
        let browser = TestBrowser(app.app)
        #expect(browser.post("/account/sign_up", ["email": "bob@example.com", "password": "correct horse",
                                                  "password_confirmation": "correct horse"]).status == 303)
        #expect(browser.post("/account/settings/reauthenticate", ["password": "correct horse", "rd": "/account/settings/connections"]).status == 303)
        let state = try #require(browser.startSocial(from: "/account/settings/connections", fields: ["purpose": "link"]))
        browser.callback("github", "code=c2&state=\(state)")
        #expect(browser.get("/account/settings/connections").text.contains("already linked to another account"))
        #expect(try count(app, "SELECT COUNT(*) FROM socialIdentity") == 1)
    }
}
