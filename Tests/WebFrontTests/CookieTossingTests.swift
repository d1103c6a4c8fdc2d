// CookieTossingTests.swift: a sibling subdomain (or a plain-http network attacker) can set cookies for this host's
// name with `Domain=` and a longer `Path`, which the browser then sends first. Such a planted CSRF or social binding
// must not let the attacker post a signed-in form, sign the browser in to the attacker's account, or finish the
// attacker's social flow in the victim's browser.
import AccountCore
import Encodings
import Foundation
import Testing
@testable import WebFront

@Suite struct CookieTossingTests {
    /// The CSRF key makeApp gives every test site: an attacker knows no key, but can fetch a signed-out page of the
    /// real site and keep its pair (cookie value, form token); this computes that pair directly.
    let csrf = CSRF(key: Array(repeating: 9, count: 32))
    let binding = Data(repeating: 0xAB, count: 32)
    var plantedCookie: String { Base64URL.encode(binding) }
    var plantedToken: String { csrf.token(binding: binding) }

    private func language(_ test: TestApp) throws -> String? {
        try test.services.database.read { tx in try tx.value(String.self, "SELECT language FROM account WHERE id = 1") }
    }

    private func signedUp(_ test: TestApp, https: Bool = false) -> TestBrowser {
        let browser = TestBrowser(test.app)
        browser.https = https
        #expect(browser.post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse",
                                                  "password_confirmation": "correct horse"]).status == 303)
        return browser
    }

    @Test(arguments: [false, true])
    func aSignedInFormWithAPlantedPreSessionPairIsRefused(https: Bool) throws {
        let test = try makeApp { $0.confirmation.required = false }
        let victim = signedUp(test, https: https)
        // The browser's own pre-session cookie replaced by the attacker's (a longer Path, so it is the one read).
        victim.cookies = victim.cookies.filter { !$0.key.hasSuffix("frontdoor_csrf") }
        victim.cookies[https ? "__Host-frontdoor_csrf" : "frontdoor_csrf"] = plantedCookie
        let response = victim.post("/account/settings", ["display_name": "Mallory", "language": "de", "csrf_token": plantedToken])
        #expect(response.status == 403)
        #expect(try language(test) == "en", "the profile is unchanged")
        // The page's own (session-bound) token still works.
        #expect(victim.post("/account/settings", ["display_name": "Ann", "language": "fr"]).status == 303)
        #expect(try language(test) == "fr")
    }

    @Test func overHTTPSTheFormsBindingIsAHostOnlyCookieASiblingCannotSet() throws {
        let test = try makeApp { $0.confirmation.required = false }
        _ = signedUp(test)   // the attacker's account: ann@example.com
        let victim = TestBrowser(test.app)
        victim.https = true
        let page = victim.get("/account/sign_in")
        let own = try #require(page.cookies(named: "__Host-frontdoor_csrf").first)
        #expect(own.contains("Path=/;") && own.contains("Secure") && !own.contains("Domain="))
        #expect(page.cookies(named: "frontdoor_csrf").isEmpty)
        // A sibling can only set the plain name (a __Host- cookie with Domain= is refused by the browser): it is not read.
        victim.planted = "frontdoor_csrf=\(plantedCookie)"
        let login = victim.post("/account/sign_in", ["email": "ann@example.com", "password": "correct horse", "csrf_token": plantedToken])
        #expect(login.status == 403, "no sign-in to the attacker's account")
        #expect(login.cookies(named: "frontdoor_session").isEmpty)
    }

    @Test func twoCookiesOfTheBindingsNameAreRefused() throws {
        // Over plain http (development) the names have no prefix: a planted one beside the browser's own is refused.
        let test = try makeApp { $0.confirmation.required = false }
        _ = signedUp(test)
        let victim = TestBrowser(test.app)
        _ = victim.get("/account/sign_in")
        #expect(victim.cookies["frontdoor_csrf"] != nil)
        victim.planted = "frontdoor_csrf=\(plantedCookie)"
        let login = victim.post("/account/sign_in", ["email": "ann@example.com", "password": "correct horse", "csrf_token": plantedToken])
        #expect(login.status == 403)
        #expect(login.cookies(named: "frontdoor_session").isEmpty)
        victim.planted = nil
        #expect(victim.post("/account/sign_in", ["email": "ann@example.com", "password": "correct horse"]).status == 303)
    }

    @Test func aPlantedSocialBindingDoesNotFinishTheAttackersFlowInTheVictimsBrowser() throws {
        let test = try makeSocialApp(FakeGitHub()) { $0.confirmation.required = false }
        let victim = signedUp(test, https: true)
        // The attacker begins a flow in their own browser and stops before the callback.
        let attacker = TestBrowser(test.app)
        attacker.https = true
        let state = try #require(attacker.startSocial())
        let attackersBinding = try #require(attacker.cookies.first { $0.key.hasSuffix("frontdoor_oauth") }?.value)
        // …then tosses its binding into the victim's browser, and sends the victim to the callback with its state.
        victim.planted = "frontdoor_oauth=\(attackersBinding)"
        victim.callback("github", "code=attackers-code&state=\(state)")
        #expect(victim.get("/account/").text.contains("ann@example.com"), "still the victim's own account")
        let accounts = try test.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") }
        let identities = try test.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM socialIdentity") }
        #expect(accounts == 1 && identities == 0, "nothing made or linked from the attacker's identity")
    }

    @Test func twoSocialBindingsAreRefused() throws {
        let test = try makeSocialApp(FakeGitHub())
        let browser = TestBrowser(test.app)
        let state = try #require(browser.startSocial())
        let own = try #require(browser.cookies[RequestContext.socialBindingCookie])
        browser.planted = "frontdoor_oauth=\(own)"   // even the same value twice: which one was planted is unknowable
        browser.callback("github", "code=c&state=\(state)")
        #expect(browser.get("/account/sign_in").text.contains("expired or was already used"))
    }

    @Test func overHTTPSAPlantedSessionCookieOfAnotherAccountIsNotTheSession() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let attacker = signedUp(test, https: true)   // ann@example.com
        let token = try #require(attacker.cookies.first { $0.key.hasSuffix("frontdoor_session") }?.value)
        let victim = TestBrowser(test.app)
        victim.https = true
        let page = victim.get("/account/sign_in")
        #expect(page.cookies(named: "frontdoor_session").isEmpty)
        // A sibling can set only the plain name (with Domain= the parent): it is not this host's session cookie.
        victim.planted = "frontdoor_session=\(token)"
        #expect(!victim.get("/account/").text.contains("ann@example.com"), "not signed in to the attacker's account")
        // The host's own session cookie is __Host- (Path=/, Secure, no Domain) and is the one read.
        victim.planted = nil
        let signIn = victim.post("/account/sign_in", ["email": "ann@example.com", "password": "correct horse"])
        let own = try #require(signIn.cookies(named: "__Host-frontdoor_session").first)
        #expect(own.contains("Path=/;") && own.contains("Secure") && !own.contains("Domain="))
        #expect(victim.get("/account/").text.contains("ann@example.com"))
    }

    @Test(arguments: [false, true])
    func twoSessionCookiesSignTheBrowserOut(cookieDomain: Bool) throws {
        // With session.cookie_domain the cookie keeps its plain name (a Domain cookie cannot be __Host-); over plain
        // http it has it anyway. A planted one sent first beside the browser's own: neither account is signed in.
        let test = try makeApp { $0.confirmation.required = false; if cookieDomain { $0.session.cookieDomain = "example.com" } }
        let attacker = signedUp(test, https: cookieDomain)   // ann@example.com
        let token = try #require(attacker.cookies["frontdoor_session"])
        let victim = TestBrowser(test.app)
        victim.https = cookieDomain
        #expect(victim.post("/account/sign_up", ["email": "bob@example.com", "password": "correct horse",
                                                 "password_confirmation": "correct horse"]).status == 303)
        #expect(victim.get("/account/").text.contains("bob@example.com"))
        victim.planted = "frontdoor_session=\(token)"
        let page = victim.get("/account/").text
        #expect(!page.contains("ann@example.com"), "not the attacker's account")
        #expect(!page.contains("bob@example.com"), "signed out: which cookie was planted cannot be told")
    }
}
