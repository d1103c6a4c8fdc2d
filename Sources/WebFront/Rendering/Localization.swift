// Localization.swift: the languages the site speaks, each one's wording, and which one a request gets.
//
// Options (config `languages`, `messages`; see AppConfiguration+Languages.swift): the offered languages in switcher
// order, the default, and the operator's wording per language. A request's language is, in order: the signed-in
// account's preference, the language picked with the switcher (cookie), the best match of Accept-Language, the default.
import AccountRules

/// Every offered language's catalog (built-in wording, English for a language without one, then the operator's
/// messages) and the negotiation between what a browser asks for and what is offered.
public struct Localization: Sendable {
    /// The language used when nothing else decides.
    public let defaultLanguage: String
    /// The offered languages, in the switcher's order.
    public let languages: [String]
    private let catalogs: [String: MessageCatalog]

    /// The offered `languages` (codes, lower-case) with `defaultLanguage` among them; `overrides` by language, then key.
    public init(languages: [String], defaultLanguage: String, overrides: [String: [String: String]] = [:]) {
        self.languages = languages.isEmpty ? ["en"] : languages
        self.defaultLanguage = self.languages.contains(defaultLanguage) ? defaultLanguage : self.languages[0]
        var catalogs: [String: MessageCatalog] = [:]
        for code in self.languages {
            let base = MessageCatalog.builtIn[code] ?? MessageCatalog.english.merging(["language_name": code])
            catalogs[code] = base.merging(overrides[code] ?? [:])
        }
        self.catalogs = catalogs
    }

    /// The languages and overrides of `configuration`.
    public init(_ configuration: AppConfiguration) {
        self.init(languages: configuration.languages.availableList, defaultLanguage: configuration.languages.defaultLanguage.lowercased(),
                  overrides: configuration.languages.messages)
    }

    /// The catalog of `language`, or the default language's when it is not offered.
    public func catalog(_ language: String) -> MessageCatalog {
        catalogs[language] ?? catalogs[defaultLanguage]!
    }

    /// The offered language `code` names: itself, or its primary subtag (`fr-CH` → `fr`); nil when not offered.
    public func offered(_ code: String?) -> String? {
        guard let code = code?.trimmingCharacters(in: .whitespaces).lowercased(), !code.isEmpty, code.count <= 35 else { return nil }
        if catalogs[code] != nil { return code }
        if let primary = code.split(separator: "-").first.map(String.init), catalogs[primary] != nil { return primary }
        return nil
    }

    /// The offered language an `Accept-Language` header prefers most (quality first, then the header's order); nil
    /// when it names none. `*` stands for any offered language the header does not name (RFC 9110 §12.5.4): the
    /// default, unless the header names it (a `q=0` refuses it), else the first such language offered.
    public func negotiate(_ acceptLanguage: String?) -> String? {
        guard let header = acceptLanguage, !header.isEmpty else { return nil }
        let ranges = header.split(separator: ",").prefix(32).compactMap { item -> (tag: String, quality: Double)? in
            let parts = item.split(separator: ";", omittingEmptySubsequences: false)
            guard let tag = parts.first?.trimmingCharacters(in: .whitespaces), !tag.isEmpty else { return nil }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0].lowercased() == "q" { quality = Double(pair[1]).map { min(max($0, 0), 1) } ?? 0 }
            }
            return (tag, quality)
        }
        let named = Set(ranges.compactMap { $0.tag == "*" ? nil : offered($0.tag) })
        let unnamed = ([defaultLanguage] + languages).first { !named.contains($0) }
        var best: (quality: Double, language: String)?
        for range in ranges where range.quality > (best?.quality ?? 0) {
            if let language = range.tag == "*" ? unnamed : offered(range.tag) { best = (range.quality, language) }
        }
        return best?.language
    }

    /// The language for a request: the account's preference, the switcher's cookie, Accept-Language, the default;
    /// each only when offered.
    public func choose(preference: String?, cookie: String?, acceptLanguage: String?) -> String {
        offered(preference) ?? offered(cookie) ?? negotiate(acceptLanguage) ?? defaultLanguage
    }

    /// `(code, name in its own language)` of each offered language, for the switcher and the profile's choice.
    public var names: [(code: String, name: String)] {
        languages.map { ($0, catalog($0).text("language_name")) }
    }
}
