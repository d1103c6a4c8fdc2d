// SignUpPage.swift: GET shows the sign-up form; POST creates the account and signs the person in.
//
// Options: `signup` (open | invite | closed). In invite mode the form needs `?invite=TOKEN`: it shows the invited
// address read-only and carries the token in a hidden field; without a valid invitation, or when closed, a 403 page.
// The declared profile fields with `sign_up` (config `profile.fields`) follow the address, with their labels and types.
// `identity.username`: `optional` or `required` adds a username field after the address (Usernames).
import AccountCore
import AccountRules

/// `GET|POST <base>/sign_up`: email, the declared sign-up fields, password, password confirmation (and `invite`).
struct SignUpPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let invitations: Invitations
    let profile: Profile
    let registration: Registration
    init(_ core: AccountServices) { (invitations, profile, registration) = (core.invitations, core.profile, core.registration) }

    func show(_ context: RequestContext) throws -> Response {
        if try context.session() != nil { return context.redirect(to: context.site.paths.home) }
        if invitations.mode == .closed { return try refusal(context, AccountError.signUpClosed, invite: "") }
        let invite = (context.query["invite"] ?? "").trimmingWhitespace()
        let invited = invite.isEmpty ? nil : try invitations.invitation(token: invite)
        if invitations.mode == .invite, invited == nil { return try refusal(context, AccountError.invitationRequired, invite: invite) }
        return try render(context, form: [:], invite: invite, invited: invited)
    }

    func submit(_ context: RequestContext) throws -> Response {
        let invite = (context.form["invite"] ?? "").trimmingWhitespace()
        do {
            switch try registration.signUp(context.form, client: context.client, here: context.browserTokens) {
            case .signedIn(let grant):
                try context.startSession(grant)
                context.flash.set(Flash("signed_up"))
                return context.redirect(to: context.site.paths.home)
            case .confirmationSent:
                return try context.layout.page("message", ["title": "check_email_title", "text": "check_email_text"].localized(context))
            }
        } catch AccountError.invalid(let errors) {
            let invited = invite.isEmpty ? nil : try invitations.invitation(token: invite)
            return try render(context, form: context.form, errors: errors, invite: invite, invited: invited)
        } catch let error as AccountError where error == .signUpClosed || error == .invitationRequired {
            return try refusal(context, error, invite: invite)
        } catch AccountError.refused("sign_up_rate_limited") {
            return try context.layout.page("message", ["title": "sign_up_rate_limited_title", "text": "sign_up_rate_limited_text"].localized(context),
                                           status: 429)
        }
    }

    /// The 403 page: sign-up closed, by invitation only, or this invitation does not work.
    private func refusal(_ context: RequestContext, _ error: AccountError, invite: String) throws -> Response {
        let (title, text) = error == .signUpClosed ? ("sign_up_closed_title", "sign_up_closed_text")
            : invite.isEmpty ? ("invitation_only_title", "invitation_only_text")
            : ("invitation_invalid_title", "invitation_invalid_text")
        return try context.layout.page("message", ["title": title, "text": text].localized(context), status: 403)
    }

    /// The form; with `invited` (the address of the valid invitation `invite`), that address read-only and the token hidden.
    private func render(_ context: RequestContext, form: [String: String], errors: ValidationErrors = .init(),
                        invite: String = "", invited: String? = nil) throws -> Response {
        let catalog = context.catalog
        var inputs: [InputSpec] = [
            invited == nil ? .email(autocomplete: "email")
                : InputSpec(name: "email", type: "email", autocomplete: "email", keepsValue: true, hintKey: "invited_hint"),
            .password("password", autocomplete: "new-password", hintKey: "password_hint",
                      hintArguments: ["count": String(context.site.configuration.password.minLength)]),
            .password("password_confirmation", autocomplete: "new-password"),
        ]
        if let username = Self.usernameInput(context.site.configuration.identity.username) { inputs.insert(username, at: 1) }
        var form = form
        if let invited { form["email"] = invited }
        // The values are built only when the page is rendered (the layout asks for them on a cache miss).
        func values() -> [String: Any] {
            var values = FormView.fields(inputs, form: form, errors: errors, catalog: catalog)
            if invited != nil, var fields = values["fields"] as? [String: Any], var email = fields["email"] as? [String: Any] {
                email["readonly"] = true
                fields["email"] = email
                values["fields"] = fields
                values["invite"] = invite
            }
            values["profile_fields"] = ProfileFieldsView.fields(profile.signUpFields, form: form, errors: errors,
                                                                catalog: catalog)
            if !errors.isEmpty { values["form_error"] = catalog.text("form_has_errors") }
            values["social"] = context.socialButtons(labelKey: "social_sign_up_with", invite: invited == nil ? nil : invite)
            return values
        }
        // The empty form without an invitation is the same for every signed-out visitor (the declared fields are the
        // same for everyone: they come from the configuration).
        let plain = form.isEmpty && errors.isEmpty && invited == nil
        return try context.layout.page("sign_up", values(), cacheKey: plain ? "sign_up" : nil)
    }

    /// The username input under `mode` (none when `off`: the name is made from the address).
    static func usernameInput(_ mode: Username.Mode) -> InputSpec? {
        guard mode != .off else { return nil }
        var input = InputSpec(name: "username", type: "text", autocomplete: "username", keepsValue: true,
                              hintKey: mode == .required ? "username_hint" : "username_optional_hint", labelKey: "username_label")
        input.optional = mode == .optional
        return input
    }
}
