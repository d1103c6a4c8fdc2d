// ReauthenticationPageTests.swift: the password asked again, and the way back to the page that asked.
import AccountCore
import Testing
@testable import WebFront

struct ReauthenticationPageTests {
    @Test func aStaleSessionIsAskedThePasswordAndSentBack() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let browser = TestBrowser(test.app)
        browser.post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse", "password_confirmation": "correct horse"])
        test.clock.advance(by: 601)
        let page = browser.get("/account/settings/reauthenticate?rd=%2Faccount%2Fsettings%2Femails")
        #expect(page.status == 200)
        #expect(page.text.contains(#"name="rd" value="/account/settings/emails""#))
        let wrong = browser.post("/account/settings/reauthenticate", ["password": "wrong horse", "rd": "/account/settings/emails"])
        #expect(wrong.status == 200)
        #expect(wrong.text.contains("Password is not correct"))
        let right = browser.post("/account/settings/reauthenticate", ["password": "correct horse", "rd": "/account/settings/emails"])
        #expect(right.status == 303)
        #expect(right.header("Location") == "/account/settings/emails")
        let cookie = try #require(browser.cookies["frontdoor_session"])
        let digest = try #require(SecretToken(encoded: cookie)).digest
        #expect(try test.services.reauthentication.isRecent(digest))
    }

    @Test func itNeverSendsAnyoneToAnotherHost() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let browser = TestBrowser(test.app)
        browser.post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse", "password_confirmation": "correct horse"])
        let right = browser.post("/account/settings/reauthenticate", ["password": "correct horse", "rd": "https://evil.example/"])
        #expect(right.header("Location") == "/account/settings")
    }

    @Test func signedOutVisitorsAreSentToSignIn() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let page = TestBrowser(test.app).get("/account/settings/reauthenticate")
        #expect(page.status == 302)
        #expect(page.header("Location")?.hasPrefix("/account/sign_in?rd=") == true)
    }
}
