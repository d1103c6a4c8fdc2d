// Messages+French.swift: the French catalog (stub until translated).

extension MessageCatalog {
    /// French wording of every message.
    public static let french = MessageCatalog(strings: english.strings.merging(["language_name": "Français"]) { _, new in new })
}
