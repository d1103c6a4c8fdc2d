// PasswordChangePage.swift: settings/password: current password, new password, confirmation.
//
// Options: `session.reauthenticate_after` (both GET and POST need a recent password entry); the password rules.
// Success: flash `password_updated` and back to this page (other sessions are signed out, this one stays).
// An account without a password (made through a provider) sets one here: no current password is asked.
import AccountCore
import AccountRules

/// `GET|POST <base>/settings/password`.
struct PasswordChangePage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let passwordChange: PasswordChange
    let socialLinks: SocialLinks
    init(_ core: AccountServices) { (passwordChange, socialLinks) = (core.passwordChange, core.socialLinks) }

    func show(_ context: RequestContext) throws -> Response {
        let session = try context.requireRecentSignIn(returnTo: path(context))
        return try render(context, session: session)
    }

    func submit(_ context: RequestContext) throws -> Response {
        let session = try context.requireRecentSignIn(returnTo: path(context))
        do {
            try passwordChange.change(session: session.digest, form: context.form, client: context.client)
            context.flash.set(Flash("password_updated"))
            return context.redirect(to: path(context))
        } catch AccountError.invalid(let errors) {
            return try render(context, session: session, errors: errors)
        } catch AccountError.notFound {
            // The session ended meanwhile (revoked from another browser): sign in again.
            context.clearSession()
            return context.redirect(to: context.site.paths.path("sign_in"))
        }
    }

    private func path(_ context: RequestContext) -> String { context.site.paths.path("settings/password") }

    /// The form; passwords are never shown again.
    private func render(_ context: RequestContext, session: SessionInfo, errors: ValidationErrors = .init()) throws -> Response {
        let catalog = context.catalog
        let hasPassword = try socialLinks.hasPassword(accountId: session.accountId)
        let inputs: [InputSpec] = (hasPassword ? [.password("current_password", autocomplete: "current-password")] : []) + [
            .password("password", autocomplete: "new-password", hintKey: "password_hint",
                      hintArguments: ["count": String(context.site.configuration.password.minLength)], labelKey: "field_new_password"),
            .password("password_confirmation", autocomplete: "new-password"),
        ]
        var values = FormView.fields(inputs, form: [:], errors: errors, catalog: catalog)
        if !hasPassword { values["setting_first"] = true }
        if !errors.isEmpty { values["form_error"] = catalog.text("form_has_errors") }
        return try context.layout.settingsPage("settings_password", section: "password", values)
    }
}
