// Routes+OpenIDTokens.swift: the provider's back-channel endpoints and the device page (issue 38), merged into
// Routes.table when OpenID Connect is enabled (`oidc.enabled`). The endpoints are `api` routes (clients send their
// credentials in the request; no cookie, no CSRF token); `device` is a form a signed-in person posts (CSRF checked).
//
// Browser-based public clients (single-page apps) call token, userinfo, revocation and device authorization from
// their own origin: those answers carry `Access-Control-Allow-Origin: *`, and an OPTIONS preflight is answered 204
// naming the methods and the two request headers they need (Authorization, Content-Type). `*` admits no cookie, and
// none is read here: an answer holds a token only for a request that presented a credential itself. Introspection is
// for resource servers' back ends: no CORS.
import AccountCore

extension Routes {
    /// `oidc/token`, `oidc/userinfo`, `oidc/introspect`, `oidc/revoke`, `oidc/device_authorization` and `device`.
    static func openIDTokens(core: AccountServices, site: Site? = nil) -> [String: Route] {
        let token = TokenEndpoint(core), userinfo = UserinfoEndpoint(core), introspection = IntrospectionEndpoint(core)
        let revocation = RevocationEndpoint(core), device = DeviceAuthorizationEndpoint(core), devicePage = DevicePage(core)
        return [
            "oidc/token": .api(OpenIDCORS.open(["POST": token.submit])),
            "oidc/userinfo": .api(OpenIDCORS.open(["GET": userinfo.show, "POST": userinfo.show])),
            "oidc/introspect": .api(["POST": introspection.submit]),
            "oidc/revoke": .api(OpenIDCORS.open(["POST": revocation.submit])),
            "oidc/device_authorization": .api(OpenIDCORS.open(["POST": device.submit])),
            "device": .form(["GET": devicePage.show, "POST": devicePage.submit]),
        ]
    }
}

/// Cross-origin access for the endpoints browser clients call.
enum OpenIDCORS {
    /// `methods`, each answer with `Access-Control-Allow-Origin: *`, plus an OPTIONS preflight.
    static func open(_ methods: [String: Handler]) -> [String: Handler] {
        var open = methods.mapValues { handler -> Handler in
            { context in
                var response = try handler(context)
                response.setHeader("Access-Control-Allow-Origin", "*")
                return response
            }
        }
        let allowed = (methods.keys.sorted() + ["OPTIONS"]).joined(separator: ", ")
        open["OPTIONS"] = { _ in
            Response(status: 204, headers: [(name: "Access-Control-Allow-Origin", value: "*"),
                                            (name: "Access-Control-Allow-Methods", value: allowed),
                                            (name: "Access-Control-Allow-Headers", value: "Authorization, Content-Type"),
                                            (name: "Access-Control-Max-Age", value: "600")])
        }
        return open
    }
}
