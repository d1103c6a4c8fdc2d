// Routes.swift: the whole route table, in one place. Paths are relative to the base path.
import AccountCore
import OAuthClient

/// A page handler: parse → one core call → render.
typealias Handler = @Sendable (RequestContext) throws -> Response

/// Every route by relative path and method. HEAD is answered by the GET handler.
enum Routes {
    /// The label and table key of the residences' verify route, whose middle segment is the residence's id.
    static let residenceVerify = "v1/residences/:id/verify"

    /// `providers`: the configured social sign-in providers' ids; each gets `auth/<id>` (start) and `auth/<id>/callback`.
    /// `api`: the JSON API for native apps (`v1/…`, config `api.enabled`) and its residence approval page.
    /// `core`: the account operations, of which each page is given the ones it uses.
    static func table(core: AccountServices, providers: [String] = [], api: Bool = true) -> [String: [String: Handler]] {
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
        var table: [String: [String: Handler]] = [
            "": ["GET": home.show],
            "sign_up": ["GET": signUp.show, "POST": signUp.submit],
            "sign_in": ["GET": signIn.show, "POST": signIn.submit],
            "sign_out": ["POST": signOut.submit],
            "confirm": ["GET": confirmation.confirm],
            "confirmation/new": ["GET": confirmation.show, "POST": confirmation.submit],
            "password/new": ["GET": reminder.show, "POST": reminder.submit],
            "password/edit": ["GET": reset.show, "POST": reset.submit],
            "browserid/sign_in": ["GET": dialog.show],
            "browserid/provision": ["GET": dialog.provision],
            "browserid/authenticate": ["GET": dialog.authenticate],
            "browserid/certify": ["POST": certify.submit],
            "browserid/native": ["GET": native.show, "POST": native.submit],
            "settings": ["GET": profile.show, "POST": profile.submit],
            "settings/password": ["GET": password.show, "POST": password.submit],
            "settings/emails": ["GET": emails.show, "POST": emails.add],
            "settings/emails/resend": ["POST": emails.resend],
            "settings/emails/remove": ["POST": emails.remove],
            "settings/emails/primary": ["POST": emails.makePrimary],
            "settings/sessions": ["GET": sessions.show],
            "settings/sessions/revoke": ["POST": sessions.revoke],
            "settings/sessions/revoke_others": ["POST": sessions.revokeOthers],
            "settings/delete": ["GET": deletion.show, "POST": deletion.submit],
            "settings/reauthenticate": ["GET": reauthentication.show, "POST": reauthentication.submit],
            "switch": ["POST": switcher.submit],
            "language": ["POST": language.submit],
            "settings/connections": ["GET": connections.show],
            "settings/connections/unlink": ["POST": connections.unlink],
            "auth/email": ["GET": socialEmail.show, "POST": socialEmail.submit],
            "auth/link": ["GET": socialLink.show, "POST": socialLink.submit],
            "auth/pick": ["GET": picker.show, "POST": picker.submit],
            "internal/provider_token": ["GET": providerToken.show],
            "auth/check": ["GET": gate.check],
            "metrics": ["GET": metrics.show],
            "verify": ["POST": verify.submit, "GET": verify.wrongMethod, "PUT": verify.wrongMethod,
                       "DELETE": verify.wrongMethod, "PATCH": verify.wrongMethod],
        ]
        if api {
            let users = UsersAPI(core), password = PasswordAPI(core), providerToken = ProviderTokenSignInAPI(core)
            let residences = ResidencesAPI(core), approval = ResidenceApprovalPage(core)
            table["v1/users"] = ["POST": users.register, "PUT": users.update, "DELETE": users.delete]
            table["v1/users/sign_in"] = ["POST": users.signIn]
            table["v1/users/sign_out"] = ["DELETE": users.signOut]
            table["v1/users/password"] = ["POST": password.remind, "PUT": password.change]
            table["v1/users/auth/facebook"] = ["POST": { try providerToken.submit($0, kind: .facebook) }]
            table["v1/users/auth/google"] = ["POST": { try providerToken.submit($0, kind: .google) }]
            table["v1/users/auth/x"] = ["POST": { try providerToken.submit($0, kind: .twitter, ids: ["x", "twitter"]) }]
            table["v1/users/auth/twitter"] = ["POST": { try providerToken.submit($0, kind: .twitter, ids: ["x", "twitter"]) }]
            table["v1/residences"] = ["POST": residences.register]
            table[residenceVerify] = ["POST": { context in
                try residences.verify(context, route: context.site.paths.route(forRequestPath: context.request.path) ?? "")
            }]
            table["residences/confirm"] = ["GET": approval.show, "POST": approval.submit]
        }
        for id in providers {
            table["auth/\(id)"] = ["POST": { try socialStart.submit($0, provider: id) }]
            table["auth/\(id)/callback"] = ["GET": { try socialCallback.show($0, provider: id) }]
        }
        return table
    }

    /// Routes outside the base path, by full request path (nginx sends only these there).
    static func rootTable() -> [String: [String: Handler]] {
        [SupportDocumentPage.path: ["GET": SupportDocumentPage().show]]
    }
}
