import AccountCore
import Testing
@testable import WebFront

struct FrontdoorTests {
    let signUpForm = ["email": "Ann@Example.com", "password": "correct horse", "password_confirmation": "correct horse"]

    @Test func signUpSignsInAndTheHomeNamesTheAccount() throws {
        let app = try makeApp { $0.confirmation.required = false }.app
        let browser = TestBrowser(app)
        let response = browser.post("/account/sign_up", signUpForm)
        #expect(response.status == 303)
        #expect(response.header("Location") == "/account/")
        let home = browser.get("/account/")
        #expect(home.status == 200)
        #expect(home.text.contains("Signed in as Ann@Example.com"))
        #expect(home.text.contains("Welcome! Your account has been created."))
    }

    @Test func everyProblemOfTheSignUpFormIsShownAtOnceAndTheEmailKept() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let (app, services) = (test.app, test.services)
        let browser = TestBrowser(app)
        let page = browser.post("/account/sign_up", ["email": "not-an-email", "password": "abc", "password_confirmation": "abd"])
        #expect(page.status == 200)
        #expect(page.text.contains(#"<p class="field-error" id="email-error">Email is not a valid email address</p>"#))
        #expect(page.text.contains("Password is too short (minimum is 12 characters)"))
        #expect(page.text.contains("Password confirmation doesn&#39;t match Password") || page.text.contains("doesn't match Password"))
        #expect(page.text.contains(#"value="not-an-email""#))
        #expect(!page.text.contains(#"value="abc""#))
        #expect(try services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } == 0)
    }

    @Test func aPostWithoutAValidTokenIsForbiddenAndChangesNothing() throws {
        let test = try makeApp { $0.confirmation.required = false }
        let (app, services) = (test.app, test.services)
        let browser = TestBrowser(app)
        _ = browser.get("/account/sign_up")
        #expect(browser.post("/account/sign_up", signUpForm, csrf: false).status == 403)
        var forged = signUpForm
        forged["csrf_token"] = "AAAA"
        #expect(browser.post("/account/sign_up", forged).status == 403)
        let stranger = TestBrowser(app)
        forged["csrf_token"] = browser.csrfToken(for: "/account/sign_up")
        #expect(stranger.post("/account/sign_up", forged).status == 403, "a token is bound to the browser that got it")
        #expect(try services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } == 0)
    }

    @Test func signInFailuresAllSayTheSameThing() throws {
        let app = try makeApp { $0.confirmation.required = false }.app
        TestBrowser(app).post("/account/sign_up", signUpForm)
        let browser = TestBrowser(app)
        let wrong = browser.post("/account/sign_in", ["email": "ann@example.com", "password": "wrong password"])
        let unknown = browser.post("/account/sign_in", ["email": "nobody@example.com", "password": "wrong password"])
        #expect(wrong.status == 200 && unknown.status == 200)
        #expect(wrong.text.contains("Invalid email or password."))
        let strip = { (text: String) in text.replacing(/value="[^"]*"/, with: "") }
        #expect(strip(wrong.text) == strip(unknown.text))
    }

    @Test func signInRotatesTheSessionAndReturnsToACheckedTarget() throws {
        let app = try makeApp { $0.confirmation.required = false }.app
        let browser = TestBrowser(app)
        browser.post("/account/sign_up", signUpForm)
        let first = try #require(browser.cookies["frontdoor_session"])
        let signIn = browser.post("/account/sign_in", ["email": "ANN@example.com", "password": "correct horse", "rd": "/wiki/page?x=1"])
        #expect(signIn.status == 303)
        #expect(signIn.header("Location") == "/wiki/page?x=1")
        let second = try #require(browser.cookies["frontdoor_session"])
        #expect(first != second)
        let old = TestBrowser(app)
        old.cookies["frontdoor_session"] = first
        #expect(old.get("/account/").status == 302, "the session from before sign-in was ended")
        let evil = browser.post("/account/sign_in", ["email": "ann@example.com", "password": "correct horse", "rd": "//evil.example/"])
        #expect(evil.header("Location") == "/account/")
    }

    @Test func theHomeSendsStrangersToSignInAndBack() throws {
        let app = try makeApp { $0.confirmation.required = false }.app
        let response = TestBrowser(app).get("/account/?tab=1")
        #expect(response.status == 302)
        #expect(response.header("Location") == "/account/sign_in?rd=%2Faccount%2F%3Ftab%3D1")
    }

    @Test func signOutEndsTheSession() throws {
        let app = try makeApp { $0.confirmation.required = false }.app
        let browser = TestBrowser(app)
        browser.post("/account/sign_up", signUpForm)
        let token = try #require(browser.cookies["frontdoor_session"])
        #expect(browser.post("/account/sign_out", [:], csrf: false).status == 403)
        let out = browser.post("/account/sign_out", [:])
        #expect(out.status == 303)
        #expect(out.header("Location") == "/account/sign_in")
        #expect(browser.cookies["frontdoor_session"] == nil)
        let replay = TestBrowser(app)
        replay.cookies["frontdoor_session"] = token
        #expect(replay.get("/account/").status == 302)
    }

    @Test func cookiesAreHttpOnlyLaxAndSecureOverHTTPS() throws {
        let app = try makeApp { $0.confirmation.required = false }.app
        let browser = TestBrowser(app)
        browser.https = true
        let response = browser.post("/account/sign_up", signUpForm)
        // Host-bound over https: a sibling subdomain cannot set a __Host- cookie.
        let cookie = try #require(response.cookies(named: "__Host-frontdoor_session").first)
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Secure") && cookie.contains("Path=/;"))
        #expect(!cookie.contains("Domain="), "host-only unless session.cookie_domain is set")
        let plain = TestBrowser(app).get("/account/sign_in").cookies(named: "frontdoor_csrf").first ?? ""
        #expect(plain.contains("HttpOnly") && !plain.contains("Secure"))
    }

    @Test func errorsBecomePagesWithTheirStatus() throws {
        let app = try makeApp { $0.confirmation.required = false }.app
        let browser = TestBrowser(app)
        #expect(browser.get("/account/nope").status == 404)
        #expect(browser.get("/elsewhere").status == 404)
        let wrongMethod = browser.get("/account/switch")   // POST only (sign_out has its GET page now)
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "POST")
        let tooLarge = app.respond(to: Request(params: ["REQUEST_METHOD": "POST", "REQUEST_URI": "/account/sign_in"], bodyTooLarge: true))
        #expect(tooLarge.status == 413)
        #expect(tooLarge.text.contains("too large"))
    }

    @Test func anErrorPageSaysWhatHappenedAndTheStatusInThePagesLanguage() throws {
        let browser = TestBrowser(try makeApp().app)
        let missing = browser.get("/account/nope")
        #expect(missing.text.contains("<h1>Page not found</h1>") && missing.text.contains("<title>Page not found · Frontdoor</title>"))
        #expect(missing.text.contains(#"<p class="error-message">There is no page at this address.</p>"#))
        #expect(missing.text.contains(#"<p class="error-status">Error 404</p>"#))
        let method = browser.get("/account/switch")
        #expect(method.text.contains("<h1>Something went wrong</h1>") && method.text.contains(#"<p class="error-status">Error 405</p>"#))
        #expect(!method.text.contains("Page not found"))
        let french = browser.get("/account/nope", headers: ["Accept-Language": "fr"])
        #expect(french.status == 404 && french.text.contains(#"<html lang="fr">"#))
        #expect(french.text.contains("<h1>Page introuvable</h1>") && french.text.contains(#"<p class="error-status">Erreur 404</p>"#))
    }

    @Test func aLogoOnAnotherHostIsAllowedByTheContentSecurityPolicy() throws {
        // logo_url may be "an https URL" (config docs); the page's img-src must then let the browser load it.
        let app = try makeApp { $0.logoURL = "https://cdn.example.com/brand/logo.png" }.app
        let page = TestBrowser(app).get("/account/sign_in")
        #expect(page.text.contains(#"src="https://cdn.example.com/brand/logo.png""#))
        let policy = page.header("Content-Security-Policy") ?? ""
        let imgSrc = policy.split(separator: ";").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("img-src") } ?? ""
        #expect(imgSrc.contains("https://cdn.example.com"), "\(imgSrc)")
    }

    @Test func everyResponseCarriesTheSecurityHeaders() throws {
        let app = try makeApp { $0.confirmation.required = false }.app
        for response in [TestBrowser(app).get("/account/sign_in"), TestBrowser(app).get("/account/missing")] {
            #expect(response.header("X-Frame-Options") == "DENY")
            #expect(response.header("X-Content-Type-Options") == "nosniff")
            #expect(response.header("Referrer-Policy") != nil)
            let csp = try #require(response.header("Content-Security-Policy"))
            #expect(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"))
        }
    }

    @Test func pagesLinkUnderTheConfiguredBasePath() throws {
        let app = try makeApp { $0.basePath = "/auth" }.app
        let page = TestBrowser(app).get("/auth/sign_in")
        #expect(page.status == 200)
        #expect(page.text.contains(#"action="/auth/sign_in""#))
        #expect(page.text.contains(#"href="/auth/static/css/frontdoor.css""#))
        #expect(page.cookies(named: "frontdoor_csrf").first?.contains("Path=/auth") == true)
    }
}

