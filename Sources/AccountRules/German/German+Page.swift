// German+Page.swift: German wording of the page frame: the language switcher and preference, the skip link and the
// error pages' titles.

extension MessageCatalog {
    /// German wording of the page frame; merged into `german` (a key there must not repeat here).
    static let germanPage: [String: String] = [
        "language_name": "Deutsch",
        "language_switcher": "Sprache",
        "language_changed": "Seiten werden ab jetzt auf Deutsch angezeigt.",
        "field_language": "Sprache",
        "language_automatic": "Wie im Browser eingestellt",
        "language_hint": "Seiten und E-Mails von {site} verwenden diese Sprache.",
        "skip_to_content": "Zum Hauptinhalt springen",
        "error_not_found_title": "Seite nicht gefunden",
        "error_status": "Fehler {status}",
    ]
}
