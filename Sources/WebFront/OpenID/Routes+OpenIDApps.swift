// Routes+OpenIDApps.swift: the routes of the OpenID Connect provider's "apps" part, merged into Routes.table: RP-initiated
// logout and its confirmation, and (with `api.enabled`) the native apps' exchange of an access token for an API token.
import AccountCore

extension Routes {
    /// `oidc/logout` (cross-site: GET and POST alike), `oidc/logout/confirm` (form), `v1/users/sign_in/oidc` (api).
    static func openIDApps(core: AccountServices, api: Bool) -> [String: Route] {
        let endSession = EndSessionEndpoint(core)
        var table: [String: Route] = [
            "oidc/logout": .crossSite(endSession.handle),
            "oidc/logout/confirm": .form(["POST": endSession.confirm]),
        ]
        if api { table["v1/users/sign_in/oidc"] = .api(["POST": OpenIDSignInAPI(core).submit]) }
        return table
    }
}
