// RequestContextTests.swift: the language of a request (account preference, switcher cookie, Accept-Language,
// default), what every page gets from it (`<html lang>`, wording, the switcher) and the per-language page cache.
import AccountCore
import Testing
@testable import WebFront

struct RequestContextTests {
    static let signUpForm = ["email": "ann@example.com", "password": "correct horse", "password_confirmation": "correct horse"]

    private func openApp(_ configure: @escaping (inout AppConfiguration) -> Void = { _ in }) throws -> TestApp {
        try makeApp { $0.confirmation.required = false; configure(&$0) }
    }

    /// The `<html lang>` of a page.
    private func lang(_ response: Response) -> String? {
        response.text.firstMatch(of: /<html lang="([^"]*)">/).map { String($0.output.1) }
    }

    private func storedLanguage(_ test: TestApp, _ email: String = "ann@example.com") throws -> String? {
        try test.services.database.read { tx in
            try tx.value(String.self, """
                SELECT a.language FROM account a JOIN emailAddress e ON e.accountId = a.id WHERE e.normalizedAddress = ?
                """, [email])
        }
    }

    @Test func acceptLanguagePicksThePagesLanguage() throws {
        let browser = TestBrowser(try openApp().app)
        let french = browser.get("/account/sign_up", headers: ["Accept-Language": "fr-CH, fr;q=0.9, en;q=0.8"])
        #expect(lang(french) == "fr")
        #expect(french.text.contains("Créer votre compte"))
        let german = browser.get("/account/sign_up", headers: ["Accept-Language": "es, de;q=0.5"])
        #expect(lang(german) == "de" && german.text.contains("Passwort"))
        let none = browser.get("/account/sign_up")
        #expect(lang(none) == "en" && none.text.contains("Create your account"))
        let unknown = browser.get("/account/sign_up", headers: ["Accept-Language": "es, pt;q=0.5"])
        #expect(lang(unknown) == "en", "nothing offered: the default")
    }

    @Test func theConfiguredDefaultServesAVisitorWhoseBrowserNamesNothingOffered() throws {
        let browser = TestBrowser(try openApp { $0.languages.defaultLanguage = "de" }.app)
        #expect(lang(browser.get("/account/sign_in")) == "de")
        #expect(lang(browser.get("/account/sign_in", headers: ["Accept-Language": "es"])) == "de")
        #expect(lang(browser.get("/account/sign_in", headers: ["Accept-Language": "fr"])) == "fr")
    }

    @Test func theSwitchersCookieBeatsAcceptLanguage() throws {
        let browser = TestBrowser(try openApp().app)
        browser.cookies["frontdoor_lang"] = "de"
        let page = browser.get("/account/sign_in", headers: ["Accept-Language": "fr"])
        #expect(lang(page) == "de")
        #expect(page.text.contains("Anmelden"))
        browser.cookies["frontdoor_lang"] = "es"
        #expect(lang(browser.get("/account/sign_in", headers: ["Accept-Language": "fr"])) == "fr", "a cookie naming no offered language is skipped")
    }

    @Test func theAccountsPreferenceBeatsTheCookieAndAcceptLanguage() throws {
        let test = try openApp()
        let browser = TestBrowser(test.app)
        browser.cookies["frontdoor_lang"] = "fr"
        #expect(browser.post("/account/sign_up", Self.signUpForm).status == 303)
        #expect(try storedLanguage(test) == "fr", "sign-up keeps the request's language as the account's preference")
        browser.cookies["frontdoor_lang"] = "de"
        let home = browser.get("/account/", headers: ["Accept-Language": "de"])
        #expect(lang(home) == "fr")
        #expect(home.text.contains("Vous utilisez le compte ann@example.com"))
        try test.services.profile.update(accountId: 1, form: ["display_name": "", "language": ""], client: ClientInfo())
        #expect(lang(browser.get("/account/", headers: ["Accept-Language": "fr"])) == "de", "no preference: the cookie again")
    }

    @Test func aSignUpWithoutCookieOrHeaderKeepsTheDefaultLanguage() throws {
        let test = try openApp { $0.languages.defaultLanguage = "de" }
        TestBrowser(test.app).post("/account/sign_up", Self.signUpForm)
        #expect(try storedLanguage(test) == "de")
    }

    @Test func theCachedSignInPageIsCachedPerLanguage() throws {
        let browser = TestBrowser(try openApp().app)
        let sequence = ["en", "fr", "en", "de", "fr"].map { code in (code, browser.get("/account/sign_in", headers: ["Accept-Language": code])) }
        let titles = ["en": "<h1>Sign in</h1>", "fr": "<h1>Connexion</h1>", "de": "<h1>Anmelden</h1>"]
        for (code, page) in sequence {
            #expect(lang(page) == code)
            #expect(page.text.contains(titles[code]!), "\(code)")
            for (other, title) in titles where other != code { #expect(!page.text.contains(title), "\(code) page has the \(other) title") }
        }
        let token = try #require(sequence[0].1.text.firstMatch(of: /name="csrf_token" value="([^"]+)"/)).1
        #expect(sequence[1].1.text.contains(#"value="\#(token)""#), "the cached French page still carries this browser's token")
        let tokens = Set(sequence[1].1.text.matches(of: /name="csrf_token" value="([^"]+)"/).map { String($0.output.1) })
        #expect(tokens == [String(token)], "the sign-in form's and the switcher's")
        let stranger = TestBrowser(browser.app).get("/account/sign_in", headers: ["Accept-Language": "fr"])
        #expect(!stranger.text.contains(#"value="\#(token)""#))
    }

    @Test func theSignUpPageIsCachedPerLanguageToo() throws {
        let browser = TestBrowser(try openApp().app)
        let english = browser.get("/account/sign_up")
        let french = browser.get("/account/sign_up", headers: ["Accept-Language": "fr"])
        let again = browser.get("/account/sign_up")
        #expect(english.text.contains("Create your account") && again.text.contains("Create your account"))
        #expect(french.text.contains("Créer votre compte") && !french.text.contains("Create your account"))
    }

    @Test func everyPageHasTheSwitcherWithTheCurrentLanguageDisabled() throws {
        let browser = TestBrowser(try openApp().app)
        let page = browser.get("/account/password/new?x=1", headers: ["Accept-Language": "fr"])
        #expect(page.text.contains(#"<form method="post" action="/account/language" class="language-switcher">"#))
        #expect(page.text.contains(#"<input type="hidden" name="back" value="/account/password/new?x=1">"#), "back to this page")
        #expect(page.text.contains(#"value="fr" lang="fr" class="link-button" aria-current="true" disabled>Français</button>"#))
        #expect(page.text.contains(#"value="en" lang="en" class="link-button">English</button>"#))
        #expect(page.text.contains(#"value="de" lang="de" class="link-button">Deutsch</button>"#))
        #expect(page.text.contains("<legend>Langue</legend>"))
        let cached = browser.get("/account/sign_in?")
        #expect(cached.text.contains(#"name="back" value="/account/sign_in">"#), "a cached page names its path only")
    }

    @Test func onlyTheOfferedLanguagesAreInTheSwitcher() throws {
        let page = TestBrowser(try openApp { $0.languages.available = "de, en" }.app).get("/account/sign_in", headers: ["Accept-Language": "fr"])
        #expect(lang(page) == "en")
        #expect(!page.text.contains(#"value="fr""#))
        let buttons = page.text.matches(of: /name="lang" value="([a-z-]+)"/).map { String($0.output.1) }
        #expect(buttons == ["de", "en"])
    }

    @Test func theLogoComesBeforeTheSiteName() throws {
        let page = TestBrowser(try openApp { $0.logoURL = "/static/logo.svg" }.app).get("/account/sign_in")
        #expect(page.text.contains(#"<img class="site-logo" src="/static/logo.svg" alt="" width="32" height="32"><span>Frontdoor</span>"#))
    }

    @Test func withoutALogoThereIsNoImage() throws {
        // logo_url "" (the default) means no logo: an <img src=""> would be a broken image that requests the page again.
        let page = TestBrowser(try openApp().app).get("/account/sign_in")
        #expect(!page.text.contains("site-logo"))
        #expect(page.text.contains(#"<a class="site-name" href="/account/"><span>Frontdoor</span></a>"#))
    }

    @Test func anOperatorsMessageReplacesTheWordingOfItsLanguageOnly() throws {
        let browser = TestBrowser(try openApp { $0.languages.messages = ["fr": ["sign_in_title": "Entrez"]] }.app)
        #expect(browser.get("/account/sign_in", headers: ["Accept-Language": "fr"]).text.contains("<h1>Entrez</h1>"))
        #expect(browser.get("/account/sign_in").text.contains("<h1>Sign in</h1>"))
    }

    @Test func apiRequestsFollowAcceptLanguageOnlyNotTheCookie() throws {
        let app = try openApp().app
        let api = APIClient(app)
        let german = api.send("GET", "v1/nothing-here", headers: ["Accept-Language": "de", "Cookie": "frontdoor_lang=fr"])
        #expect(german.status == 404)
        #expect(german.message == "Unter dieser Adresse gibt es nichts.")
        let cookieOnly = api.send("GET", "v1/nothing-here", headers: ["Cookie": "frontdoor_lang=fr"])
        #expect(cookieOnly.message == "There is nothing at this address.")
    }

    @Test func anAPISignUpKeepsTheAcceptLanguageAsThePreference() throws {
        let test = try openApp()
        let answer = APIClient(test.app).send("POST", "v1/users", ["user": ["email": "ann@example.com", "password": "correct horse"]],
                                              headers: ["Accept-Language": "de-AT, fr;q=0.5"])
        #expect(answer.status == 201)
        #expect(try storedLanguage(test) == "de")
    }
}
