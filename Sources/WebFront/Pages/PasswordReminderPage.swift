// PasswordReminderPage.swift: password/new asks for an address and always answers the same neutral page.
import AccountCore

/// `GET|POST <base>/password/new`.
struct PasswordReminderPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let reminder: PasswordReminder
    init(_ core: AccountServices) { reminder = core.reminder }

    func show(_ context: RequestContext) throws -> Response {
        try form(context, title: "reminder_title", text: "reminder_text")
    }

    func submit(_ context: RequestContext) throws -> Response {
        try reminder.sendReminder(email: context.form["email"] ?? "", client: context.client)
        return try context.layout.page("message", ["title": "reminder_title", "text": "reminder_sent"].localized(context))
    }

    /// The address form, also shown when a reset link no longer works.
    static func form(_ context: RequestContext, title: String, text: String) throws -> Response {
        var values = FormView.fields([.email(autocomplete: "email")], form: [:], catalog: context.catalog)
        values.merge(["title": title, "text": text, "button": "reminder_button"].localized(context)) { _, new in new }
        values["action"] = context.site.paths.path("password/new")
        return try context.layout.page("email_form", values)
    }

    private func form(_ context: RequestContext, title: String, text: String) throws -> Response {
        try Self.form(context, title: title, text: text)
    }
}
