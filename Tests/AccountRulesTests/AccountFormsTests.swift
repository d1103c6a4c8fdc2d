import Testing
@testable import AccountRules

struct AccountFormsTests {
    func form(email: String = "ann@example.com", password: String, confirmation: String? = nil) -> [String: String] {
        ["email": email, "password": password, "password_confirmation": confirmation ?? password]
    }

    @Test func passwordsOfTwelveToOneHundredTwentyEightCharactersAreAcceptedByDefault() {
        let validator = AccountForms.signUp()
        #expect(AccountForms.defaultPasswordLength == 12...128)
        #expect(validator.validate(form(password: "pqrs tuvw xy")).isEmpty)
        #expect(validator.validate(form(password: String(repeating: "pq", count: 64))).isEmpty)
        #expect(validator.validate(form(password: String(repeating: "p", count: 11))).keys(for: "password") == ["too_short"])
        let tooLong = validator.validate(form(password: String(repeating: "p", count: 129)))
        #expect(tooLong.messages(for: "password", in: .english) == ["Password is too long (maximum is 128 characters)"])
    }

    @Test func theConfiguredPasswordLengthsApply() {
        let validator = AccountForms.signUp(passwordLength: 12...16)
        #expect(validator.validate(form(password: "elevenchars")).messages(for: "password", in: .english)
            == ["Password is too short (minimum is 12 characters)"])
        #expect(validator.validate(form(password: String(repeating: "p", count: 17))).keys(for: "password") == ["too_long"])
    }

    @Test func aBlankFormAsksForEmailAndPassword() {
        let errors = AccountForms.signUp().validate([:])
        #expect(errors.fieldNames == ["email", "password"])
        #expect(errors.messages(for: "email", in: .english) == ["Email can't be blank"])
        #expect(errors.messages(for: "password", in: .english) == ["Password can't be blank"])
    }

    @Test func displayNamesComeFromTheCatalog() {
        let catalog = MessageCatalog.english.merging(["field_email": "E-mail address", "field_password": "Passphrase"])
        let validator = AccountForms.signUp(catalog: catalog)
        let errors = validator.validate(form(email: "nope", password: "long enough", confirmation: "other"))
        #expect(errors.messages(for: "email", in: catalog) == ["E-mail address is not a valid email address"])
        #expect(errors.messages(for: "password_confirmation", in: catalog) == ["Password confirmation doesn't match Passphrase"])
    }

    @Test func extraFieldsAreValidatedAfterTheStandardOnes() {
        let validator = AccountForms.signUp(extra: [Field("username", displayName: "Username", rules: [.required])])
        let errors = validator.validate(form(password: "long enough now"))
        #expect(errors.fieldNames == ["username"])
    }
}
