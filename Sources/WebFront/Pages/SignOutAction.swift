// SignOutAction.swift: POST ends the active account's session (`scope=all`: every account in this browser).
//
// Options: form field `scope` (`all`). With another account still signed in here, it becomes the active one and the
// person stays on the home page; otherwise they land on the sign-in page.
import AccountCore

/// `POST <base>/sign_out`. With a live session the CSRF token is required; without one there is nothing to end.
struct SignOutAction: Sendable {
    func submit(_ context: RequestContext) throws -> Response {
        guard try context.session() != nil else {
            context.activate(token: "", session: nil)
            context.flash.set(Flash("signed_out"))
            return context.redirect(to: context.site.paths.signIn())
        }
        if context.form["scope"] == "all" {
            try context.signOutEverywhereHere()
            context.flash.set(Flash("signed_out_all"))
            return context.redirect(to: context.site.paths.signIn())
        }
        guard try context.signOutActive() != nil else {
            context.flash.set(Flash("signed_out"))
            return context.redirect(to: context.site.paths.signIn())
        }
        context.flash.set(Flash("signed_out_one"))
        return context.redirect(to: context.site.paths.home)
    }
}
