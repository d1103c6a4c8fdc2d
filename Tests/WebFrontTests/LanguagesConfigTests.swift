// LanguagesConfigTests.swift: config section `languages`, the file-only `messages` overrides (MessagesConfig) and
// `logo_url`: reading, checking and printing them.
import Foundation
import Testing
@testable import WebFront

struct LanguagesConfigTests {
    /// Reads `yaml` as a config file, with `environment` on top.
    private func readFile(_ yaml: String, environment: [String: String] = [:]) throws -> AppConfiguration {
        let path = NSTemporaryDirectory() + "frontdoor-languages-\(UUID().uuidString).yml"
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ConfigReader.read(file: path, environment: environment)
    }

    /// The description of the ConfigError reading `yaml` throws ("no error" when it reads).
    private func failure(_ yaml: String, environment: [String: String] = [:]) -> String {
        do {
            _ = try readFile(yaml, environment: environment)
            return "no error"
        } catch let error as ConfigError {
            return error.description
        } catch {
            return "unexpected \(error)"
        }
    }

    // MARK: languages

    @Test func theDefaultsOfferEnglishFrenchAndGermanWithEnglishFirstAndNoLogo() throws {
        let config = try ConfigReader.read(file: nil, environment: [:])
        #expect(config.languages.availableList == ["en", "fr", "de"])
        #expect(config.languages.defaultLanguage == "en")
        #expect(config.languages.messages.isEmpty)
        #expect(config.logoURL == "")
        #expect(config.core.languages == ["en", "fr", "de"], "the core checks an account's preference against them")
    }

    @Test func availableAndDefaultAreReadLowerCasedInOrderEachOnce() throws {
        let config = try readFile("""
            languages:
              available: "DE, fr,, de , pt-BR"
              default: FR
            """)
        #expect(config.languages.availableList == ["de", "fr", "pt-br"])
        #expect(config.languages.defaultLanguage == "FR")
        #expect(Localization(config).defaultLanguage == "fr")
        #expect(config.core.languages == ["de", "fr", "pt-br"])
    }

    @Test func theEnvironmentOverridesTheDefaultLanguage() throws {
        let config = try readFile("languages:\n  default: en\n", environment: ["FRONTDOOR_LANGUAGES_DEFAULT": "de"])
        #expect(config.languages.defaultLanguage == "de")
        let available = try ConfigReader.read(file: nil, environment: ["FRONTDOOR_LANGUAGES_AVAILABLE": "fr, en", "FRONTDOOR_LANGUAGES_DEFAULT": "fr"])
        #expect(available.languages.availableList == ["fr", "en"] && available.languages.defaultLanguage == "fr")
    }

