// SecondFactorPage.swift: the second step of a sign-in, and the step-up of a signed-in session the gate asks for
// (`FRONTDOOR_REQUIRE=2fa`), at `<base>/sign_in/second_factor`. One code field (a one-time code or a recovery code).
//
// Options: `rd` (the return target, checked as sign-in checks it), `add` (the sign-in added an account, as on the
// sign-in page), the cookie below; `second_factor` (AccountCore's SecondFactorPolicy). What the page shows:
// - a pending sign-in (the challenge cookie names one still usable in this browser): the code form; the right code
//   signs in with two factors and returns to `rd`;
// - else a signed-in session with one factor: the code form as a step-up (the gate's `rd` then admits), or, for an
//   account without a second factor, a link to set one up;
// - else: the sign-in page (a challenge that ended: sign in again).
// The challenge travels in a cookie, not a hidden field: host-bound (`__Host-` over https, HttpOnly, SameSite=Lax,
// as long as the challenge), so it is never in the page's HTML (no page cache, saved page or script ever holds it) and a sibling
// subdomain cannot plant one (a login CSRF into someone else's second step); AccountCore also binds it to the
// browser's binding cookie (the social flows' `frontdoor_oauth`), so a challenge copied elsewhere does not complete.
// The code field is `autocomplete="one-time-code"` with no numeric `inputmode`: a recovery code has letters, and a
// phone's digit pad would hide them.
//   frontdoor_second_factor   the challenge's token between the password and the second step
import AccountCore
import AccountRules

/// `GET|POST <base>/sign_in/second_factor`.
struct SecondFactorPage: Sendable {
    // Core operations this page uses, given in Routes.table.
    let secondFactor: SecondFactorSignIn
    let methods: SignInMethods
    init(_ core: AccountServices) { (secondFactor, methods) = (core.secondFactor, core.signInMethods) }

    static let challengeCookie = "frontdoor_second_factor"

    /// What the page is for in this request.
    private enum Purpose {
        case signIn(challenge: String)
        case stepUp(SessionInfo)
        case setUpFirst(SessionInfo)
        case done
        case none
    }

    func show(_ context: RequestContext) throws -> Response {
        let returnTo = context.query["rd"]
        switch try purpose(context) {
        case .none: return context.redirect(to: context.site.paths.signIn(returnTo: checkedReturn(context, returnTo)))
        case .done: return context.redirect(to: context.returnTarget(returnTo))
        case .signIn: return try render(context, stepUp: false, returnTo: returnTo, adding: context.query["add"] == "1")
        case .stepUp: return try render(context, stepUp: true, returnTo: returnTo, adding: false)
        case .setUpFirst: return try renderSetUp(context, returnTo: returnTo)
        }
    }

    func submit(_ context: RequestContext) throws -> Response {
        let form = context.form
        let returnTo = form["rd"], adding = form["add"] == "1"
        let proof = SecondFactorProof.code(form["code"] ?? "")
        switch try purpose(context) {
        case .none:
            context.flash.set(Flash("second_factor_expired", kind: .alert))
            return context.redirect(to: context.site.paths.signIn(returnTo: checkedReturn(context, returnTo)))
        case .done:
            return context.redirect(to: context.returnTarget(returnTo))
        case .setUpFirst:
            return try renderSetUp(context, returnTo: returnTo)
        case .signIn(let challenge):
            do {
                let grant = try secondFactor.complete(challenge: challenge, proof: proof, client: context.client, here: context.browserTokens,
                                                      keepPrevious: adding, binding: context.socialBinding(create: false))
                context.cookies.setHostBound(Self.challengeCookie, "", maxAge: 0)
                try context.startSession(grant, keepPrevious: adding)
                context.flash.set(Flash("signed_in"))
                return context.redirect(to: context.returnTarget(returnTo))
            } catch AccountError.invalidCredentials {
                return try render(context, stepUp: false, returnTo: returnTo, adding: adding, wrongCode: true)
            } catch AccountError.refused, AccountError.notFound {
                context.cookies.setHostBound(Self.challengeCookie, "", maxAge: 0)
                context.flash.set(Flash("second_factor_expired", kind: .alert))
                return context.redirect(to: context.site.paths.signIn(returnTo: checkedReturn(context, returnTo)))
            }
        case .stepUp(let session):
            do {
                try secondFactor.stepUp(session: session.digest, proof: proof, client: context.client)
                context.flash.set(Flash("second_factor_passed"))
                return context.redirect(to: context.returnTarget(returnTo))
            } catch AccountError.invalidCredentials {
                return try render(context, stepUp: true, returnTo: returnTo, adding: false, wrongCode: true)
            } catch AccountError.refused {
                return try renderSetUp(context, returnTo: returnTo)
            } catch AccountError.notFound {
                _ = context.clearSession()
                return context.redirect(to: context.site.paths.signIn(returnTo: checkedReturn(context, returnTo)))
            }
        }
    }

