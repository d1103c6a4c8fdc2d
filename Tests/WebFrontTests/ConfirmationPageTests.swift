import AccountCore
import MailTestKit
import Testing
@testable import WebFront

struct ConfirmationPageTests {
    let form = ["email": "Bea@Example.com", "password": "correct horse", "password_confirmation": "correct horse"]

    @Test func signUpMailsALinkAndSignInWaitsForIt() throws {
        let test = try makeApp()
        let browser = TestBrowser(test.app)
        let page = browser.post("/account/sign_up", form)
        #expect(page.status == 200)
        #expect(page.text.contains("Check your email"))
        #expect(browser.cookies["frontdoor_session"] == nil)

        let early = browser.post("/account/sign_in", ["email": "bea@example.com", "password": "correct horse"])
        #expect(early.text.contains("You have to confirm your email address before signing in."))
        let wrong = browser.post("/account/sign_in", ["email": "bea@example.com", "password": "wrong password"])
        #expect(wrong.text.contains("Invalid email or password."), "unconfirmed is only said after a correct password")

        let link = try #require(try test.link(containing: "/account/confirm?token="))
        let confirmed = browser.get(String(link.dropFirst("http://127.0.0.1:8080".count)))
        #expect(confirmed.status == 302)
        #expect(confirmed.header("Location") == "/account/sign_in")
        #expect(browser.get("/account/sign_in").text.contains("Your email address has been confirmed."))
        #expect(browser.post("/account/sign_in", ["email": "bea@example.com", "password": "correct horse"]).status == 303)
    }

    @Test func aLinkWorksOnceAndNotAfterItExpires() throws {
        let test = try makeApp()
        let browser = TestBrowser(test.app)
        browser.post("/account/sign_up", form)
        let path = try #require(try test.link(containing: "/confirm?token=")).dropFirst("http://127.0.0.1:8080".count)
        #expect(browser.get(String(path)).status == 302)
        let again = browser.get(String(path))
        #expect(again.status == 200)
        #expect(again.text.contains("The confirmation link is invalid, was already used or has expired."))
        #expect(again.text.contains(#"action="/account/confirmation/new""#))

        browser.post("/account/sign_up", ["email": "late@example.com", "password": "correct horse", "password_confirmation": "correct horse"])
        let late = try #require(try test.link(containing: "/confirm?token=")).dropFirst("http://127.0.0.1:8080".count)
        test.clock.advance(by: 3 * 86400 + 1)
        #expect(browser.get(String(late)).text.contains("has expired"))
        #expect(browser.get("/account/confirm?token=garbage").text.contains("has expired"))
    }

    @Test func signingUpWithATakenAddressLooksTheSameAndMailsTheOwner() throws {
        let test = try makeApp()
        TestBrowser(test.app).post("/account/sign_up", form)
        _ = try test.deliveredMail()
        let first = TestBrowser(test.app), second = TestBrowser(test.app)
        let fresh = first.post("/account/sign_up", ["email": "new@example.com", "password": "correct horse", "password_confirmation": "correct horse"])
        let taken = second.post("/account/sign_up", ["email": "BEA@example.com", "password": "other password", "password_confirmation": "other password"])
        #expect(fresh.status == taken.status)
        let strip = { (text: String) in text.replacing(/name="csrf_token" value="[^"]*"/, with: "") }
        #expect(strip(fresh.text) == strip(taken.text))
        #expect(fresh.headers.map(\.name) == taken.headers.map(\.name))
        #expect(try test.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } == 2)
        let mails = try test.deliveredMail()
        #expect(mails.contains { $0.field("To") == "Bea@Example.com" && $0.readable.contains("Someone, perhaps you, tried to create an account") })
    }

    @Test func resendingIsThrottledToOneMailAMinute() throws {
        let test = try makeApp()
        let browser = TestBrowser(test.app)
        browser.post("/account/sign_up", form)
        test.clock.advance(by: 61)
        let neutral = browser.post("/account/confirmation/new", ["email": "bea@example.com"])
        #expect(neutral.text.contains("If that address is waiting for confirmation, a new link is on its way."))
        browser.post("/account/confirmation/new", ["email": "bea@example.com"])
        let unknown = browser.post("/account/confirmation/new", ["email": "nobody@example.com"])
        #expect(unknown.text.contains("If that address is waiting for confirmation"))
        #expect(try test.deliveredMail().count == 2, "the sign-up mail and one resend")
        test.clock.advance(by: 61)
        browser.post("/account/confirmation/new", ["email": "bea@example.com"])
        #expect(try test.deliveredMail().count == 3)
    }
}
