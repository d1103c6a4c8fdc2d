// AccountSwitchTests.swift: several accounts in one browser (RequestContext+Accounts, sign-in with add=1, switch, sign-out).
import AccountCore
import Testing
@testable import WebFront

struct AccountSwitchTests {
    func form(_ email: String) -> [String: String] {
        ["email": email, "password": "correct horse", "password_confirmation": "correct horse"]
    }

    /// Sign-up signs in (confirmation is off): those sessions belong to other browsers and are not counted here.
    /// Their addresses count as confirmed, as the gate passes on confirmed addresses only.
    func endSignUpSessions(_ test: TestApp) throws {
        try test.services.database.write { tx in
            try tx.execute("DELETE FROM session")
            try tx.execute("UPDATE emailAddress SET verifiedAt = 1")
        }
    }

    /// A browser signed in to ann, then (adding) to bob: bob is active, ann waits.
    func twoAccounts() throws -> (TestApp, TestBrowser) {
        let test = try makeApp { $0.confirmation.required = false }
        TestBrowser(test.app).post("/account/sign_up", form("ann@example.com"))
        TestBrowser(test.app).post("/account/sign_up", form("bob@example.com"))
        try endSignUpSessions(test)
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_in", ["email": "ann@example.com", "password": "correct horse"]).status == 303)
        #expect(browser.get("/account/sign_in?add=1").status == 200, "signed in, adding shows the form")
        #expect(browser.post("/account/sign_in", ["email": "bob@example.com", "password": "correct horse", "add": "1"]).status == 303)
        return (test, browser)
    }

    @Test func signingInToAnotherAccountKeepsTheFirstWaiting() throws {
        let (test, browser) = try twoAccounts()
        let home = browser.get("/account/")
        #expect(home.text.contains("Signed in as bob@example.com"))
        #expect(home.text.contains(#"aria-label="Switch to ann@example.com""#))
        #expect(browser.cookies[RequestContext.accountsCookie] != nil)
        #expect(try test.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM session") } == 2)
    }

    @Test func switchingMakesTheOtherAccountActiveForTheGateToo() throws {
        let (_, browser) = try twoAccounts()
        let handle = try #require(browser.get("/account/").text.firstMatch(of: /name="to" value="([0-9a-f]+)"/)).1
        let switched = browser.post("/account/switch", ["to": String(handle)])
        #expect(switched.status == 303)
        #expect(browser.get("/account/").text.contains("Signed in as ann@example.com"))
        let gate = browser.get("/account/auth/check")
        #expect(gate.header("Remote-Email") == "ann@example.com")
        #expect(browser.get("/account/").text.contains(#"aria-label="Switch to bob@example.com""#))
        #expect(browser.post("/account/switch", ["to": "00"]).header("Location") == "/account/", "an unknown handle switches nothing")
        #expect(browser.get("/account/auth/check").header("Remote-Email") == "ann@example.com")
    }

    @Test func signingOutOfOneLeavesTheOtherAndAllEndsBoth() throws {
        let (test, browser) = try twoAccounts()
        let out = browser.post("/account/sign_out", [:])
        #expect(out.header("Location") == "/account/", "another account is still signed in")
        #expect(browser.get("/account/").text.contains("Signed in as ann@example.com"))
        #expect(try test.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM session") } == 1)
        #expect(browser.cookies[RequestContext.accountsCookie] == nil, "nobody waits any more")

        #expect(browser.post("/account/sign_in", ["email": "bob@example.com", "password": "correct horse", "add": "1"]).status == 303)
        let all = browser.post("/account/sign_out", ["scope": "all"])
        #expect(all.header("Location") == "/account/sign_in")
        #expect(try test.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM session") } == 0)
        #expect(browser.get("/account/").status == 302)
    }

    @Test func signingInAgainToTheSameAccountReplacesItsSession() throws {
        let (test, browser) = try twoAccounts()
        let before = try #require(browser.cookies["frontdoor_session"])
        #expect(browser.post("/account/sign_in", ["email": "bob@example.com", "password": "correct horse", "add": "1"]).status == 303)
        #expect(browser.cookies["frontdoor_session"] != before)
        #expect(try test.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM session") } == 2,
                "bob's older session ended; ann's waits")
    }

    @Test func theNumberOfAccountsIsLimited() throws {
        let test = try makeApp { $0.confirmation.required = false; $0.session.maxAccounts = 2 }
        for name in ["ann", "bob", "cyd"] { TestBrowser(test.app).post("/account/sign_up", form("\(name)@example.com")) }
        try endSignUpSessions(test)
        let browser = TestBrowser(test.app)
        browser.post("/account/sign_in", ["email": "ann@example.com", "password": "correct horse"])
        #expect(browser.post("/account/sign_in", ["email": "bob@example.com", "password": "correct horse", "add": "1"]).status == 303)
        #expect(browser.get("/account/sign_in?add=1").header("Location") == "/account/", "full: back home with a message")
        #expect(browser.get("/account/").text.contains("signed in to the most accounts it may hold"))
        let refused = browser.post("/account/sign_in", ["email": "cyd@example.com", "password": "correct horse", "add": "1"])
        #expect(refused.header("Location") == "/account/")
        #expect(try test.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM session") } == 2)
    }

    @Test func aWaitingSessionRevokedElsewhereDisappearsFromTheSwitcher() throws {
        let (test, browser) = try twoAccounts()
        try test.services.database.write { tx in
            try tx.execute("DELETE FROM session WHERE accountId = (SELECT accountId FROM emailAddress WHERE address = 'ann@example.com')")
        }
        let home = browser.get("/account/")
        #expect(!home.text.contains("Switch to ann@example.com"))
        #expect(browser.cookies[RequestContext.accountsCookie] == nil, "the dead token is dropped from the cookie")
    }
}
