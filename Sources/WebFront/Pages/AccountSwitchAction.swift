// AccountSwitchAction.swift: POST switch makes another account signed in in this browser the active one.
//
// Options: form fields `to` (the account's handle from the switcher) and `rd` (where to go next, checked; default home).
import AccountCore

/// `POST <base>/switch`.
struct AccountSwitchAction: Sendable {
    func submit(_ context: RequestContext) throws -> Response {
        _ = try context.requireSession()
        guard try context.switchAccount(to: context.form["to"] ?? "") else {
            context.flash.set(Flash("sign_in_required", kind: .alert))
            return context.redirect(to: context.site.paths.home)
        }
        context.flash.set(Flash("switched_account"))
        return context.redirect(to: context.returnTarget(context.form["rd"]))
    }
}
