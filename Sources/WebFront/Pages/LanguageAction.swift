// LanguageAction.swift: POST language, the language switcher at the foot of every page.
//
// Options: form fields `lang` (an offered language code) and `back` (the page to go back to, checked; default home).
// The choice is kept in a year-long cookie (`frontdoor_lang`), which comes before Accept-Language; a signed-in person's
// account takes it as its preference too, so mail follows. A language not offered changes nothing.
import AccountCore

/// `POST <base>/language`.
struct LanguageAction: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let profile: Profile
    init(_ core: AccountServices) { profile = core.profile }

    /// The cookie holding the switcher's choice.
    static let cookieName = "frontdoor_lang"
    /// How long the choice is kept.
    static let cookieMaxAge = 365 * 86400

    func submit(_ context: RequestContext) throws -> Response {
        let back = context.returnTarget(context.form["back"])
        let language = context.form["lang"]?.lowercased() ?? ""
        guard context.site.renderer.localization.languages.contains(language) else { return context.redirect(to: back) }
        context.cookies.set(Self.cookieName, language, maxAge: Self.cookieMaxAge)
        if let session = try context.session() {
            try profile.setLanguage(language, of: session.accountId)
        }
        context.flash.set(Flash("language_changed"))
        return context.redirect(to: back)
    }
}
