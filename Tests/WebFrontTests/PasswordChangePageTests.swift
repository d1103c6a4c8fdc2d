// PasswordChangePageTests.swift: `settings/password`: its errors name the new password as the form labels it, in the
// page's language, with focus on the first problem.
import AccountCore
import Testing
@testable import WebFront

struct PasswordChangePageTests {
    /// A browser signed up just now (so its sign-in is recent), with the switcher's cookie `language`.
    private func signedIn(language: String? = nil) throws -> TestBrowser {
        let browser = TestBrowser(try makeApp { $0.confirmation.required = false }.app)
        browser.cookies["frontdoor_lang"] = language
        browser.post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse", "password_confirmation": "correct horse"])
        return browser
    }

    @Test func theErrorsSayNewPassword() throws {
        let browser = try signedIn()
        #expect(browser.get("/account/settings/password").text.contains(#"<label for="password">New password</label>"#))
        let page = browser.post("/account/settings/password", ["current_password": "correct horse", "password": "short",
                                                                "password_confirmation": "shirt"])
        #expect(page.status == 200)
        #expect(page.text.contains(#"<p class="field-error" id="password-error">New password is too short (minimum is 12 characters)</p>"#))
        #expect(page.text.contains(#"id="password_confirmation-error">Password confirmation doesn&#39;t match New password</p>"#))
        #expect(!page.text.contains("doesn&#39;t match Password<"), "never the sign-up form's name")
        #expect(!page.text.contains(#"value="short""#) && !page.text.contains(#"value="shirt""#))
    }

    @Test func aBlankNewPasswordIsNamedByTheLabelToo() throws {
        let browser = try signedIn()
        let page = browser.post("/account/settings/password", ["current_password": "correct horse", "password": "", "password_confirmation": ""])
        #expect(page.text.contains(#"id="password-error">New password can&#39;t be blank</p>"#))
    }

    @Test func inFrenchTheErrorsSayNouveauMotDePasse() throws {
        let browser = try signedIn(language: "fr")
        let page = browser.post("/account/settings/password", ["current_password": "correct horse", "password": "short",
                                                                "password_confirmation": "shirt"])
        #expect(page.text.contains(#"<html lang="fr">"#))
        #expect(page.text.contains("id=\"password-error\">Nouveau mot de passe\u{00A0}: cette valeur est trop courte (au moins 12 caractères)</p>"))
        #expect(page.text.contains("au champ «\u{00A0}Nouveau mot de passe\u{00A0}»"))
    }

    @Test func focusGoesToTheFirstProblemOnly() throws {
        let browser = try signedIn()
        let wrong = browser.post("/account/settings/password", ["current_password": "not my password", "password": "short",
                                                                 "password_confirmation": "shirt"])
        #expect(wrong.text.contains("Current password is not correct"))
        let focused = wrong.text.matches(of: /<input id="([a-z_]+)"[^>]*\sautofocus[\s>]/).map { String($0.output.1) }
        #expect(focused == ["current_password"])
        #expect(wrong.text.matches(of: /autofocus/).count == 1)
    }
}
