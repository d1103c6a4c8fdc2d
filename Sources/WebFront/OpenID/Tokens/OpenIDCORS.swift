// OpenIDCORS.swift: cross-origin access for the endpoints browser-based public clients (single-page apps) call from
// their own origin: token, userinfo, revocation and device authorization. Their answers carry
// `Access-Control-Allow-Origin: *`, and an OPTIONS preflight is answered 204 naming the methods and the two request
// headers they need (Authorization, Content-Type). `*` admits no cookie, and none is read there: an answer holds a token
// only for a request that presented a credential itself. Introspection is for resource servers' back ends: no CORS.
// Options: the preflight's max age (600 s).
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
