import AccountCore
import FastCGI
import GRDB
import Testing
@testable import WebFront

struct PasswordResetPageTests {
    /// An account with a confirmed address, signed in on `browser`.
    func confirmedAccount(_ test: TestApp) throws -> TestBrowser {
        let browser = TestBrowser(test.app)
        browser.post("/account/sign_up", ["email": "cy@example.com", "password": "old password", "password_confirmation": "old password"])
        let confirm = try #require(try test.link(containing: "/confirm?token="))
        browser.get(String(confirm.dropFirst("http://127.0.0.1:8080".count)))
        #expect(browser.post("/account/sign_in", ["email": "cy@example.com", "password": "old password"]).status == 303)
        return browser
    }

    @Test func theReminderPageSaysTheSameForEveryAddress() throws {
        let test = try makeApp()
        _ = try confirmedAccount(test)
        let known = TestBrowser(test.app).post("/account/password/new", ["email": "cy@example.com"])
        let unknown = TestBrowser(test.app).post("/account/password/new", ["email": "nobody@example.com"])
        let strip = { (text: String) in text.replacing(/name="csrf_token" value="[^"]*"/, with: "") }
        #expect(known.status == 200 && strip(known.text) == strip(unknown.text))
        #expect(known.text.contains("If that address has an account"))
        #expect(try test.link(containing: "/password/edit?token=") != nil)
    }

    @Test func aResetReplacesThePasswordEndsEverySessionAndSignsIn() throws {
        let test = try makeApp()
        let other = try confirmedAccount(test)
        let person = TestBrowser(test.app)
        person.post("/account/password/new", ["email": "cy@example.com"])
        let path = String(try #require(try test.link(containing: "/password/edit?token=")).dropFirst("http://127.0.0.1:8080".count))
        let token = String(path.split(separator: "=", maxSplits: 1)[1])
        #expect(person.get(path).text.contains(#"name="token" value="\#(token)""#))

        let mismatch = person.post("/account/password/edit", ["token": token, "password": "new password", "password_confirmation": "typo"])
        #expect(mismatch.text.contains("Password confirmation doesn"))
        let done = person.post("/account/password/edit", ["token": token, "password": "new password", "password_confirmation": "new password"])
        #expect(done.status == 303)
        #expect(person.get("/account/").text.contains("Signed in as cy@example.com"))
        #expect(other.get("/account/").status == 302, "the other browser's session was ended")
        #expect(TestBrowser(test.app).post("/account/sign_in", ["email": "cy@example.com", "password": "old password"]).text.contains("Invalid email or password."))
        #expect(TestBrowser(test.app).post("/account/sign_in", ["email": "cy@example.com", "password": "new password"]).status == 303)
        #expect(try test.deliveredMail().last?.contains("The password of your account was just changed") == true)
        #expect(person.get(path).text.contains("The password reset link is invalid"), "single use")
    }

    @Test func anotherResetLinkIsVoidAfterAResetAndLinksExpireAfterAnHour() throws {
        let test = try makeApp()
        _ = try confirmedAccount(test)
        let browser = TestBrowser(test.app)
        browser.post("/account/password/new", ["email": "cy@example.com"])
        let first = String(try #require(try test.link(containing: "/password/edit?token=")).split(separator: "=", maxSplits: 1)[1])
        test.clock.advance(by: 61)
        browser.post("/account/password/new", ["email": "cy@example.com"])
        let second = String(try #require(try test.link(containing: "/password/edit?token=")).split(separator: "=", maxSplits: 1)[1])
        #expect(first != second)
        #expect(browser.post("/account/password/edit", ["token": second, "password": "new password", "password_confirmation": "new password"]).status == 303)
        #expect(browser.get("/account/password/edit?token=\(first)").text.contains("The password reset link is invalid"))

        test.clock.advance(by: 61)
        browser.post("/account/password/new", ["email": "cy@example.com"])
        let third = String(try #require(try test.link(containing: "/password/edit?token=")).split(separator: "=", maxSplits: 1)[1])
        test.clock.advance(by: 3601)
        #expect(browser.get("/account/password/edit?token=\(third)").text.contains("The password reset link is invalid"))
    }
}
