// Routes+OpenIDAuthorize.swift: the provider's browser side (issue 38), merged into Routes.table when OpenID Connect
// is enabled (`oidc.enabled`): the authorization endpoint (cross-site: other sites send the browser with GET or POST),
// the consent page and the account chooser, pushed authorization requests (a client's back-channel POST: api), and
// settings → Connected apps.
import AccountCore

extension Routes {
    /// `oidc/authorize`, `oidc/consent`, `oidc/select_account`, `oidc/par`, `settings/apps` and `settings/apps/revoke`.
    static func openIDAuthorize(core: AccountServices, site: Site? = nil) -> [String: Route] {
        let authorize = AuthorizeEndpoint(core), consent = ConsentPage(core), chooser = SelectAccountPage(core)
        let pushed = PushedAuthorizationEndpoint(core), apps = ConnectedAppsPage(core)
        return [
            "oidc/authorize": .crossSite(authorize.handle),
            "oidc/consent": .form(["GET": consent.show, "POST": consent.submit]),
            "oidc/select_account": .page(["GET": chooser.show]),
            "oidc/par": .api(["POST": pushed.submit]),
            "settings/apps": .page(["GET": apps.show]),
            "settings/apps/revoke": .form(["POST": apps.revoke]),
        ]
    }
}
