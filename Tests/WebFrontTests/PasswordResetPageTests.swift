import AccountCore
import Foundation
import MailTestKit
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
        #expect(try test.deliveredMail().last?.body("text/plain")?.contains("The password of your account was just changed") == true)
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

    /// The decoded subject and the text of the newest delivered mail.
    private func newestMail(_ test: TestApp) throws -> (subject: String, text: String) {
        let mail = try #require(try test.deliveredMail().last)
        return (try mail.subject, mail.readable)
    }

    @Test func theReminderIsInTheAccountsLanguageElseInTheRequestsLanguage() throws {
        let test = try makeApp()
        let owner = TestBrowser(test.app)
        owner.cookies["frontdoor_lang"] = "de"
        owner.post("/account/sign_up", ["email": "cy@example.com", "password": "old password", "password_confirmation": "old password"])
        #expect(try newestMail(test).subject.hasPrefix("Bestätigen Sie"), "the confirmation mail: the new account's language")
        let confirm = try #require(try test.link(containing: "/confirm?token="))
        owner.get(String(confirm.dropFirst("http://127.0.0.1:8080".count)))
        let stranger = TestBrowser(test.app)
        stranger.cookies["frontdoor_lang"] = "fr"
        stranger.post("/account/password/new", ["email": "cy@example.com"])
        let german = try newestMail(test)
        #expect(german.subject == "Ihr Passwort für Frontdoor zurücksetzen", "the account's preference, not the French request")
        #expect(german.text.contains(#"<html lang="de">"#))
        try test.services.profile.update(accountId: 1, form: ["display_name": "", "language": ""], client: ClientInfo())
        test.clock.advance(by: 61)
        stranger.post("/account/password/new", ["email": "cy@example.com"])
        let french = try newestMail(test)
        #expect(french.subject == "Réinitialisez votre mot de passe pour Frontdoor", "no preference: the request's language")
        #expect(french.text.contains(#"<html lang="fr">"#))
    }
}
