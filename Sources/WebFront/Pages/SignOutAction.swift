// SignOutAction.swift: POST ends the active account's session (`scope=all`: every account in this browser); GET is the
// one-button page an app links to (`<base>/sign_out?rd=https://app.example/`), which never signs out by itself.
//
// Options: form field `scope` (`all`); `rd` (query of the GET, form field of the POST): where to go afterwards, checked
// like every return target (ReturnTarget: this site's paths, `public_url`'s host, `redirect.allowed_hosts`); one that
// is refused goes where a sign-out goes without one. Without `rd`: with another account still signed in here, it
// becomes the active one and the person stays on the home page; otherwise they land on the sign-in page.
// A GET only renders a form: a link, an image or a prefetch cannot end anyone's session (the POST carries the CSRF
// token). Signed out already, the GET goes straight on to `rd`: there is nothing to confirm.
import AccountCore

/// `GET|POST <base>/sign_out`. With a live session the POST needs the CSRF token; without one there is nothing to end.
struct SignOutAction: Sendable {
    func show(_ context: RequestContext) throws -> Response {
        let rd = context.query["rd"] ?? ""
        guard try context.session() != nil else {
            return context.redirect(to: target(context, rd, usual: context.site.paths.signIn()))
        }
        let question = context.catalog.text("sign_out_question", ["site": context.site.configuration.siteName])
        return try context.layout.page("sign_out", ["question": question, "rd": target(context, rd, usual: context.site.paths.home)])
    }

    func submit(_ context: RequestContext) throws -> Response {
        let rd = context.form["rd"] ?? ""
        guard try context.session() != nil else {
            context.activate(token: "", session: nil)
            return finish(context, rd, flash: "signed_out", usual: context.site.paths.signIn())
        }
        if context.form["scope"] == "all" {
            try context.signOutEverywhereHere()
            return finish(context, rd, flash: "signed_out_all", usual: context.site.paths.signIn())
        }
        guard try context.signOutActive() != nil else {
            return finish(context, rd, flash: "signed_out", usual: context.site.paths.signIn())
        }
        return finish(context, rd, flash: "signed_out_one", usual: context.site.paths.home)
    }

    /// The redirect after signing out: to `rd` when it is given and allowed (no flash: the message would wait for the
    /// next visit here), else to `usual` with the flash `flash`.
    private func finish(_ context: RequestContext, _ rd: String, flash: String, usual: String) -> Response {
        let location = target(context, rd, usual: usual)
        if rd.isEmpty || location == usual { context.flash.set(Flash(flash)) }
        return context.redirect(to: location)
    }

    /// `rd` when it is a return target this site may follow, else `usual`.
    private func target(_ context: RequestContext, _ rd: String, usual: String) -> String {
        ReturnTarget.checked(rd, fallback: usual, allowedHosts: context.site.allowedHosts)
    }
}
