// LocalizationTests.swift: the offered languages, Accept-Language negotiation, the order a request's language is
// chosen in, and each language's catalog (built-in, English for a language without one, the operator's overrides).
import AccountRules
import Testing
@testable import WebFront

struct LocalizationTests {
    let site = Localization(languages: ["en", "fr", "de"], defaultLanguage: "en")

    // MARK: offered

    @Test func anOfferedCodeIsItselfAndARegionFallsBackToItsPrimaryLanguage() {
        #expect(site.offered("fr") == "fr")
        #expect(site.offered("de") == "de")
        #expect(site.offered("fr-CH") == "fr")
        #expect(site.offered("de-AT-1996") == "de", "any subtags after the primary one")
        #expect(site.offered(" en ") == "en", "surrounding spaces are ignored")
    }

    @Test func codesAreMatchedWithoutCase() {
        #expect(site.offered("FR") == "fr")
        #expect(site.offered("Fr-Ca") == "fr")
        #expect(site.offered("DE-de") == "de")
    }

    @Test func anUnknownEmptyOrOverlongCodeIsNotOffered() {
        #expect(site.offered("es") == nil)
        #expect(site.offered("es-fr") == nil, "only the primary subtag counts, not a later one")
        #expect(site.offered("") == nil)
        #expect(site.offered("   ") == nil)
        #expect(site.offered(nil) == nil)
        #expect(site.offered("fr-" + String(repeating: "x", count: 40)) == nil, "a header value longer than a language tag")
        #expect(site.offered("*") == nil, "the wildcard is Accept-Language's, not a code")
    }

    // MARK: negotiate

    @Test func theHighestQualityWinsWhateverItsPlaceInTheHeader() {
        #expect(site.negotiate("de;q=0.5, fr;q=0.9, en;q=0.1") == "fr")
        #expect(site.negotiate("es, fr;q=0.8, de;q=0.9") == "de", "an unoffered language is skipped, the best offered one wins")
        #expect(site.negotiate("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == "fr")
        #expect(site.negotiate("en;q=0.2,de;Q=0.3") == "de", "the parameter name is matched without case")
        #expect(site.negotiate("en ; q = 0.2 , de ; q = 0.3") == "de", "spaces around the parts")
    }

    @Test func equalQualitiesKeepTheHeadersOrder() {
        #expect(site.negotiate("de, fr") == "de")
        #expect(site.negotiate("fr, de") == "fr")
        #expect(site.negotiate("fr;q=0.5, de;q=0.5") == "fr")
        #expect(site.negotiate("es;q=0.9, de;q=0.5, fr;q=0.5") == "de")
    }

    @Test func qualityZeroExcludesALanguage() {
        #expect(site.negotiate("fr;q=0") == nil)
        #expect(site.negotiate("fr;q=0.0, de;q=0.1") == "de")
        #expect(site.negotiate("fr;q=0, *;q=0") == nil)
    }

    @Test func theWildcardNamesTheDefault() {
        #expect(site.negotiate("*") == "en")
        #expect(site.negotiate("es, *;q=0.1") == "en")
        #expect(site.negotiate("*;q=0.1, de;q=0.5") == "de", "a named language with higher quality beats the wildcard")
        let french = Localization(languages: ["en", "fr"], defaultLanguage: "fr")
        #expect(french.negotiate("es, *;q=0.5") == "fr")
    }

    @Test func aMalformedQualityCountsAsZeroAndAnOutOfRangeOneIsClamped() {
        #expect(site.negotiate("fr;q=high") == nil)
        #expect(site.negotiate("fr;q=abc, de;q=0.2") == "de")
        #expect(site.negotiate("fr;q=-1, de;q=0.2") == "de", "negative: zero")
        #expect(site.negotiate("fr;q=nan, de;q=0.2") == "de")
        #expect(site.negotiate("fr;q=7, de") == "fr", "above 1 is 1; equal to de and first")
    }

    @Test func anEmptyQualityIsMalformedToo() {
        // "q=" has no value: malformed like "q=abc", so zero; it must not count as the default quality 1.
        #expect(site.negotiate("fr;q=, de;q=0.1") == "de")
        #expect(site.negotiate("fr;q=") == nil)
    }

    @Test func aGarbageOrEmptyHeaderNamesNothing() {
        #expect(site.negotiate(nil) == nil)
        #expect(site.negotiate("") == nil)
        #expect(site.negotiate(",,;;,") == nil)
        #expect(site.negotiate(";q=1, ;") == nil)
        #expect(site.negotiate("\u{0}\u{1}<script>") == nil)
        #expect(site.negotiate("klingon-tlh, x-pirate") == nil)
    }

    @Test func onlyTheFirst32ItemsAreRead() {
        let filler = (0..<31).map { "x\($0)" }
        #expect(site.negotiate((filler + ["fr"]).joined(separator: ", ")) == "fr", "the 32nd item counts")
        #expect(site.negotiate((filler + ["es", "fr"]).joined(separator: ", ")) == nil, "the 33rd does not")
        let long = Array(repeating: "es;q=0.9", count: 10_000).joined(separator: ",") + ",de"
        #expect(site.negotiate(long) == nil)
    }

    // MARK: choose

