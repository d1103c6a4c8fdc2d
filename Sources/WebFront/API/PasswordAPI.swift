// PasswordAPI.swift: the devise-ios password resource `<base>/v1/users/password`: change, reset, remind.
//
// Options: `session.reauthenticate_after` (a change without `currentPassword` needs a token that signed in that
// recently; devise-ios sends none), `reminder.lifetime`, `mail.throttle` (reminders, as on the HTML page).
//   PUT  with X-User-Email/X-User-Token   {"user":{"password","passwordConfirmation"[,"currentPassword"]}}
//        → 200 user (token echoed); every other session and token of the account ends | 401 | 422
//   PUT  without them, {"user":{"resetPasswordToken","password","passwordConfirmation"}}
//        → 200 user with a new token (Devise's reset by the mailed token) | 422
//   POST {"user":{"email"}} → 201 {} for every well-formed address (no enumeration) | 422 blank or malformed
import AccountCore
import AccountRules
import Foundation

/// Changing, resetting and reminding the password over the API.
struct PasswordAPI: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let passwordChange: PasswordChange
    let reminder: PasswordReminder
    init(_ core: AccountServices) { (passwordChange, reminder) = (core.passwordChange, core.reminder) }

    func change(_ context: RequestContext) throws -> Response {
        var form = try context.api.fields()
        if form["password_confirmation"] == nil { form["password_confirmation"] = form["password"] ?? "" }
        if !context.api.hasCredentials, let reset = form["reset_password_token"], !reset.isEmpty {
            let grant = try context.api.call { try reminder.reset(token: reset, form: form, client: context.client, kind: .api) }
            try context.api.handOver(grant)
            return try context.api.userResponse(accountId: grant.session.accountId, token: grant.token.encoded, status: 200)
        }
        let session = try context.api.requireSession()
        try context.api.call {
            try passwordChange.change(session: session.digest, form: form, client: context.client, recentSignInSuffices: true)
        }
        return try context.api.userResponse(accountId: session.accountId, token: context.api.token, status: 200)
    }

    func remind(_ context: RequestContext) throws -> Response {
        let form = try context.api.fields()
        let catalog = context.catalog
        let email = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        let errors = Validator([Field("email", displayName: catalog.text("field_email"), rules: [.required, .email])]).validate(["email": email])
        guard errors.isEmpty else { throw APIError.validation(errors, catalog: catalog) }
        try reminder.sendReminder(email: email, client: context.client)
        return .json([:], status: 201)
    }
}
