// Routes.swift: the whole route table, in one place. Paths are relative to the base path.
//
// Each route says what it is (`RouteKind`), and the responder makes the CSRF check that kind needs before the
// handler runs (Frontdoor.route, CSRF.swift): a page cannot forget it. Every request other than GET and HEAD is
// checked unless its route is the JSON API or a cross-site endpoint (whose POST does what its GET does);
// RouteKindTests hold the table to that.
import AccountCore
import OAuthClient

/// A page handler: parse → one core call → render.
typealias Handler = @Sendable (RequestContext) throws -> Response

/// What a route is; it decides the CSRF check before its handler.
enum RouteKind: Sendable, CaseIterable {
    /// Pages a browser GETs (links, a provider's redirect back): GET only.
    case page
    /// Forms a browser posts with its cookies: the form's token is checked first.
    case form
    /// Forms that act only for a live session (sign_out; browserid/certify, which answers the dialog in JSON): with
    /// a session its token is checked first; without one the handler only says so (nothing to end, 401) and changes
    /// nothing, so a page whose session lapsed is not met with a CSRF refusal.
    case sessionForm
    /// The JSON API (`v1/…`, `verify`): credentials come in the request, no cookie is read; no token.
    case api
    /// The gate nginx's auth_request asks (auth/check): GET only.
    case gate
    /// What an operator's backends ask (metrics, internal/provider_token), allowed by address: GET only.
    case `internal`
    /// Endpoints other sites send a browser to with GET or POST (OpenID Connect's authorize and end_session): cookies
    /// are read, no CSRF token (the other site cannot have one); POST is handled exactly as GET, so it can do nothing
    /// a cross-site GET cannot. GET and POST only, both given the same handler (`Route.crossSite`).
    case crossSite
    /// The admin pages and forms (`admin/…`, Admin/): a signed-in member of `admin.group`, proven by two factors when
    /// `admin.require_second_factor`, checked before the handler (AdminAccess) so no admin page can forget it; every
    /// POST's form token is checked first, as on `form`.
    case admin
}

/// One route: its kind and its handler per method.
struct Route: Sendable {
    let kind: RouteKind
    let methods: [String: Handler]

    static func page(_ methods: [String: Handler]) -> Route { Route(kind: .page, methods: methods) }
    static func form(_ methods: [String: Handler]) -> Route { Route(kind: .form, methods: methods) }
    static func sessionForm(_ methods: [String: Handler]) -> Route { Route(kind: .sessionForm, methods: methods) }
    static func api(_ methods: [String: Handler]) -> Route { Route(kind: .api, methods: methods) }
    static func gate(_ methods: [String: Handler]) -> Route { Route(kind: .gate, methods: methods) }
    static func `internal`(_ methods: [String: Handler]) -> Route { Route(kind: .internal, methods: methods) }
    static func admin(_ methods: [String: Handler]) -> Route { Route(kind: .admin, methods: methods) }
    /// A cross-site endpoint: one handler for GET and POST (it reads its parameters from the query or the form alike).
    static func crossSite(_ handler: @escaping Handler) -> Route { Route(kind: .crossSite, methods: ["GET": handler, "POST": handler]) }
}

/// Every route by relative path and method. HEAD is answered by the GET handler.
enum Routes {
    /// The label and table key of the residences' verify route, whose middle segment is the residence's id.
    static let residenceVerify = "v1/residences/:id/verify"

