// LanguageActionTests.swift: `POST <base>/language`, the language switcher: cookie, account preference, flash, the
// checked way back, CSRF, and a language not offered.
import AccountCore
import Testing
@testable import WebFront

struct LanguageActionTests {
    private func openApp(_ configure: @escaping (inout AppConfiguration) -> Void = { _ in }) throws -> TestApp {
        try makeApp { $0.confirmation.required = false; configure(&$0) }
    }

    private func preference(_ test: TestApp) throws -> String? {
        try test.services.database.read { tx in try tx.value(String.self, "SELECT language FROM account WHERE id = 1") }
    }

    /// A browser signed up (in English) and signed in.
    private func signedIn(_ test: TestApp) -> TestBrowser {
        let browser = TestBrowser(test.app)
        browser.post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse", "password_confirmation": "correct horse"])
        return browser
    }

    @Test func choosingALanguageSetsTheCookieAndTheFlashAndGoesBack() throws {
        let browser = TestBrowser(try openApp().app)
        browser.get("/account/sign_up")
        let response = browser.post("/account/language", ["lang": "fr", "back": "/account/sign_up"])
        #expect(response.status == 303)
        #expect(response.header("Location") == "/account/sign_up")
        #expect(response.cookies(named: "frontdoor_lang") == ["frontdoor_lang=fr; Path=/account; Max-Age=31536000; HttpOnly; SameSite=Lax"])
        #expect(browser.cookies["frontdoor_lang"] == "fr")
        let page = browser.get("/account/sign_up", headers: ["Accept-Language": "en"])
        #expect(page.text.contains(#"<html lang="fr">"#))
        #expect(page.text.contains(#"role="status">Désormais, les pages s’affichent en français.</div>"#))
        let next = browser.get("/account/sign_up")
        #expect(next.text.contains(#"<html lang="fr">"#) && !next.text.contains("Désormais"), "the flash is shown once")
    }

    @Test func theFlashIsInTheChosenLanguage() throws {
        let browser = TestBrowser(try openApp().app)
        browser.cookies["frontdoor_lang"] = "fr"
        browser.post("/account/language", ["lang": "de", "back": "/account/sign_in"])
        #expect(browser.get("/account/sign_in").text.contains("Seiten werden ab jetzt auf Deutsch angezeigt."))
        browser.post("/account/language", ["lang": "en", "back": "/account/sign_in"])
        #expect(browser.get("/account/sign_in").text.contains("From now on, pages are shown in English."))
        #expect(browser.cookies["frontdoor_lang"] == "en")
    }

    @Test func aSignedInPersonsAccountTakesTheChoiceAsItsPreference() throws {
        let test = try openApp()
        let browser = signedIn(test)
        #expect(try preference(test) == "en")
        #expect(browser.post("/account/language", ["lang": "de", "back": "/account/settings"]).header("Location") == "/account/settings")
        #expect(try preference(test) == "de")
        browser.cookies["frontdoor_lang"] = nil
        let home = browser.get("/account/", headers: ["Accept-Language": "fr"])
        #expect(home.text.contains(#"<html lang="de">"#), "the preference, without the cookie and against the browser")
    }

    @Test func theWayBackIsCheckedLikeEveryReturnTarget() throws {
        let test = try openApp { $0.redirect.allowedHosts = "app.example.com" }
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/language", ["lang": "fr", "back": "https://evil.example/phish"]).header("Location") == "/account/")
        #expect(browser.post("/account/language", ["lang": "fr", "back": "//evil.example/"]).header("Location") == "/account/")
        #expect(browser.post("/account/language", ["lang": "fr", "back": "https://app.example.com/page?x=1"]).header("Location")
                == "https://app.example.com/page?x=1")
        #expect(browser.post("/account/language", ["lang": "fr"]).header("Location") == "/account/", "no way back: home")
        #expect(browser.post("/account/language", ["lang": "fr", "back": "/account/password/new?x=1"]).header("Location")
                == "/account/password/new?x=1")
    }

    @Test func withoutAValidTokenItIsForbiddenAndChangesNothing() throws {
        let test = try openApp()
        let browser = signedIn(test)
        let missing = browser.post("/account/language", ["lang": "de", "back": "/account/"], csrf: false)
        #expect(missing.status == 403)
        let forged = browser.post("/account/language", ["lang": "de", "back": "/account/", "csrf_token": "AAAA"])
        #expect(forged.status == 403)
        #expect(missing.cookies(named: "frontdoor_lang").isEmpty && forged.cookies(named: "frontdoor_lang").isEmpty)
        #expect(browser.cookies["frontdoor_lang"] == nil)
        #expect(try preference(test) == "en")
        #expect(!browser.get("/account/").text.contains("From now on"))
    }

    @Test(arguments: ["es", "", "fr-CH", "de\"><script>", "xx"])
    func aLanguageNotOfferedChangesNothingButStillGoesBack(lang: String) throws {
        let test = try openApp()
        let browser = signedIn(test)
        browser.cookies["frontdoor_lang"] = "de"
        let response = browser.post("/account/language", ["lang": lang, "back": "/account/settings"])
        #expect(response.status == 303 && response.header("Location") == "/account/settings")
        #expect(response.cookies(named: "frontdoor_lang").isEmpty)
        #expect(browser.cookies["frontdoor_lang"] == "de")
        #expect(try preference(test) == "en")
        let home = browser.get("/account/")
        #expect(!home.text.contains("From now on") && !home.text.contains("Seiten werden ab jetzt"), "no flash")
    }

    @Test func aLanguageOfferedButNotBuiltInCanBeChosen() throws {
        let browser = TestBrowser(try openApp { $0.languages.available = "en, pt-br" }.app)
        browser.post("/account/language", ["lang": "pt-br", "back": "/account/sign_in"])
        #expect(browser.cookies["frontdoor_lang"] == "pt-br")
        let page = browser.get("/account/sign_in")
        #expect(page.text.contains(#"<html lang="pt-br">"#) && page.text.contains("<h1>Sign in</h1>"))
        #expect(page.text.contains(#"value="pt-br" lang="pt-br" class="link-button" aria-current="true" disabled>pt-br</button>"#))
    }

    @Test func onlyAPostReachesTheSwitcher() throws {
        let browser = TestBrowser(try openApp().app)
        #expect(browser.get("/account/language?lang=fr").status == 405)
        #expect(browser.cookies["frontdoor_lang"] == nil)
    }
}
