// Routes+OpenID.swift: every route of the OpenID Connect provider, merged into Routes.table when it is on
// (`oidc.enabled`). Kinds: the metadata are pages anyone reads; `oidc/authorize` and `oidc/logout` are cross-site (other
// sites send the browser there with GET or POST: cookies read, no CSRF token, POST handled as GET); the consent,
// device, logout-confirmation and settings forms check the CSRF token; the back-channel endpoints are `api` routes
// (clients send their credentials in the request; no cookie), those single-page apps call with CORS (OpenIDCORS).
import AccountCore

extension Routes {
    /// The provider's routes; `api`: whether the JSON API is on (`v1/users/sign_in/oidc` is part of it).
    static func openID(core: AccountServices, api: Bool) -> [String: Route] {
        let metadata = OpenIDMetadataPages(core)
        let authorize = AuthorizeEndpoint(core), consent = ConsentPage(core), chooser = SelectAccountPage(core)
        let pushed = PushedAuthorizationEndpoint(core), apps = ConnectedAppsPage(core)
        let token = TokenEndpoint(core), userinfo = UserinfoEndpoint(core), introspection = IntrospectionEndpoint(core)
        let revocation = RevocationEndpoint(core), device = DeviceAuthorizationEndpoint(core), devicePage = DevicePage(core)
        let endSession = EndSessionEndpoint(core)
        var table: [String: Route] = [
            // Metadata (OpenIDMetadataPages)
            OpenIDDiscovery.path: .page(["GET": metadata.configuration]),
            OpenIDDiscovery.Endpoint.jwks: .page(["GET": metadata.jwks]),
            // Signing in to an app (Authorization/)
            "oidc/authorize": .crossSite(authorize.handle),
            "oidc/consent": .form(["GET": consent.show, "POST": consent.submit]),
            "oidc/select_account": .page(["GET": chooser.show]),
            "oidc/par": .api(["POST": pushed.submit]),
            "settings/apps": .page(["GET": apps.show]),
            "settings/apps/revoke": .form(["POST": apps.revoke]),
            // Tokens (Tokens/)
            "oidc/token": .api(OpenIDCORS.open(["POST": token.submit])),
            "oidc/userinfo": .api(OpenIDCORS.open(["GET": userinfo.show, "POST": userinfo.show])),
            "oidc/introspect": .api(["POST": introspection.submit]),
            "oidc/revoke": .api(OpenIDCORS.open(["POST": revocation.submit])),
            // Devices (Devices/)
            "oidc/device_authorization": .api(OpenIDCORS.open(["POST": device.submit])),
            "device": .form(["GET": devicePage.show, "POST": devicePage.submit]),
            // Logout (Logout/)
            "oidc/logout": .crossSite(endSession.handle),
            "oidc/logout/confirm": .form(["POST": endSession.confirm]),
        ]
        if api { table["v1/users/sign_in/oidc"] = .api(["POST": OpenIDSignInAPI(core).submit]) }
        return table
    }
}
