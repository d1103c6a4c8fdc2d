// DiscoveryTests.swift: the discovery document (issuer must match, endpoints must be allowed URLs) and its cache.
import Foundation
import OAuthClient
import Testing

@Suite struct DiscoveryTests {
    private func authorize(_ provider: OAuthProvider) throws -> String {
        try provider.authorizationURL(redirectURI: "https://example.com/cb", state: "s", codeChallenge: "c", nonce: "n")
    }

    @Test func aDocumentNamingAnotherIssuerIsRefused() {
        let issuer = TestIssuer(documentIssuer: "https://evil.example.com")
        #expect(throws: OAuthError.invalidResponse("discovery document https://sso.example.com/.well-known/openid-configuration "
                                                   + "names issuer https://evil.example.com, not https://sso.example.com")) {
            try authorize(issuer.provider())
        }
    }

    @Test func theDocumentIsKeptForAnHour() throws {
        let issuer = TestIssuer()
        let provider = issuer.provider()
        _ = try authorize(provider)
        _ = try authorize(provider)
        #expect(issuer.http.requests(to: issuer.discoveryURL).count == 1)
        issuer.clock.advance(3601)
        _ = try authorize(provider)
        #expect(issuer.http.requests(to: issuer.discoveryURL).count == 2)
    }

    @Test func aFailedFetchIsNotKept() throws {
        let issuer = TestIssuer()
        let provider = issuer.provider()
        issuer.http.fail(issuer.discoveryURL, .unreachable("timeout"))
        #expect(throws: OAuthError.unreachable("timeout")) { try authorize(provider) }
        issuer.http.on(issuer.discoveryURL, json(["issuer": issuer.issuer, "authorization_endpoint": issuer.issuer + "/authorize",
                                                  "token_endpoint": issuer.tokenURL, "jwks_uri": issuer.jwksURL]))
        #expect(try authorize(provider).hasPrefix(issuer.issuer + "/authorize?"))
    }

    @Test func aPlainHTTPEndpointOffLoopbackIsRefused() {
        let issuer = TestIssuer()
        issuer.http.on(issuer.discoveryURL, json(["issuer": issuer.issuer, "authorization_endpoint": "http://sso.example.com/authorize",
                                                  "token_endpoint": issuer.tokenURL, "jwks_uri": issuer.jwksURL]))
        #expect(throws: OAuthError.self) { try authorize(issuer.provider()) }
    }

    @Test func aMissingDocumentIsAProviderError() {
        let issuer = TestIssuer()
        issuer.http.on(issuer.discoveryURL, HTTPResponse(status: 404))
        #expect(throws: OAuthError.provider("discovery document \(issuer.discoveryURL) answered HTTP 404")) { try authorize(issuer.provider()) }
    }

    @Test func aDocumentWithoutJWKSIsRefused() {
        let issuer = TestIssuer()
        issuer.http.on(issuer.discoveryURL, json(["issuer": issuer.issuer, "authorization_endpoint": issuer.issuer + "/authorize",
                                                  "token_endpoint": issuer.tokenURL]))
        #expect(throws: OAuthError.invalidResponse("discovery document \(issuer.discoveryURL) has no jwks_uri")) {
            try authorize(issuer.provider())
        }
    }

    @Test func keysThatCannotSignAreSkipped() {
        // Given a JWKS with an encryption key, a 1024-bit RSA modulus and a P-384 key, none usable
        let issuer = TestIssuer()
        var encryption = TestIssuer.rsaJWK("r1")
        encryption["use"] = "enc"
        var short = TestIssuer.rsaJWK("r1")
        short["n"] = base64url([UInt8](repeating: 0xc5, count: 128))
        var p384 = TestIssuer.ecJWK("e1")
        p384["crv"] = "P-384"
        issuer.serveKeys([encryption, short, p384])
        issuer.serveToken(issuer.idToken(issuer.claims()))
        #expect(throws: OAuthError.invalidIDToken("no RS256 key r1 in the issuer's JWKS")) { try issuer.exchange() }
    }
}
