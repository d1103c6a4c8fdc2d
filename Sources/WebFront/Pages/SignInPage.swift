// SignInPage.swift: GET shows the sign-in form; POST signs in and returns to the checked `rd` target.
import AccountCore
import FastCGI

/// `GET|POST <base>/sign_in`: email, password, remember me, and the return target `rd`.
struct SignInPage: Sendable {
    func show(_ context: RequestContext) throws -> Response {
        if try context.session() != nil { return context.redirect(to: context.returnTarget(context.query["rd"])) }
        return try render(context, email: "", returnTo: context.query["rd"])
    }

    func submit(_ context: RequestContext) throws -> Response {
        try context.verifyCSRF()
        let form = context.form
        do {
            let grant = try context.site.services.authentication.signIn(
                email: form["email"] ?? "", password: form["password"] ?? "", rememberMe: form["remember_me"] == "1",
                client: context.client, previousToken: context.sessionToken)
            context.startSession(grant)
            context.setFlash(Flash("signed_in"))
            return context.redirect(to: context.returnTarget(form["rd"]))
        } catch AccountError.invalidCredentials {
            return try render(context, email: form["email"] ?? "", returnTo: form["rd"], flash: Flash("sign_in_failed", kind: .alert))
        } catch AccountError.unconfirmed {
            return try render(context, email: form["email"] ?? "", returnTo: form["rd"], flash: Flash("unconfirmed", kind: .alert))
        }
    }

    private func render(_ context: RequestContext, email: String, returnTo: String?, flash: Flash? = nil) throws -> Response {
        var values = FormView.fields([.email(autocomplete: "username"), .password("password", autocomplete: "current-password")],
                                     form: ["email": email], catalog: context.site.renderer.catalog)
        if let returnTo, case let checked = context.returnTarget(returnTo), checked != context.site.paths.home { values["rd"] = checked }
        // The plain form (no address typed, no return target) is the same for every signed-out visitor.
        let plain = email.isEmpty && values["rd"] == nil
        return try context.page("sign_in", values, flash: flash, cacheKey: plain ? "sign_in" : nil)
    }
}
