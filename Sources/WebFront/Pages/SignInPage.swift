// SignInPage.swift: GET shows the sign-in form; POST signs in and returns to the checked `rd` target (or, for an
// account with a second factor, goes on to SecondFactorPage).
//
// Options: `?add=1` (form field `add`): sign in to another account while signed in; the account that was active stays
// signed in, waiting in the switcher (see RequestContext+Accounts, `session.max_accounts`). `?email=`: the address
// field's first value (OpenID Connect's `login_hint`; one line of at most 254 characters, else ignored).
import AccountCore
import Encodings

/// `GET|POST <base>/sign_in`: email, password, remember me, the return target `rd`, and `add`.
struct SignInPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let authentication: Authentication
    init(_ core: AccountServices) { authentication = core.authentication }

    func show(_ context: RequestContext) throws -> Response {
        let adding = context.query["add"] == "1"
        if try context.session() != nil {
            guard adding else { return context.redirect(to: context.returnTarget(context.query["rd"])) }
            guard try context.hasRoomForAnotherAccount() else { return tooMany(context) }
        }
        let hint = context.query["email"].flatMap { $0.utf8.count <= 254 && !$0.contains(where: \.isNewline) ? $0 : nil } ?? ""
        return try render(context, email: hint, returnTo: context.query["rd"], adding: adding && (try context.session()) != nil)
    }

    func submit(_ context: RequestContext) throws -> Response {
        let form = context.form
        let adding = try form["add"] == "1" && context.session() != nil
        if adding, try !context.hasRoomForAnotherAccount() { return tooMany(context) }
        // A second step is bound to this browser's binding cookie; a new one is only set when a second step follows.
        let existingBinding = context.socialBinding(create: false)
        let binding = existingBinding ?? context.core.random.bytes(32)
        do {
            // Adding an account keeps the active one; otherwise the browser's old session ends with this sign-in.
            let grant = try authentication.signIn(
                email: form["email"] ?? "", password: form["password"] ?? "", rememberMe: form["remember_me"] == "1",
                client: context.client, here: context.browserTokens, keepPrevious: adding, binding: binding)
            try context.startSession(grant, keepPrevious: adding)
            context.flash.set(Flash("signed_in"))
            return context.redirect(to: context.returnTarget(form["rd"]))
        } catch AccountError.invalidCredentials {
            return try render(context, email: form["email"] ?? "", returnTo: form["rd"], adding: adding,
                              flash: Flash("sign_in_failed", kind: .alert))
        } catch AccountError.secondFactorRequired(let challenge) {
            if existingBinding == nil { context.cookies.setHostBound(RequestContext.socialBindingCookie, Base64URL.encode(binding)) }
            return SecondFactorPage.begin(context, challenge: challenge, returnTo: form["rd"], adding: adding)
        } catch AccountError.unconfirmed {
            return try render(context, email: form["email"] ?? "", returnTo: form["rd"], adding: adding,
                              flash: Flash("unconfirmed", kind: .alert))
        }
    }

    private func tooMany(_ context: RequestContext) -> Response {
        context.flash.set(Flash("too_many_accounts", kind: .alert))
        return context.redirect(to: context.site.paths.home)
    }

    private func render(_ context: RequestContext, email: String, returnTo: String?, adding: Bool, flash: Flash? = nil) throws -> Response {
        // "webauthn": the browser may offer the site's passkeys in the address field's autofill (passkeys.js); only
        // where passkeys can work (a public_url whose host is a name).
        let returnTarget = returnTo.map { context.returnTarget($0) }.flatMap { $0 != context.site.paths.home ? $0 : nil }
        // The values are built only when the page is rendered (the layout asks for them on a cache miss).
        func values() -> [String: Any] {
            let address = context.core.configuration.passkeys.isUsable ? "username webauthn" : "username"
            var values = FormView.fields([.email(autocomplete: address), .password("password", autocomplete: "current-password")],
                                         form: ["email": email], catalog: context.catalog)
            if let returnTarget { values["rd"] = returnTarget }
            if adding { values["adding"] = true }
            values["social"] = context.socialButtons(labelKey: "social_sign_in_with", returnTo: returnTarget)
            values["passkey_paths"] = PasskeyActions.paths(context)
            values["passkey_messages"] = PasskeyActions.scriptMessages(context.catalog)
            return values
        }
        // The plain form (no address typed, no return target, nobody signed in) is the same for every signed-out visitor.
        let plain = email.isEmpty && returnTarget == nil && !adding
        return try context.layout.page("sign_in", values(), flash: flash, cacheKey: plain ? "sign_in" : nil)
    }
}
