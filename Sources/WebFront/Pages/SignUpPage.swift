// SignUpPage.swift: GET shows the sign-up form; POST creates the account and signs the person in.
import AccountCore
import AccountRules
import FastCGI

/// `GET|POST <base>/sign_up`: email, password, password confirmation.
struct SignUpPage: Sendable {

    func show(_ context: RequestContext) throws -> Response {
        if try context.session() != nil { return context.redirect(to: context.site.paths.home) }
        return try render(context, form: [:])
    }

    func submit(_ context: RequestContext) throws -> Response {
        try context.verifyCSRF()
        do {
            switch try context.site.services.registration.signUp(context.form, client: context.client) {
            case .signedIn(let grant):
                context.startSession(grant)
                context.setFlash(Flash("signed_up"))
                return context.redirect(to: context.site.paths.home)
            case .confirmationSent:
                return try context.page("message", ["title": "check_email_title", "text": "check_email_text"].localized(context))
            }
        } catch AccountError.invalid(let errors) {
            return try render(context, form: context.form, errors: errors)
        }
    }

    private func render(_ context: RequestContext, form: [String: String], errors: ValidationErrors = .init()) throws -> Response {
        let catalog = context.site.renderer.catalog
        let inputs: [InputSpec] = [
            .email(autocomplete: "email"),
            .password("password", autocomplete: "new-password", hintKey: "password_hint",
                      hintArguments: ["count": String(context.site.configuration.password.minLength)]),
            .password("password_confirmation", autocomplete: "new-password"),
        ]
        var values = FormView.fields(inputs, form: form, errors: errors, catalog: catalog)
        if !errors.isEmpty { values["form_error"] = catalog.text("form_has_errors") }
        return try context.page("sign_up", values)
    }
}
