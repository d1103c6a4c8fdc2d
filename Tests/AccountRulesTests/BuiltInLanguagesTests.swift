import Testing
@testable import AccountRules

/// Every shipped language is complete: the English keys, no others, and the same placeholders in each message.
struct BuiltInLanguagesTests {
    /// The `{name}` placeholders of `text`, as a set.
    static func placeholders(_ text: String) -> Set<String> {
        Set(text.matches(of: /\{([a-z_]+)\}/).map { String($0.output.1) })
    }

    @Test(arguments: ["fr", "de"])
    func aLanguageHasExactlyTheEnglishKeys(_ code: String) throws {
        let catalog = try #require(MessageCatalog.builtIn[code])
        let english = MessageCatalog.english.strings
        let missing = Set(english.keys).subtracting(catalog.strings.keys).sorted()
        let extra = Set(catalog.strings.keys).subtracting(english.keys).sorted()
        #expect(missing.isEmpty, "\(code) lacks \(missing)")
        #expect(extra.isEmpty, "\(code) has keys English lacks: \(extra)")
    }

    @Test(arguments: ["fr", "de"])
    func aLanguageKeepsEveryPlaceholder(_ code: String) throws {
        let catalog = try #require(MessageCatalog.builtIn[code])
        for (key, text) in MessageCatalog.english.strings {
            guard let translated = catalog.strings[key] else { continue }
            #expect(Self.placeholders(translated) == Self.placeholders(text), "\(code).\(key): \(translated)")
        }
    }

    /// A translation left in English is a missed message; the few that read the same in both are listed.
    @Test(arguments: ["fr", "de"])
    func aLanguageIsTranslated(_ code: String) throws {
        let catalog = try #require(MessageCatalog.builtIn[code])
        let same = MessageCatalog.english.strings.filter { key, text in catalog.strings[key] == text && text.count > 12 }
        #expect(same.isEmpty, "\(code) still has English: \(same.keys.sorted())")
    }

    @Test func eachLanguageNamesItselfInItsOwnWords() {
        #expect(MessageCatalog.builtIn["en"]?.text("language_name") == "English")
        #expect(MessageCatalog.builtIn["fr"]?.text("language_name") == "Français")
        #expect(MessageCatalog.builtIn["de"]?.text("language_name") == "Deutsch")
    }

    @Test func validationMessagesNameTheFieldInTheCatalogsLanguage() throws {
        let french = try #require(MessageCatalog.builtIn["fr"])
        let errors = AccountForms.signUp().validate(["email": "", "password": "long enough", "password_confirmation": "other"])
        let email = try #require(errors.messages(for: "email", in: french).first)
        #expect(email.contains(french.text("field_email")), "\(email)")
        let confirmation = try #require(errors.messages(for: "password_confirmation", in: french).first)
        #expect(confirmation.contains(french.text("field_password")), "\(confirmation)")
        #expect(!confirmation.contains("Password"), "\(confirmation)")
    }
}
