// SocialEmailPage.swift: `GET|POST <base>/auth/email`: the provider gave no address, or one it does not vouch for:
// the person gives one, and it is verified by mail (see AccountCore's SocialSignIn.submitEmail).
//
// Needs this browser's pending identity (cookie `frontdoor_social_pending`, 10 minutes). An address that already has
// an account gets the same "check your mail" answer as a free one (its owner is mailed instead), so the page tells
// nobody which addresses have accounts. Without required confirmation a free address signs the person in at once.
import AccountCore
import AccountRules

struct SocialEmailPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let social: SocialSignIn
    init(_ core: AccountServices) { social = core.social }

    func show(_ context: RequestContext) throws -> Response {
        guard let pending = try context.socialPending() else { return context.socialPendingExpired() }
        return try render(context, pending, form: ["email": pending.email ?? ""])
    }

    func submit(_ context: RequestContext) throws -> Response {
        guard let token = context.socialPendingToken, let pending = try context.socialPending() else { return context.socialPendingExpired() }
        do {
            let outcome = try social.submitEmail(
                pendingToken: token, binding: context.socialBinding(create: false) ?? [], email: context.form["email"] ?? "",
                client: context.client, here: context.browserTokens)
            context.setSocialPending(nil)
            switch outcome {
            case .signedIn(let grant):
                try context.startSession(grant, keepPrevious: false)
                context.flash.set(Flash("social_signed_up", provider: pending.provider))
                return context.redirect(to: context.returnTarget(pending.returnTo.isEmpty ? nil : pending.returnTo))
            case .confirmationSent:
                return try context.layout.page("message", ["title": "check_email_title", "text": "check_email_text"].localized(context))
            }
        } catch AccountError.invalid(let errors) {
            return try render(context, pending, form: context.form, errors: errors)
        } catch AccountError.refused(let key) {
            context.flash.set(Flash(key, kind: .alert, provider: pending.provider))
            return context.redirect(to: context.site.paths.signIn())
        }
    }

    private func render(_ context: RequestContext, _ pending: PendingIdentity, form: [String: String],
                        errors: ValidationErrors = .init()) throws -> Response {
        let catalog = context.catalog
        var values = FormView.fields([.email(autocomplete: "email")], form: form, errors: errors, catalog: catalog)
        values["intro"] = catalog.text("social_email_text", ["provider": context.providerName(pending.provider)])
        if !errors.isEmpty { values["form_error"] = catalog.text("form_has_errors") }
        return try context.layout.page("social_email", values)
    }
}
