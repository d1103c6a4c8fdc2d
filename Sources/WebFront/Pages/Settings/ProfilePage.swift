// ProfilePage.swift: `GET|POST <base>/settings`: the display name and the operator's declared profile fields.
//
// Options: `profile.fields` (which fields, their labels, types and rules), `languages.available` (the language choice:
// one of them, or the browser's), `identity.username` (`off`: the username is shown read-only; else it may be changed
// here, checked and saved before the rest of the form). Needs a session, not a recent password:
// the profile holds nothing that guards the account. Success: flash `profile_updated` and back to this page; field
// errors: the form again with every message and the values as typed.
import AccountCore
import AccountRules

/// The profile section of the settings.
struct ProfilePage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let profile: Profile
    let usernames: Usernames
    init(_ core: AccountServices) { (profile, usernames) = (core.profile, core.usernames) }

    /// Whether the page shows the account's username: not when the operator declared a profile field of that name
    /// (allowed only while `identity.username` is off; the declared field keeps the name then).
    private var showsUsername: Bool { !profile.fields.contains { $0.name == "username" } }

    func show(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        var form = try profile.values(of: session.accountId).form
        if showsUsername { form["username"] = try usernames.username(of: session.accountId) ?? "" }
        return try render(context, form: form)
    }

    func submit(_ context: RequestContext) throws -> Response {
        let session = try context.requireSession()
        var form = context.form
        do {
            var chosen: String?
            if showsUsername, usernames.mode == .off {
                form["username"] = try usernames.username(of: session.accountId) ?? ""
            } else if showsUsername {
                chosen = form["username"]
            }
            try profile.update(accountId: session.accountId, form: context.form, username: chosen, client: context.client)
            context.flash.set(Flash("profile_updated"))
            return context.redirect(to: context.site.paths.path("settings"))
        } catch AccountError.invalid(let errors) {
            return try render(context, form: form, errors: errors)
        }
    }

    private func render(_ context: RequestContext, form: [String: String], errors: ValidationErrors = .init()) throws -> Response {
        let catalog = context.catalog
        var displayName = InputSpec(name: "display_name", type: "text", autocomplete: "name", keepsValue: true, hintKey: "display_name_hint")
        displayName.optional = true
        var username = InputSpec(name: "username", type: "text", autocomplete: "username", keepsValue: true,
                                 hintKey: usernames.mode == .off ? "username_fixed" : "username_hint", labelKey: "username_label")
        username.optional = true
        var values = FormView.fields(showsUsername ? [username, displayName] : [displayName], form: form, errors: errors, catalog: catalog)
        if usernames.mode == .off, var fields = values["fields"] as? [String: Any], var field = fields["username"] as? [String: Any] {
            field["readonly"] = true
            fields["username"] = field
            values["fields"] = fields
        }
        values["profile_fields"] = ProfileFieldsView.fields(profile.fields, form: form, errors: errors, catalog: catalog)
        let chosen = form["language"] ?? ""
        let languageErrors = errors.messages(for: "language", in: catalog)
        values["language_choice"] = [
            "label": catalog.text("field_language"),
            "hint": catalog.text("language_hint", ["site": context.site.configuration.siteName]),
            "error": languageErrors.isEmpty ? false as Any : languageErrors.joined(separator: "; ") as Any,
            "autofocus": errors.fieldNames.first == "language",
            "options": [["code": "", "name": catalog.text("language_automatic"), "selected": chosen.isEmpty, "own": false]]
                + context.site.renderer.localization.names.map { ["code": $0.code, "name": $0.name, "selected": $0.code == chosen, "own": true] },
        ]
        if !errors.isEmpty { values["form_error"] = catalog.text("form_has_errors") }
        return try context.layout.settingsPage("settings_profile", section: "profile", values)
    }
}
