// PasswordResetPage.swift: password/edit?token= shows the new-password form; POST sets it and signs in (an account with
// a second factor goes on to the second step: SecondFactorPage). The form
// names the providers linked to the account: they sign in to it whatever the new password, so a person taking back an
// account sees one that is not theirs.
import AccountCore
import AccountRules
import Encodings

/// `GET|POST <base>/password/edit`.
struct PasswordResetPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let reminder: PasswordReminder
    init(_ core: AccountServices) { reminder = core.reminder }

    func show(_ context: RequestContext) throws -> Response {
        let token = context.query["token"] ?? ""
        guard try reminder.isRedeemable(token: token) else { return try invalid(context) }
        return try render(context, token: token)
    }

    func submit(_ context: RequestContext) throws -> Response {
        let token = context.form["token"] ?? ""
        // The binding also binds a second step to this browser; a new one is only kept when a second step follows.
        let existingBinding = context.socialBinding(create: false)
        let binding = existingBinding ?? context.core.random.bytes(32)
        do {
            let grant = try reminder.reset(token: token, form: context.form, client: context.client, here: context.browserTokens,
                                           binding: binding)
            try context.startSession(grant)
            context.flash.set(Flash("password_changed"))
            return context.redirect(to: context.site.paths.home)
        } catch AccountError.invalid(let errors) {
            return try render(context, token: token, errors: errors)
        } catch AccountError.invalidToken {
            return try invalid(context)
        } catch AccountError.secondFactorRequired(let challenge) {
            // The password is set; the account's second factor still stands between the mail and a session.
            if existingBinding == nil { context.cookies.setHostBound(RequestContext.socialBindingCookie, Base64URL.encode(binding)) }
            context.flash.set(Flash("password_changed"))
            return SecondFactorPage.begin(context, challenge: challenge, returnTo: nil, adding: false)
        }
    }

    private func invalid(_ context: RequestContext) throws -> Response {
        try PasswordReminderPage.form(context, title: "reset_invalid_title", text: "reset_invalid_text")
    }

    private func render(_ context: RequestContext, token: String, errors: ValidationErrors = .init()) throws -> Response {
        let inputs: [InputSpec] = [
            .password("password", autocomplete: "new-password", hintKey: "password_hint",
                      hintArguments: ["count": String(context.site.configuration.password.minLength)]),
            .password("password_confirmation", autocomplete: "new-password"),
        ]
        var values = FormView.fields(inputs, form: [:], errors: errors, catalog: context.catalog)
        values["token"] = token
        let providers = try reminder.linkedProviders(token: token).map(context.providerName)
        if !providers.isEmpty {
            values["linked_providers"] = context.catalog.text("reset_linked_providers", ["providers": providers.joined(separator: ", ")])
        }
        if !errors.isEmpty { values["form_error"] = context.catalog.text("form_has_errors") }
        return try context.layout.page("password_edit", values)
    }
}
