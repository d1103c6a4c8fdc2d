// Messages+Languages.swift: the languages Frontdoor ships, each complete (MessageCatalogTests holds every one to the
// English keys and placeholders).

extension MessageCatalog {
    /// The built-in catalogs by language code (a BCP 47 primary tag): English, French, German.
    public static let builtIn: [String: MessageCatalog] = ["en": .english, "fr": .french, "de": .german]
}
