// French+Page.swift: French wording of the page frame: the language switcher and preference, the skip link and the
// error pages' titles.

extension MessageCatalog {
    /// French wording of the page frame; merged into `french` (a key there must not repeat here).
    static let frenchPage: [String: String] = [
        // Each catalog names its own language in that language (the switcher shows every name this way).
        "language_name": "Français",
        "language_switcher": "Langue",
        "language_changed": "Désormais, les pages s’affichent en français.",
        "field_language": "Langue",
        "language_automatic": "Celle de mon navigateur",
        "language_hint": "Les pages et les e-mails de {site} utilisent cette langue.",
        "skip_to_content": "Aller au contenu principal",
        "error_not_found_title": "Page introuvable",
        "error_status": "Erreur {status}",
    ]
}
