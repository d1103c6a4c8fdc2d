// FormViewTests.swift: the template values of a re-shown form: labels (and the field names in errors), and
// `autofocus` on the first invalid field only.
import AccountRules
import Testing
@testable import WebFront

struct FormViewTests {
    private let inputs: [InputSpec] = [
        .email(autocomplete: "username"),
        .password("password", autocomplete: "new-password", labelKey: "field_new_password"),
        .password("password_confirmation", autocomplete: "new-password"),
    ]

    private func field(_ values: [String: Any], _ name: String) -> [String: Any] {
        (values["fields"] as? [String: Any])?[name] as? [String: Any] ?? [:]
    }

    @Test func onlyTheFirstInvalidFieldGetsTheFocus() {
        let errors = AccountForms.signUp().validate(["email": "ann@example.com", "password": "abc", "password_confirmation": "abd"])
        #expect(errors.fieldNames == ["password", "password_confirmation"])
        let values = FormView.fields(inputs, form: [:], errors: errors, catalog: .english)
        #expect(field(values, "email")["autofocus"] as? Bool == false)
        #expect(field(values, "password")["autofocus"] as? Bool == true)
        #expect(field(values, "password_confirmation")["autofocus"] as? Bool == false, "invalid too, but not the first")
        #expect(field(values, "password_confirmation")["invalid"] as? Bool == true)
        let valid = FormView.fields(inputs, form: [:], catalog: .english)
        #expect(["email", "password", "password_confirmation"].allSatisfy { field(valid, $0)["autofocus"] as? Bool == false })
    }

    @Test func aLabelKeyNamesTheFieldInItsLabelAndInEveryMessageAboutIt() {
        let errors = AccountForms.signUp().validate(["email": "ann@example.com", "password": "abc", "password_confirmation": "abd"])
        let values = FormView.fields(inputs, form: [:], errors: errors, catalog: .english)
        #expect(field(values, "password")["label"] as? String == "New password")
        #expect(field(values, "password")["error"] as? String == "New password is too short (minimum is 12 characters)")
        #expect(field(values, "password_confirmation")["error"] as? String == "Password confirmation doesn't match New password")
        let french = FormView.fields(inputs, form: [:], errors: errors, catalog: .french)
        #expect(field(french, "password")["label"] as? String == "Nouveau mot de passe")
        #expect(field(french, "password_confirmation")["error"] as? String
                == "Confirmation du mot de passe\u{00A0}: cette valeur ne correspond pas au champ «\u{00A0}Nouveau mot de passe\u{00A0}»")
        #expect(field(french, "email")["label"] as? String == "Adresse e-mail")
    }

    // Through the sign-up page.

    private func signUp(_ form: [String: String], language: String? = nil) throws -> Response {
        let browser = TestBrowser(try makeApp { $0.confirmation.required = false }.app)
        browser.cookies["frontdoor_lang"] = language
        return browser.post("/account/sign_up", form)
    }

    /// The ids of the inputs carrying `autofocus`.
    private func focused(_ page: Response) -> [String] {
        page.text.matches(of: /<input id="([a-z_]+)"[^>]*\sautofocus[\s>]/).map { String($0.output.1) }
    }

    @Test func anInvalidSignUpFocusesItsFirstInvalidFieldOnly() throws {
        let page = try signUp(["email": "ann@example.com", "password": "abc", "password_confirmation": "abd"])
        #expect(page.status == 200)
        #expect(focused(page) == ["password"])
        #expect(page.text.matches(of: /autofocus/).count == 1)
        #expect(page.text.contains(#"aria-invalid="true" aria-describedby="password_confirmation-error""#))
        let all = try signUp(["email": "nope", "password": "abc", "password_confirmation": "abd"])
        #expect(focused(all) == ["email"])
        #expect(all.text.matches(of: /autofocus/).count == 1)
    }

    @Test func aFreshFormFocusesNothing() throws {
        let page = TestBrowser(try makeApp().app).get("/account/sign_up")
        #expect(focused(page).isEmpty && !page.text.contains("autofocus"))
    }

    @Test func frenchSignUpErrorsNameTheFieldsAsTheFormLabelsThem() throws {
        let page = try signUp(["email": "", "password": "correct horse", "password_confirmation": "correct horse"], language: "fr")
        #expect(page.text.contains(#"<label for="email">Adresse e-mail</label>"#))
        #expect(page.text.contains("<p class=\"field-error\" id=\"email-error\">Adresse e-mail\u{00A0}: ce champ doit être rempli</p>"))
        #expect(page.text.contains(#"<p class="form-error" role="alert">Veuillez corriger les erreurs ci-dessous.</p>"#))
    }

    @Test func germanSignUpErrorsQuoteTheGermanName() throws {
        let page = try signUp(["email": "", "password": "correct horse", "password_confirmation": "correct horse"], language: "de")
        #expect(page.text.contains("id=\"email-error\">„E-Mail-Adresse“ muss ausgefüllt werden</p>"))
    }
}