    /// `providers`: the configured social sign-in providers' ids; each gets `auth/<id>` (start) and `auth/<id>/callback`.
    /// `api`: the JSON API for native apps (`v1/…`, config `api.enabled`) and its residence approval page.
    /// `core`: the account operations, of which each page is given the ones it uses.
    /// `openID`: the OpenID Connect provider's routes (`oidc.enabled`), each owner's file merged with one line below.
    static func table(core: AccountServices, providers: [String] = [], api: Bool = true, openID: Bool = false) -> [String: Route] {
        // Each page is given the account operations it uses (see its "Core operations" block).
        let signUp = SignUpPage(core), signIn = SignInPage(core), signOut = SignOutAction(), home = HomePage()
        let confirmation = ConfirmationPage(core), reminder = PasswordReminderPage(core), reset = PasswordResetPage(core)
        let dialog = BrowserIDDialogPage(core), certify = CertifyAction(core), verify = VerifyAPI(core)
        let gate = Gate(), metrics = MetricsPage(core)
        let profile = ProfilePage(core), password = PasswordChangePage(core), emails = EmailAddressesPage(core)
        let sessions = SessionsPage(core), deletion = AccountDeletionPage(core), reauthentication = ReauthenticationPage(core)
        let switcher = AccountSwitchAction()
        let socialStart = SocialStartAction(core), socialCallback = SocialCallbackPage(core), socialEmail = SocialEmailPage(core)
        let socialLink = SocialLinkPage(core), connections = ConnectionsPage(core), providerToken = ProviderTokenAPI(core)
        let language = LanguageAction(core), native = BrowserIDNativePage(core), picker = SocialPickerPage(core)
        let health = HealthPage(core)
        let secondFactor = SecondFactorPage(core)
        let twoStep = TwoStepPage(core)
        var table: [String: Route] = [
            "": .page(["GET": home.show]),
            "sign_up": .form(["GET": signUp.show, "POST": signUp.submit]),
            "sign_in": .form(["GET": signIn.show, "POST": signIn.submit]),
            "sign_out": .sessionForm(["GET": signOut.show, "POST": signOut.submit]),
            "confirm": .page(["GET": confirmation.confirm]),
            "confirmation/new": .form(["GET": confirmation.show, "POST": confirmation.submit]),
            "password/new": .form(["GET": reminder.show, "POST": reminder.submit]),
            "password/edit": .form(["GET": reset.show, "POST": reset.submit]),
            "browserid/sign_in": .page(["GET": dialog.show]),
            "browserid/provision": .page(["GET": dialog.provision]),
            "browserid/authenticate": .page(["GET": dialog.authenticate]),
            "browserid/certify": .sessionForm(["POST": certify.submit]),
            "browserid/native": .form(["GET": native.show, "POST": native.submit]),
            "settings": .form(["GET": profile.show, "POST": profile.submit]),
            "settings/password": .form(["GET": password.show, "POST": password.submit]),
            "settings/emails": .form(["GET": emails.show, "POST": emails.add]),
            "settings/emails/resend": .form(["POST": emails.resend]),
            "settings/emails/remove": .form(["POST": emails.remove]),
            "settings/emails/primary": .form(["POST": emails.makePrimary]),
            "settings/sessions": .page(["GET": sessions.show]),
            "settings/sessions/revoke": .form(["POST": sessions.revoke]),
            "settings/sessions/revoke_others": .form(["POST": sessions.revokeOthers]),
            "settings/delete": .form(["GET": deletion.show, "POST": deletion.submit]),
            "settings/reauthenticate": .form(["GET": reauthentication.show, "POST": reauthentication.submit]),
            "switch": .form(["POST": switcher.submit]),
            "language": .form(["POST": language.submit]),
            "settings/connections": .page(["GET": connections.show]),
            "settings/connections/unlink": .form(["POST": connections.unlink]),
            "settings/two_step": .form(["GET": twoStep.show, "POST": twoStep.confirm]),
            "settings/two_step/begin": .form(["POST": twoStep.begin]),
            "settings/two_step/recovery_codes": .form(["POST": twoStep.renew]),
            "settings/two_step/off": .form(["POST": twoStep.turnOff]),
            "auth/email": .form(["GET": socialEmail.show, "POST": socialEmail.submit]),
            "auth/link": .form(["GET": socialLink.show, "POST": socialLink.submit]),
            "auth/pick": .form(["GET": picker.show, "POST": picker.submit]),
            "internal/provider_token": .internal(["GET": providerToken.show]),
            "auth/check": .gate(["GET": gate.check]),
            "metrics": .internal(["GET": metrics.show]),
            "health": .page(["GET": health.alive]),
            "health/ready": .page(["GET": health.ready]),
            "verify": .api(["POST": verify.submit, "GET": verify.wrongMethod, "PUT": verify.wrongMethod,
                            "DELETE": verify.wrongMethod, "PATCH": verify.wrongMethod]),
            "sign_in/second_factor": .form(["GET": secondFactor.show, "POST": secondFactor.submit]),
        ]
        // Passkeys: the settings page, and the JSON endpoints its script and the sign-in page's call (PasskeyActions).
        let passkeys = PasskeysPage(core), passkeyActions = PasskeyActions(core)
        table["settings/passkeys"] = .page(["GET": passkeys.show])
        table["settings/passkeys/rename"] = .form(["POST": passkeys.rename])
        table["settings/passkeys/remove"] = .form(["POST": passkeys.remove])
        table["passkeys/register/options"] = .form(["POST": passkeyActions.registerOptions])
        table["passkeys/register"] = .form(["POST": passkeyActions.register])
        table["passkeys/sign_in/options"] = .form(["POST": passkeyActions.signInOptions])
        table["passkeys/sign_in"] = .form(["POST": passkeyActions.signIn])
        table["passkeys/reauthenticate/options"] = .form(["POST": passkeyActions.reauthenticateOptions])
        table["passkeys/reauthenticate"] = .form(["POST": passkeyActions.reauthenticate])
        table["passkeys/second_factor/options"] = .form(["POST": passkeyActions.secondFactorOptions])
        table["passkeys/second_factor"] = .form(["POST": passkeyActions.secondFactorFinish])
        if api {
            let users = UsersAPI(core), password = PasswordAPI(core), providerToken = ProviderTokenSignInAPI(core)
            let residences = ResidencesAPI(core), approval = ResidenceApprovalPage(core)
            table["v1/users"] = .api(["POST": users.register, "PUT": users.update, "DELETE": users.delete])
            table["v1/users/sign_in"] = .api(["POST": users.signIn])
            table["v1/users/sign_out"] = .api(["DELETE": users.signOut])
            table["v1/users/password"] = .api(["POST": password.remind, "PUT": password.change])
            table["v1/users/auth/facebook"] = .api(["POST": { try providerToken.submit($0, kind: .facebook) }])
            table["v1/users/auth/google"] = .api(["POST": { try providerToken.submit($0, kind: .google) }])
            table["v1/users/auth/x"] = .api(["POST": { try providerToken.submit($0, kind: .twitter, ids: ["x", "twitter"]) }])
            table["v1/users/auth/twitter"] = .api(["POST": { try providerToken.submit($0, kind: .twitter, ids: ["x", "twitter"]) }])
            table["v1/residences"] = .api(["POST": residences.register])
            table[residenceVerify] = .api(["POST": { context in
                try residences.verify(context, route: context.site.paths.route(forRequestPath: context.request.path) ?? "")
            }])
            table["residences/confirm"] = .form(["GET": approval.show, "POST": approval.submit])
            table["v1/users/sign_in/second_factor"] = .api(["POST": SecondFactorAPI(core).submit])
        }
        for id in providers {
            table["auth/\(id)"] = .form(["POST": { try socialStart.submit($0, provider: id) }])
            table["auth/\(id)/callback"] = .page(["GET": { try socialCallback.show($0, provider: id) }])
        }
        // The OpenID Connect provider's routes (OpenID/Routes+OpenID.swift); none shares a path with the others.
        if openID { table.merge(Routes.openID(core: core, api: api)) { _, _ in preconditionFailure("two routes share a path") } }
        // The admin pages (Admin/Routes+Admin.swift), all under `admin/`.
        table.merge(Routes.admin(core: core)) { _, _ in preconditionFailure("two routes share a path") }
        return table
    }

    /// Routes outside the base path, by full request path (nginx sends only these there).
    static func rootTable() -> [String: Route] {
        [SupportDocumentPage.path: .page(["GET": SupportDocumentPage().show])]
    }
}
