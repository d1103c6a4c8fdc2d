// Messages+Page.swift: English wording of the page frame: the language switcher and preference, the skip link and
// the error pages' titles.

extension MessageCatalog {
    /// English wording of the page frame; merged into `english` (a key there must not repeat here).
    static let englishPage: [String: String] = [
        // Each catalog names its own language in that language (the switcher shows every name this way).
        "language_name": "English",
        "language_switcher": "Language",
        "language_changed": "From now on, pages are shown in English.",
        "field_language": "Language",
        "language_automatic": "Same as my browser",
        "language_hint": "Pages and mail from {site} use this language.",
        "skip_to_content": "Skip to the main content",
        "error_not_found_title": "Page not found",
        "error_status": "Error {status}",
    ]
}