    @Test(arguments: [
        (["FRONTDOOR_LANGUAGES_DEFAULT": "es"], "languages.default must be one of languages.available"),
        (["FRONTDOOR_LANGUAGES_AVAILABLE": "en, fr", "FRONTDOOR_LANGUAGES_DEFAULT": "de"], "languages.default must be one of"),
        (["FRONTDOOR_LANGUAGES_AVAILABLE": ""], "languages.available must name at least one language"),
        (["FRONTDOOR_LANGUAGES_AVAILABLE": " , ,"], "languages.available must name at least one language"),
        (["FRONTDOOR_LANGUAGES_AVAILABLE": "en, english"], "languages.available: english is not a language code"),
        (["FRONTDOOR_LANGUAGES_AVAILABLE": "en, f"], "languages.available: f is not a language code"),
        (["FRONTDOOR_LANGUAGES_AVAILABLE": "en, fr_CA"], "languages.available: fr_ca is not a language code"),
        (["FRONTDOOR_LANGUAGES_AVAILABLE": "en, fr-"], "languages.available: fr- is not a language code"),
        (["FRONTDOOR_LANGUAGES_AVAILABLE": "en, de\"><script>"], "languages.available:"),
    ])
    func badLanguagesAreRefused(environment: [String: String], expected: String) {
        #expect {
            _ = try ConfigReader.read(file: nil, environment: environment)
        } throws: { error in
            (error as? ConfigError)?.description.hasPrefix(expected) == true
        }
    }

    @Test func anUnknownKeyInTheSectionIsRefused() {
        #expect(failure("languages:\n  offered: en\n") == "unknown config key languages.offered")
    }

    // MARK: messages

    @Test func messagesAreReadByLanguageThenKey() throws {
        let config = try readFile("""
            languages:
              available: en, fr
            messages:
              FR:
                sign_in_title: "Entrer"
                sign_up_title: Rejoindre {site}
              en:
                sign_in_title: Log in
            """)
        #expect(config.languages.messages == ["fr": ["sign_in_title": "Entrer", "sign_up_title": "Rejoindre {site}"],
                                              "en": ["sign_in_title": "Log in"]])
        let site = Localization(config)
        #expect(site.catalog("fr").text("sign_in_title") == "Entrer" && site.catalog("en").text("sign_in_title") == "Log in")
        #expect(try readFile("messages: {}\n").languages.messages.isEmpty)
    }

    @Test func aDeclaredProfileFieldsNameMayBeWordedButNotAnUndeclaredOnes() throws {
        let field = """
            profile:
              fields:
                - name: username
                  label: Username
            """
        let config = try readFile(field + "\nmessages:\n  fr:\n    field_username: Pseudonyme\n")
        #expect(config.languages.messages["fr"]?["field_username"] == "Pseudonyme")
        #expect(failure(field + "\nmessages:\n  fr:\n    field_nickname: Surnom\n")
                == "messages.fr.field_nickname: no such message (frontdoor config messages lists them)")
        #expect(try readFile("messages:\n  de:\n    field_email: E-Mail\n").languages.messages == ["de": ["field_email": "E-Mail"]],
                "a built-in field name is a built-in key")
    }

    @Test(arguments: [
        ("messages: hello", "messages: expected a mapping of language codes to messages"),
        ("messages: [fr, de]", "messages: expected a mapping of language codes to messages"),
        ("messages:\n  fr: hello", "messages.fr: expected a mapping of message keys to texts"),
        ("messages:\n  fr: [a, b]", "messages.fr: expected a mapping of message keys to texts"),
        ("messages:\n  fr:\n    sign_in_title: [a, b]", "messages.fr.sign_in_title: expected a text"),
        ("messages:\n  fr:\n    sign_in_title: {a: b}", "messages.fr.sign_in_title: expected a text"),
        ("messages:\n  fr:\n    no_such_key: x", "messages.fr.no_such_key: no such message"),
        ("messages:\n  es:\n    sign_in_title: Entrar", "messages.es: not in languages.available"),
        ("languages:\n  available: en, fr\nmessages:\n  de:\n    sign_in_title: Anmelden", "messages.de: not in languages.available"),
    ])
    func badMessagesAreRefusedNamingTheEntry(yaml: String, expected: String) {
        let description = failure(yaml + "\n")
        #expect(description.hasPrefix(expected), "\(description)")
    }

    @Test func aLanguageWithoutABuiltInCatalogMayHaveMessages() throws {
        let config = try readFile("languages:\n  available: en, pt-br\nmessages:\n  pt-br:\n    sign_in_title: Entrar\n")
        #expect(Localization(config).catalog("pt-br").text("sign_in_title") == "Entrar")
    }

    // MARK: logo_url

    @Test(arguments: ["", "/static/logo.svg", "https://cdn.example.com/logo.png", "http://localhost:8080/logo.png"])
    func aLogoIsAPathOrAnHTTPURL(value: String) throws {
        #expect(try ConfigReader.read(file: nil, environment: ["FRONTDOOR_LOGO_URL": value]).logoURL == value)
    }

    @Test(arguments: ["logo.svg", "javascript:alert(1)", "data:image/svg+xml,<svg/>", "ftp://example.com/logo.png"])
    func anythingElseIsRefusedAsALogo(value: String) {
        #expect {
            _ = try ConfigReader.read(file: nil, environment: ["FRONTDOOR_LOGO_URL": value])
        } throws: { error in
            (error as? ConfigError)?.description.hasPrefix("logo_url must be a path") == true
        }
    }

    // MARK: render (frontdoor config check)

    @Test func theRenderedConfigShowsTheLanguagesAndMessagesAndReadsBack() throws {
        var config = try ConfigReader.read(file: nil, environment: [:])   // as config check has it: paths absolute
        config.logoURL = "/static/logo.svg"
        config.languages.available = "fr, en"
        config.languages.defaultLanguage = "fr"
        config.languages.messages = ["fr": ["sign_in_title": "Entrer « vite »", "sign_up_title": #"Dites "oui" \ non"#],
                                     "en": ["sign_in_title": "Log in"]]
        let text = ConfigReader.render(config)
        #expect(text.contains("logo_url: \"/static/logo.svg\"\n"))
        #expect(text.contains("languages:\n  available: \"fr, en\"\n  default: \"fr\"\n"))
        #expect(text.hasSuffix("""
            messages:
              en:
                sign_in_title: "Log in"
              fr:
                sign_in_title: "Entrer « vite »"
                sign_up_title: "Dites \\"oui\\" \\\\ non"

            """))
        #expect(try readFile(text) == config)
        #expect(!ConfigReader.render(AppConfiguration()).contains("messages:"), "nothing printed without messages")
    }

    @Test func aMessageOverSeveralLinesReadsBackTheSame() throws {
        var config = AppConfiguration()
        config.languages.messages = ["en": ["signed_up": "Welcome!\nCheck your mail."]]
        // `frontdoor config check` prints the effective config; read back, a message must keep its line breaks.
        let back = try readFile(ConfigReader.render(config)).languages.messages["en"]?["signed_up"]
        #expect(back == "Welcome!\nCheck your mail.")
    }
}
