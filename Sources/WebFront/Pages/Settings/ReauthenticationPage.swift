// ReauthenticationPage.swift: asks the password again before a sensitive change, then returns to where it started.
//
// Options: `session.reauthenticate_after` (see AccountCore's Reauthentication); `rd` is the page to return to (a path
// on this site, checked like every return target; default the settings).
import AccountCore
import AccountRules

/// `GET|POST <base>/settings/reauthenticate`.
struct ReauthenticationPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let reauthentication: Reauthentication
    let socialLinks: SocialLinks
    let passkeys: Passkeys
    init(_ core: AccountServices) { (reauthentication, socialLinks, passkeys) = (core.reauthentication, core.socialLinks, core.passkeys) }

    func show(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        return try render(context, session: session, returnTo: context.query["rd"])
    }

    func submit(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        do {
            try reauthentication.confirm(session: session.digest, password: context.form["password"] ?? "",
                                          client: context.client)
        } catch AccountError.invalid(let errors) {
            return try render(context, session: session, returnTo: context.form["rd"], errors: errors)
        } catch AccountError.notFound {
            context.clearSession()
            return context.redirect(to: context.site.paths.signIn())
        }
        context.flash.set(Flash("reauthenticated"))
        return context.redirect(to: target(context, context.form["rd"]))
    }

    /// A path on this site only (this page never sends anyone to another host).
    private func target(_ context: RequestContext, _ raw: String?) -> String { Self.localTarget(context, raw) }

    /// `raw` when it is a checked path on this site other than the home page, else the settings.
    static func localTarget(_ context: RequestContext, _ raw: String?) -> String {
        let checked = context.returnTarget(raw)
        return checked.hasPrefix("/") && !checked.hasPrefix("//") && checked != context.site.paths.home ? checked
            : context.site.paths.path("settings")
    }

    /// The password form (when the account has one) and a button per provider linked to the account.
    private func render(_ context: RequestContext, session: SessionInfo, returnTo: String?, errors: ValidationErrors = .init()) throws -> Response {
        let catalog = context.catalog
        var values = FormView.fields([.password("password", autocomplete: "current-password")], form: [:], errors: errors, catalog: catalog)
        values["rd"] = target(context, returnTo)
        let links = socialLinks
        values["has_password"] = try links.hasPassword(accountId: session.accountId)
        let linked = try links.identities(accountId: session.accountId).map(\.provider)
        if !linked.isEmpty {
            values["social"] = context.socialButtons(labelKey: "reauthenticate_with", purpose: .reauthenticate,
                                                     returnTo: values["rd"] as? String, ids: linked)
        }
        if try !passkeys.list(accountId: session.accountId).isEmpty {
            values["has_passkeys"] = true
            values["passkey_paths"] = PasskeyActions.paths(context)
            values["passkey_messages"] = PasskeyActions.scriptMessages(catalog)
        }
        if !errors.isEmpty { values["form_error"] = catalog.text("form_has_errors") }
        return try context.layout.page("reauthenticate", values)
    }
}
