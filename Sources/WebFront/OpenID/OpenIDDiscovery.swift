// OpenIDDiscovery.swift: the provider's metadata (OpenID Connect Discovery 1.0 §3, RFC 8414), served at
// `<issuer>/.well-known/openid-configuration`, i.e. `.well-known/openid-configuration` under the base path.
// Built from the issuer alone (`public_url` + `base_path`, exactly): every endpoint is the issuer + "/" + its route
// path, so the document cannot name a host or path the site does not answer on. What it offers is what the routes do:
// the code flow only (PKCE S256), query response mode, the device grant (RFC 8628), pushed requests (RFC 9126, not
// required), RS256 ID tokens, back-channel logout with sid, and `iss` on the authorization response (RFC 9207).
// Not offered: dynamic registration, request objects, the claims parameter, front-channel logout.
import Foundation

/// The discovery document.
public enum OpenIDDiscovery {
    /// The document's route, relative to the base path.
    public static let path = ".well-known/openid-configuration"

    /// The provider's endpoints, relative to the base path (the route table's paths; see COMMON contract).
    public enum Endpoint {
        public static let authorization = "oidc/authorize"
        public static let token = "oidc/token"
        public static let userinfo = "oidc/userinfo"
        public static let jwks = "oidc/jwks"
        public static let endSession = "oidc/logout"
        public static let introspection = "oidc/introspect"
        public static let revocation = "oidc/revoke"
        public static let deviceAuthorization = "oidc/device_authorization"
        public static let pushedAuthorizationRequest = "oidc/par"
        /// Every endpoint, by its metadata name.
        public static let all: [String: String] = [
            "authorization_endpoint": authorization, "token_endpoint": token, "userinfo_endpoint": userinfo,
            "jwks_uri": jwks, "end_session_endpoint": endSession, "introspection_endpoint": introspection,
            "revocation_endpoint": revocation, "device_authorization_endpoint": deviceAuthorization,
            "pushed_authorization_request_endpoint": pushedAuthorizationRequest,
        ]
    }

    /// The scopes clients may ask for (`offline_access` is not offered: refresh tokens come with every code grant).
    public static let scopes = ["openid", "profile", "email", "groups"]
    /// What a second factor (or its absence) is called in `acr` (`acr_values` naming the 2fa one asks for it).
    public static let acrValues = ["urn:frontdoor:1fa", "urn:frontdoor:2fa"]
    /// The claims ID tokens and userinfo may carry.
    public static let claims = ["iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "acr", "amr", "sid", "azp", "at_hash",
                                "name", "preferred_username", "email", "email_verified", "groups"]

    /// The metadata for `issuer`.
    public static func document(issuer: String) -> [String: Any] {
        var document: [String: Any] = [
            "issuer": issuer,
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
            "subject_types_supported": ["public", "pairwise"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": scopes,
            "claims_supported": claims,
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
            "introspection_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "revocation_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
            "code_challenge_methods_supported": ["S256"],
            "prompt_values_supported": ["none", "login", "consent", "select_account"],
            "acr_values_supported": acrValues,
            "claims_parameter_supported": false,
            "request_parameter_supported": false,
            "request_uri_parameter_supported": false,
            "require_pushed_authorization_requests": false,
            "backchannel_logout_supported": true,
            "backchannel_logout_session_supported": true,
            "frontchannel_logout_supported": false,
            "authorization_response_iss_parameter_supported": true,
        ]
        for (name, path) in Endpoint.all { document[name] = url(issuer: issuer, path: path) }
        return document
    }

    /// `issuer` + "/" + `path`.
    public static func url(issuer: String, path: String) -> String { issuer + "/" + path }

    /// The document as JSON (keys sorted, slashes unescaped).
    public static func json(issuer: String) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: document(issuer: issuer), options: [.sortedKeys, .withoutEscapingSlashes]))
    }
}
