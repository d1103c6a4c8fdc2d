// OpenIDEndpointError.swift: the errors of the provider's back-channel endpoints (token, introspection, revocation,
// device authorization, userinfo) as RFC 6749 section 5.2 and RFC 6750 section 3 answer them:
//   400 {"error": "invalid_request" | "invalid_grant" | "unsupported_grant_type" | "invalid_scope" | …, "error_description"}
//   401 {"error": "invalid_client"}, with `WWW-Authenticate: Basic realm="…"` when the client tried HTTP Basic
//   400 {"error": "authorization_pending" | "slow_down" | "access_denied" | "expired_token"} (RFC 8628 section 3.5)
//   401 on userinfo: `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750), no body needed but one is sent
// Every answer carries `Cache-Control: no-store` and `Pragma: no-cache`. The endpoints catch these themselves (their
// routes are not under `v1/`, whose errors are the API's shape); storage trouble is not one of these: it is thrown on
// to Frontdoor's one catch, which answers 503 with Retry-After.
import AccountCore

/// A refusal of an OpenID endpoint: status, the RFC's error code, a description for the client's developer.
struct OpenIDEndpointError: Error, Equatable, Sendable {
    var status: Int
    var code: String
    var description: String?
    var headers: [String: String] = [:]

    /// 400 with `code`.
    static func badRequest(_ code: String, _ description: String? = nil) -> OpenIDEndpointError {
        OpenIDEndpointError(status: 400, code: code, description: description)
    }

    /// 400 invalid_request: a parameter missing, repeated or malformed.
    static func invalidRequest(_ description: String) -> OpenIDEndpointError { .badRequest("invalid_request", description) }

    /// 401 invalid_client; `basic`: the client tried HTTP Basic, so the answer names the scheme (RFC 6749 5.2).
    static func invalidClient(basic: Bool, realm: String) -> OpenIDEndpointError {
        OpenIDEndpointError(status: 401, code: "invalid_client", description: "client authentication failed",
                            headers: basic ? ["WWW-Authenticate": "Basic realm=\"\(realm)\""] : [:])
    }

    /// 401 for a bearer token that is missing, unknown, expired or revoked (RFC 6750 3.1); `present`: one was sent
    /// (without one the challenge names no error, as the RFC asks).
    static func invalidToken(present: Bool = true) -> OpenIDEndpointError {
        OpenIDEndpointError(status: 401, code: "invalid_token", description: present ? "the access token is not valid" : nil,
                            headers: ["WWW-Authenticate": present ? "Bearer error=\"invalid_token\"" : "Bearer"])
    }

    /// The answer to a core refusal (`OpenIDError`); its reason text is for the log only.
    static func from(_ error: OpenIDError, basic: Bool, realm: String) -> OpenIDEndpointError {
        switch error {
        case .invalidGrant: return .badRequest("invalid_grant", "the grant is unknown, expired, used, revoked or another client's")
        case .invalidClient, .unknownClient: return .invalidClient(basic: basic, realm: realm)
        case .invalidScope: return .badRequest("invalid_scope", "the scope asked is beyond what was granted")
        case .accessDenied: return .badRequest("access_denied", "the person declined")
        case .authorizationPending: return .badRequest("authorization_pending")
        case .slowDown: return .badRequest("slow_down")
        case .expiredToken: return .badRequest("expired_token", "the device code has expired")
        case .clientExists, .notADatabaseClient: return .badRequest("invalid_request")
        }
    }

    /// The JSON answer, not to be cached.
    var response: Response {
        var body: [String: Any] = ["error": code]
        if let description { body["error_description"] = description }
        var response = Response.json(body, status: status)
        for (name, value) in headers { response.setHeader(name, value) }
        Self.noStore(&response)
        return response
    }

    /// `Cache-Control: no-store` and `Pragma: no-cache`, which every token answer carries (RFC 6749 5.1).
    static func noStore(_ response: inout Response) {
        response.setHeader("Cache-Control", "no-store")
        response.setHeader("Pragma", "no-cache")
    }
}