    // MARK: Parts

    /// A pending sign-in in this browser comes first (a person adding an account is signed in already).
    private func purpose(_ context: RequestContext) throws -> Purpose {
        if let challenge = context.cookies.hostBoundValue(Self.challengeCookie), !challenge.isEmpty,
           try secondFactor.isPending(challenge: challenge, binding: context.socialBinding(create: false)) {
            return .signIn(challenge: challenge)
        }
        guard let session = try context.session() else { return .none }
        if session.factors >= 2 { return .done }
        return try methods.hasSecondFactor(accountId: session.accountId) ? .stepUp(session) : .setUpFirst(session)
    }

    /// The return target for the sign-in link: nil for the home page (as the sign-in page keeps it).
    private func checkedReturn(_ context: RequestContext, _ raw: String?) -> String? {
        let checked = context.returnTarget(raw)
        return checked == context.site.paths.home ? nil : checked
    }

    private func render(_ context: RequestContext, stepUp: Bool, returnTo: String?, adding: Bool, wrongCode: Bool = false) throws -> Response {
        let catalog = context.catalog
        var errors = ValidationErrors()
        if wrongCode { errors.add(FieldError(key: "second_factor_wrong_code"), to: "code", displayName: catalog.text("second_factor_field_code")) }
        let spec = InputSpec(name: "code", type: "text", autocomplete: "one-time-code", keepsValue: false,
                             hintKey: "second_factor_code_hint", labelKey: "second_factor_field_code")
        var values = FormView.fields([spec], form: [:], errors: errors, catalog: catalog)
        if let target = checkedReturn(context, returnTo) { values["rd"] = target }
        if adding { values["adding"] = true }
        values["step_up"] = stepUp
        values["action"] = context.site.paths.path("sign_in/second_factor")
        if wrongCode { values["form_error"] = catalog.text("form_has_errors") }
        values["passkey_paths"] = try PasskeyActions.secondFactorPaths(context)
        values["passkey_messages"] = PasskeyActions.scriptMessages(catalog)
        return try context.layout.page("sign_in_second_factor", values, status: wrongCode ? 422 : 200)
    }

    /// For a session whose account has no second factor: where to set one up (then come back), or sign out.
    private func renderSetUp(_ context: RequestContext, returnTo: String?) throws -> Response {
        var values: [String: Any] = ["set_up_first": true]
        var setUp = context.site.paths.path("settings/two_step")
        if let target = checkedReturn(context, returnTo) {
            values["rd"] = target
            setUp += "?rd=" + FormData.encode(target)
        }
        values["set_up_url"] = setUp
        if context.core.configuration.passkeys.isUsable { values["passkeys_url"] = context.site.paths.path("settings/passkeys") }
        return try context.layout.page("sign_in_second_factor", values)
    }
}

extension SecondFactorPage {
    /// After a right password for an account with a second factor (the sign-in page): keep the challenge in this
    /// browser and go to the second step, carrying the return target and `add`.
    static func begin(_ context: RequestContext, challenge: String, returnTo: String?, adding: Bool) -> Response {
        context.cookies.setHostBound(challengeCookie, challenge, maxAge: Int(context.core.configuration.secondFactor.challengeLifetime))
        var location = context.site.paths.path("sign_in/second_factor")
        var query: [String] = []
        let checked = context.returnTarget(returnTo)
        if checked != context.site.paths.home { query.append("rd=" + FormData.encode(checked)) }
        if adding { query.append("add=1") }
        if !query.isEmpty { location += "?" + query.joined(separator: "&") }
        return context.redirect(to: location)
    }
}