struct PageCacheTests {
    @Test func theTokenIsPutInEveryPlaceTheMarkerStood() {
        let marker = PageCache.tokenMarker
        let cache = PageCache()
        var renders = 0
        let first = cache.page("k", token: "AAA") { m in renders += 1; return "<a>\(m)</a><b>\(m)</b>" }
        let second = cache.page("k", token: "BBB") { m in renders += 1; return "changed \(m)" }
        #expect(String(decoding: first, as: UTF8.self) == "<a>AAA</a><b>AAA</b>")
        #expect(String(decoding: second, as: UTF8.self) == "<a>BBB</a><b>BBB</b>" && renders == 1)
        #expect(PageCache.split(Array("x\(marker)".utf8), on: Array(marker.utf8)).count == 2)
    }

    @Test func cachedSignInPagesCarryEachVisitorsOwnWorkingToken() throws {
        let app = try makeApp { $0.confirmation.required = false }.app
        let ann = TestBrowser(app), bob = TestBrowser(app)
        let annPage = ann.get("/account/sign_in").text, bobPage = bob.get("/account/sign_in").text
        let token = { (page: String) in String(page.firstMatch(of: /name="csrf_token" value="([^"]+)"/)!.1) }
        #expect(token(annPage) != token(bobPage) && !annPage.contains("\u{1}"))
        #expect(annPage.replacingOccurrences(of: token(annPage), with: "T") == bobPage.replacingOccurrences(of: token(bobPage), with: "T"))
        // Bob's cached page's token is Bob's: it works for his form, not for Ann's browser.
        let form = ["email": "Bob@Example.com", "password": "correct horse", "password_confirmation": "correct horse"]
        #expect(bob.post("/account/sign_up", form.merging(["csrf_token": token(bobPage)]) { $1 }).status == 303)
        #expect(ann.post("/account/sign_in", ["email": "Bob@Example.com", "password": "correct horse", "csrf_token": token(bobPage)]).status == 403)
        // With a return target or a flash the page is rendered afresh.
        #expect(TestBrowser(app).get("/account/sign_in?rd=%2Faccount%2Fx").text.contains(#"name="rd" value="/account/x""#))
    }
}
