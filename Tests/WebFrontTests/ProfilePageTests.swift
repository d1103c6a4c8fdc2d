// ProfilePageTests.swift: `GET|POST <base>/settings`: the language choice shown, saved, cleared and refused.
import AccountCore
import Testing
@testable import WebFront

struct ProfilePageTests {
    /// An app with a browser signed up and signed in, with the switcher's cookie `cookie` at sign-up.
    private func signedIn(cookie: String? = nil) throws -> (TestApp, TestBrowser) {
        let test = try makeApp { $0.confirmation.required = false }
        let browser = TestBrowser(test.app)
        browser.cookies["frontdoor_lang"] = cookie
        #expect(browser.post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse",
                                                  "password_confirmation": "correct horse"]).status == 303)
        return (test, browser)
    }

    private func preference(_ test: TestApp) throws -> String? {
        try test.services.database.read { tx in try tx.value(String.self, "SELECT language FROM account WHERE id = 1") }
    }

    /// The `<option>` elements of the language choice.
    private func options(_ page: Response) -> [String] {
        page.text.matches(of: /<option [^>]*>[^<]*<\/option>/).map { String($0.output) }
    }

    @Test func thePageShowsTheChoiceWithTheAccountsPreferenceSelected() throws {
        let (_, browser) = try signedIn(cookie: "fr")
        let page = browser.get("/account/settings")
        #expect(page.status == 200)
        #expect(page.text.contains(#"<html lang="fr">"#))
        #expect(page.text.contains(#"<label for="language">Langue</label>"#))
        #expect(page.text.contains(#"<select id="language" name="language" aria-describedby="language-hint">"#))
        #expect(options(page) == [
            #"<option value="">Celle de mon navigateur</option>"#,
            #"<option value="en" lang="en">English</option>"#,
            #"<option value="fr" selected lang="fr">Français</option>"#,
            #"<option value="de" lang="de">Deutsch</option>"#,
        ])
        #expect(page.text.contains(#"<p class="field-hint" id="language-hint">Les pages et les e-mails de Frontdoor utilisent cette langue.</p>"#))
    }

    @Test func savingALanguageMakesItThePreferenceAndThePagesLanguage() throws {
        let (test, browser) = try signedIn()
        #expect(try preference(test) == "en")
        let saved = browser.post("/account/settings", ["display_name": "Ann", "language": "de"])
        #expect(saved.status == 303 && saved.header("Location") == "/account/settings")
        #expect(try preference(test) == "de")
        let page = browser.get("/account/settings", headers: ["Accept-Language": "fr"])
        #expect(page.text.contains(#"<html lang="de">"#))
        #expect(page.text.contains(#"<option value="de" selected lang="de">Deutsch</option>"#))
        #expect(page.text.contains(#"<option value="">Wie im Browser eingestellt</option>"#))
        #expect(try test.services.audit.list(AuditFilter(accountId: 1, event: .profileUpdated)).first?.detail == "display_name, language")
    }

    @Test func choosingTheBrowsersLanguageClearsThePreference() throws {
        let (test, browser) = try signedIn(cookie: "fr")
        browser.cookies["frontdoor_lang"] = nil
        #expect(browser.post("/account/settings", ["display_name": "", "language": ""]).status == 303)
        let isNull = try test.services.database.read { tx in try tx.value(Bool.self, "SELECT language IS NULL FROM account WHERE id = 1") }
        #expect(isNull == true)
        let page = browser.get("/account/settings", headers: ["Accept-Language": "de"])
        #expect(page.text.contains(#"<html lang="de">"#), "the browser's language again")
        #expect(options(page).first == #"<option value="" selected>Wie im Browser eingestellt</option>"#)
        #expect(!page.text.contains(#"value="fr" selected"#) && !page.text.contains(#"value="de" selected"#))
    }

    @Test func aLanguageNotOfferedIsAFieldErrorWithFocusAndNothingIsSaved() throws {
        let (test, browser) = try signedIn()
        let page = browser.post("/account/settings", ["display_name": "Ann", "language": "es"])
        #expect(page.status == 200)
        #expect(page.text.contains(#"<p class="field-error" id="language-error">Language is not one of the choices</p>"#))
        #expect(page.text.contains(#"<select id="language" name="language" aria-describedby="language-error" aria-invalid="true" autofocus>"#))
        #expect(page.text.contains(#"<p class="form-error" role="alert">Please correct the problems below.</p>"#))
        #expect(!page.text.contains(#"id="language-hint""#))
        #expect(options(page).allSatisfy { !$0.contains("selected") }, "no offered option claims the refused value")
        #expect(try preference(test) == "en")
        #expect(try test.services.profile.values(of: 1).displayName == "")
    }

    @Test func theErrorIsWordedInThePagesLanguage() throws {
        let (_, browser) = try signedIn(cookie: "fr")
        let page = browser.post("/account/settings", ["display_name": "", "language": "es"])
        #expect(page.text.contains("Langue\u{00A0}: cette valeur ne fait pas partie des choix proposés"))
    }

    @Test func focusGoesToTheFirstInvalidFieldOnly() throws {
        let (_, browser) = try signedIn()
        let page = browser.post("/account/settings", ["display_name": String(repeating: "a", count: 101), "language": "es"])
        #expect(page.text.contains(#"id="display_name-error">Display name is too long (maximum is 100 characters)</p>"#))
        #expect(page.text.matches(of: /\sautofocus[\s>]/).count == 1)
        #expect(page.text.contains(#"<input id="display_name" name="display_name""#)
                && page.text.firstMatch(of: /<input id="display_name"[^>]* autofocus[ >]/) != nil)
    }

    @Test func signedOutVisitorsAreSentToSignIn() throws {
        let test = try makeApp()
        let page = TestBrowser(test.app).get("/account/settings")
        #expect(page.status == 302 && page.header("Location")?.hasPrefix("/account/sign_in") == true)
    }
}
