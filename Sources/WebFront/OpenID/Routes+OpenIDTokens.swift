// Routes+OpenIDTokens.swift: the provider's back-channel endpoints and the device page (issue 38), merged into
// Routes.table when OpenID Connect is enabled (`oidc.enabled`). The endpoints are `api` routes (clients send their
// credentials in the request; no cookie, no CSRF token); `device` is a form a signed-in person posts (CSRF checked).
import AccountCore

extension Routes {
    /// `oidc/token`, `oidc/userinfo`, `oidc/introspect`, `oidc/revoke`, `oidc/device_authorization` and `device`.
    static func openIDTokens(core: AccountServices, site: Site? = nil) -> [String: Route] {
        let token = TokenEndpoint(core), userinfo = UserinfoEndpoint(core), introspection = IntrospectionEndpoint(core)
        let revocation = RevocationEndpoint(core), device = DeviceAuthorizationEndpoint(core), devicePage = DevicePage(core)
        return [
            "oidc/token": .api(["POST": token.submit]),
            "oidc/userinfo": .api(["GET": userinfo.show, "POST": userinfo.show]),
            "oidc/introspect": .api(["POST": introspection.submit]),
            "oidc/revoke": .api(["POST": revocation.submit]),
            "oidc/device_authorization": .api(["POST": device.submit]),
            "device": .form(["GET": devicePage.show, "POST": devicePage.submit]),
        ]
    }
}
