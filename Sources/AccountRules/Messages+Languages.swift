// Messages+Languages.swift: the languages Frontdoor ships, each complete (MessageCatalogTests holds every one to the
// English keys and placeholders).

extension MessageCatalog {
    /// The built-in catalogs by language code (a BCP 47 primary tag): English, French, German.
    public static let builtIn: [String: MessageCatalog] = ["en": .english, "fr": .french, "de": .german]

    /// Whether `code` is a language code as Frontdoor stores them: a lower-case BCP 47 primary tag (two or three
    /// letters), optionally `-` and a region or script of two to eight letters or digits (`en`, `pt-br`).
    public static func isLanguageCode(_ code: String) -> Bool {
        code.wholeMatch(of: /[a-z]{2,3}(-[a-z0-9]{2,8})?/) != nil
    }
}
