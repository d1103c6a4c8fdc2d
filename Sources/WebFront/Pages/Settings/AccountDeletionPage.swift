// AccountDeletionPage.swift: settings/delete: what deletion removes, and the password to confirm it.
//
// Options: `session.reauthenticate_after` (both GET and POST need a recent password entry). An account without a
// password (made through a provider) is not asked one: its recent confirmation with a linked provider stands for it.
// Success: this browser is signed out, flash `account_deleted`, and on to the sign-in page.
import AccountCore
import AccountRules

/// `GET|POST <base>/settings/delete` (`password`).
struct AccountDeletionPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let deletion: AccountDeletion
    let socialLinks: SocialLinks
    init(_ core: AccountServices) { (deletion, socialLinks) = (core.deletion, core.socialLinks) }

    func show(_ context: RequestContext) throws -> Response {
        let session = try context.requireRecentSignIn(returnTo: path(context))
        return try render(context, session: session)
    }

    func submit(_ context: RequestContext) throws -> Response {
        let session = try context.requireRecentSignIn(returnTo: path(context))
        do {
            try deletion.delete(session: session.digest, password: context.form["password"] ?? "",
                                client: context.client)
        } catch AccountError.invalid(let errors) {
            return try render(context, session: session, errors: errors)
        } catch AccountError.notFound {
            context.clearSession()
            return context.redirect(to: context.site.paths.path("sign_in"))
        }
        context.clearSession()
        context.flash.set(Flash("account_deleted"))
        return context.redirect(to: context.site.paths.path("sign_in"))
    }

    private func path(_ context: RequestContext) -> String { context.site.paths.path("settings/delete") }

    private func render(_ context: RequestContext, session: SessionInfo, errors: ValidationErrors = .init()) throws -> Response {
        let catalog = context.catalog
        let hasPassword = try socialLinks.hasPassword(accountId: session.accountId)
        var values = FormView.fields(hasPassword ? [.password("password", autocomplete: "current-password")] : [], form: [:],
                                     errors: errors, catalog: catalog)
        if !errors.isEmpty { values["form_error"] = catalog.text("form_has_errors") }
        return try context.layout.settingsPage("settings_delete", section: "delete", values)
    }
}
