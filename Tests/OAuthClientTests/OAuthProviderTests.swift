// OAuthProviderTests.swift: the authorization URL for each preset and for OpenID Connect.
import Foundation
import OAuthClient
import Testing

@Suite struct OAuthProviderTests {
    private let callback = "https://example.com/account/auth/x/callback?a=1"

    private func url(_ kind: ProviderKind, http: FakeHTTP = FakeHTTP(), nonce: String? = "n-1",
                     change: (inout ProviderConfiguration) -> Void = { _ in }) throws -> String {
        var configuration = ProviderConfiguration(id: kind.rawValue, kind: kind, clientID: "client 1", clientSecret: "s")
        change(&configuration)
        return try OAuthProvider(configuration: configuration, http: http)
            .authorizationURL(redirectURI: callback, state: "st-1", codeChallenge: "ch-1", nonce: nonce)
    }

    @Test(arguments: [
        (ProviderKind.github, "https://github.com/login/oauth/authorize?", "read:user user:email"),
        (.facebook, "https://www.facebook.com/v19.0/dialog/oauth?", "email public_profile"),
        (.twitter, "https://x.com/i/oauth2/authorize?", "users.read tweet.read offline.access"),
    ])
    func presetsSendTheCodeFlowParametersWithoutNonce(kind: ProviderKind, endpoint: String, scope: String) throws {
        let url = try url(kind)
        #expect(url.hasPrefix(endpoint))
        #expect(queryFields(url) == ["response_type": "code", "client_id": "client 1", "redirect_uri": callback, "scope": scope,
                                     "state": "st-1", "code_challenge": "ch-1", "code_challenge_method": "S256"])
    }

    @Test func valuesArePercentEncoded() throws {
        let url = try url(.github)
        #expect(url.contains("redirect_uri=https%3A%2F%2Fexample.com%2Faccount%2Fauth%2Fx%2Fcallback%3Fa%3D1&"))
        #expect(url.contains("scope=read%3Auser%20user%3Aemail&") && url.contains("client_id=client%201&"))
    }

    @Test func openIDConnectUsesTheDiscoveredEndpointAndSendsTheNonce() throws {
        let issuer = TestIssuer()
        let url = try issuer.provider().authorizationURL(redirectURI: callback, state: "st-1", codeChallenge: "ch-1", nonce: "n-1")
        #expect(url.hasPrefix("https://sso.example.com/authorize?"))
        let fields = queryFields(url)
        #expect(fields["nonce"] == "n-1" && fields["scope"] == "openid email profile" && fields["code_challenge_method"] == "S256")
        #expect(fields["state"] == "st-1" && fields["redirect_uri"] == callback && fields["response_type"] == "code")
    }

    @Test func googleReadsGooglesDiscoveryDocument() throws {
        let http = FakeHTTP()
        http.on("https://accounts.google.com/.well-known/openid-configuration",
                json(["issuer": "https://accounts.google.com", "authorization_endpoint": "https://accounts.google.com/o/oauth2/v2/auth",
                      "token_endpoint": "https://oauth2.googleapis.com/token", "jwks_uri": "https://www.googleapis.com/oauth2/v3/certs"]))
        let url = try url(.google, http: http)
        #expect(url.hasPrefix("https://accounts.google.com/o/oauth2/v2/auth?") && queryFields(url)["nonce"] == "n-1")
    }

    @Test func anOverriddenEndpointKeepsItsOwnQuery() throws {
        let url = try url(.github) { $0.authorizationEndpoint = "http://127.0.0.1:9000/authorize?tenant=a" }
        #expect(url.hasPrefix("http://127.0.0.1:9000/authorize?tenant=a&response_type=code&"))
    }

    @Test func anOverrideWinsOverDiscovery() throws {
        let http = FakeHTTP()
        let url = try url(.oidc, http: http) {
            $0.issuer = "https://sso.example.com"
            $0.authorizationEndpoint = "https://login.example.com/auth"
        }
        #expect(url.hasPrefix("https://login.example.com/auth?") && http.requests.isEmpty)
    }
}
