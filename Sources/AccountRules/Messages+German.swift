// Messages+German.swift: the German catalog (stub until translated).

extension MessageCatalog {
    /// German wording of every message.
    public static let german = MessageCatalog(strings: english.strings.merging(["language_name": "Deutsch"]) { _, new in new })
}