    @Test func thePreferenceComesFirstThenTheCookieThenAcceptLanguageThenTheDefault() {
        #expect(site.choose(preference: "de", cookie: "fr", acceptLanguage: "fr") == "de")
        #expect(site.choose(preference: nil, cookie: "fr", acceptLanguage: "de") == "fr")
        #expect(site.choose(preference: nil, cookie: nil, acceptLanguage: "de, fr") == "de")
        #expect(site.choose(preference: nil, cookie: nil, acceptLanguage: nil) == "en")
        #expect(site.choose(preference: nil, cookie: nil, acceptLanguage: "es") == "en")
        let german = Localization(languages: ["en", "fr", "de"], defaultLanguage: "de")
        #expect(german.choose(preference: nil, cookie: nil, acceptLanguage: "es") == "de")
    }

    @Test func aSourceNamingNoOfferedLanguageFallsThroughToTheNext() {
        #expect(site.choose(preference: "es", cookie: "fr", acceptLanguage: "de") == "fr", "a preference no longer offered")
        #expect(site.choose(preference: "es", cookie: "pt", acceptLanguage: "de") == "de")
        #expect(site.choose(preference: "", cookie: "", acceptLanguage: "") == "en")
        let englishOnly = Localization(languages: ["en", "de"], defaultLanguage: "en")
        #expect(englishOnly.choose(preference: "fr", cookie: "fr", acceptLanguage: "fr, de;q=0.1") == "de")
    }

    // MARK: catalogs

    @Test func eachOfferedLanguageHasItsBuiltInCatalog() {
        #expect(site.catalog("en").text("sign_in_title") == "Sign in")
        #expect(site.catalog("fr").text("sign_in_title") == "Connexion")
        #expect(site.catalog("de").text("sign_in_title") == "Anmelden")
        #expect(site.catalog("es").text("sign_in_title") == "Sign in", "a language not offered gets the default's")
        let french = Localization(languages: ["en", "fr"], defaultLanguage: "fr")
        #expect(french.catalog("de").text("sign_in_title") == "Connexion", "German is built in but not offered here")
    }

    @Test func overridesApplyToTheirLanguageOnly() {
        let site = Localization(languages: ["en", "fr", "de"], defaultLanguage: "en",
                                overrides: ["fr": ["sign_in_title": "Entrer"], "en": ["sign_up_title": "Join us"]])
        #expect(site.catalog("fr").text("sign_in_title") == "Entrer")
        #expect(site.catalog("fr").text("sign_up_title") == "Créer votre compte", "other French keys stay built-in")
        #expect(site.catalog("en").text("sign_in_title") == "Sign in")
        #expect(site.catalog("en").text("sign_up_title") == "Join us")
        #expect(site.catalog("de").text("sign_in_title") == "Anmelden")
        #expect(site.catalog("de").text("sign_up_title") == MessageCatalog.german.text("sign_up_title"))
        #expect(MessageCatalog.french.text("sign_in_title") == "Connexion", "the built-in catalog itself is untouched")
    }

    @Test func aLanguageWithoutABuiltInCatalogIsEnglishWithItsOverridesAndItsCodeAsName() {
        let site = Localization(languages: ["en", "pt-br"], defaultLanguage: "en",
                                overrides: ["pt-br": ["sign_in_title": "Entrar"]])
        let portuguese = site.catalog("pt-br")
        #expect(portuguese.text("sign_in_title") == "Entrar")
        #expect(portuguese.text("sign_up_title") == "Create your account")
        #expect(portuguese.text("language_name") == "pt-br")
        #expect(site.offered("pt-BR") == "pt-br")
        #expect(site.offered("pt") == nil, "the primary subtag alone is another language")
        let named = Localization(languages: ["en", "nl"], defaultLanguage: "en", overrides: ["nl": ["language_name": "Nederlands"]])
        #expect(named.names.map(\.name) == ["English", "Nederlands"])
    }

    @Test func namesListEachOfferedLanguageInItsOwnWordsInTheSwitchersOrder() {
        #expect(site.names.map(\.code) == ["en", "fr", "de"])
        #expect(site.names.map(\.name) == ["English", "Français", "Deutsch"])
        let reordered = Localization(languages: ["de", "en"], defaultLanguage: "en")
        #expect(reordered.names.map(\.code) == ["de", "en"] && reordered.names.map(\.name) == ["Deutsch", "English"])
    }

    @Test func withoutLanguagesEnglishIsOfferedAndAnUnofferedDefaultFallsToTheFirst() {
        let empty = Localization(languages: [], defaultLanguage: "fr")
        #expect(empty.languages == ["en"] && empty.defaultLanguage == "en")
        let stray = Localization(languages: ["de", "fr"], defaultLanguage: "en")
        #expect(stray.defaultLanguage == "de")
        #expect(stray.choose(preference: nil, cookie: nil, acceptLanguage: nil) == "de")
    }

    @Test func theConfigurationsLanguagesAndMessagesAreUsed() {
        var configuration = AppConfiguration()
        configuration.languages.available = "FR, de"
        configuration.languages.defaultLanguage = "DE"
        configuration.languages.messages = ["fr": ["sign_in_title": "Entrer"]]
        let site = Localization(configuration)
        #expect(site.languages == ["fr", "de"])
        #expect(site.defaultLanguage == "de")
        #expect(site.catalog("fr").text("sign_in_title") == "Entrer")
        #expect(site.offered("en") == nil)
    }
}
