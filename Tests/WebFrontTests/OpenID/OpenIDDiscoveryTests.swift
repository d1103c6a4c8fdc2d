// OpenIDDiscoveryTests.swift: the discovery document: the issuer byte for byte (public_url + base_path, no trailing
// slash, slashes unescaped in the JSON), every endpoint under the issuer at the route table's paths, the fields
// OpenID Connect Discovery §3 requires, and only what the provider does (code flow, S256, RS256; no registration).
import Foundation
import Testing
@testable import WebFront

@Suite struct OpenIDDiscoveryTests {
    static let issuer = "http://localhost:8080/account"

    func document(_ issuer: String = issuer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OpenIDDiscovery.json(issuer: issuer))) as? [String: Any])
    }

    @Test func theIssuerIsPublicURLPlusBasePathByteForByte() throws {
        var configuration = AppConfiguration()
        configuration.publicURL = "http://localhost:8080"
        configuration.basePath = "/account"
        #expect(configuration.openIDIssuer == Self.issuer)
        let text = String(decoding: try OpenIDDiscovery.json(issuer: configuration.openIDIssuer), as: UTF8.self)
        #expect(text.contains(#""issuer":"http://localhost:8080/account","#))
        #expect(try document()["issuer"] as? String == Self.issuer)
    }

    @Test(arguments: [Self.issuer, "https://id.example.com", "https://example.com/sso/frontdoor"])
    func everyEndpointIsUnderTheIssuer(issuer: String) throws {
        let document = try document(issuer)
        let expected = [
            "authorization_endpoint": "oidc/authorize", "token_endpoint": "oidc/token", "userinfo_endpoint": "oidc/userinfo",
            "jwks_uri": "oidc/jwks", "end_session_endpoint": "oidc/logout", "introspection_endpoint": "oidc/introspect",
            "revocation_endpoint": "oidc/revoke", "device_authorization_endpoint": "oidc/device_authorization",
            "pushed_authorization_request_endpoint": "oidc/par",
        ]
        for (name, path) in expected {
            #expect(document[name] as? String == issuer + "/" + path, "\(name)")
        }
        #expect(document["registration_endpoint"] == nil, "no dynamic registration")
    }

    @Test func theRequiredFieldsSayWhatTheProviderDoes() throws {
        let document = try document()
        #expect(document["response_types_supported"] as? [String] == ["code"])
        #expect(document["response_modes_supported"] as? [String] == ["query"])
        #expect(document["subject_types_supported"] as? [String] == ["public", "pairwise"])
        #expect(document["id_token_signing_alg_values_supported"] as? [String] == ["RS256"])
        #expect(document["code_challenge_methods_supported"] as? [String] == ["S256"])
        #expect(document["grant_types_supported"] as? [String]
                == ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"])
        #expect(document["scopes_supported"] as? [String] == ["openid", "profile", "email", "groups"])
        #expect(document["token_endpoint_auth_methods_supported"] as? [String] == ["client_secret_basic", "client_secret_post", "none"])
        #expect(document["acr_values_supported"] as? [String] == ["urn:frontdoor:1fa", "urn:frontdoor:2fa"])
        #expect(Set(document["prompt_values_supported"] as? [String] ?? []) == ["none", "login", "consent", "select_account"])
        let claims = Set(document["claims_supported"] as? [String] ?? [])
        #expect(claims.isSuperset(of: ["sub", "iss", "auth_time", "acr", "amr", "sid", "email", "email_verified", "name",
                                       "preferred_username", "groups", "nonce"]))
        for flag in ["backchannel_logout_supported", "backchannel_logout_session_supported",
                     "authorization_response_iss_parameter_supported"] {
            #expect(document[flag] as? Bool == true, "\(flag)")
        }
        for flag in ["claims_parameter_supported", "request_parameter_supported", "request_uri_parameter_supported",
                     "require_pushed_authorization_requests", "frontchannel_logout_supported"] {
            #expect(document[flag] as? Bool == false, "\(flag)")
        }
    }
}
