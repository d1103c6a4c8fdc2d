// IDTokenTests.swift: the ID token checks, through a code exchange with an OpenID Connect provider.
import Foundation
import OAuthClient
import Testing

@Suite struct IDTokenTests {
    /// The error a code exchange whose ID token has `claims` (changed by `change`) ends with, or nil when accepted.
    private func refusal(alg: String = "RS256", kid: String? = "r1", _ change: (inout [String: Any]) -> Void) -> OAuthError? {
        let issuer = TestIssuer()
        issuer.serveKeys()
        var claims = issuer.claims()
        change(&claims)
        issuer.serveToken(issuer.idToken(claims, alg: alg, kid: kid))
        do { _ = try issuer.exchange(); return nil } catch let error as OAuthError { return error } catch { return .unreachable("\(error)") }
    }

    private func isIDTokenRefusal(_ error: OAuthError?) -> Bool {
        if case .invalidIDToken? = error { true } else { false }
    }

    @Test func aGoodRS256TokenGivesTheIdentity() throws {
        let issuer = TestIssuer()
        issuer.serveKeys()
        issuer.serveToken(issuer.idToken(issuer.claims()))
        let identity = try issuer.exchange()
        #expect(identity.provider == "corp" && identity.subject == "user-42")
        #expect(identity.email == "ann@example.com" && identity.emailVerified && identity.name == "Ann")
        #expect(identity.tokens.accessToken == "at-1")
        #expect(identity.tokens.expiresAt == issuer.clock.now.addingTimeInterval(3600))
        #expect(issuer.http.requests(to: issuer.userInfoURL).isEmpty, "the ID token had an email, so userinfo is not asked")
    }

    @Test func aGoodES256TokenIsAccepted() {
        #expect(refusal(alg: "ES256", kid: "e1") { _ in } == nil)
    }

    @Test func aTokenWithoutKidIsCheckedWithTheKeysOfItsAlg() {
        #expect(refusal(kid: nil) { _ in } == nil)
    }

    @Test func aBadSignatureIsRefused() {
        let issuer = TestIssuer()
        issuer.serveKeys()
        issuer.serveToken(issuer.idToken(issuer.claims(), rsaKey: TestKeys.otherRSA))
        #expect(throws: OAuthError.invalidIDToken("bad signature")) { try issuer.exchange() }
    }

    @Test func aChangedPayloadIsRefused() {
        let issuer = TestIssuer()
        issuer.serveKeys()
        let parts = issuer.idToken(issuer.claims()).split(separator: ".").map(String.init)
        var claims = issuer.claims()
        claims["sub"] = "someone-else"
        let other = issuer.idToken(claims).split(separator: ".").map(String.init)
        issuer.serveToken([parts[0], other[1], parts[2]].joined(separator: "."))
        #expect(throws: OAuthError.invalidIDToken("bad signature")) { try issuer.exchange() }
    }

    @Test func anES256SignatureByAnotherKeyIsRefused() {
        // Given a token whose header names the P-256 key but which is signed with RSA
        let issuer = TestIssuer()
        issuer.serveKeys()
        let rsaSigned = issuer.idToken(issuer.claims()).split(separator: ".").map(String.init)
        let header = base64url(Data(#"{"alg":"ES256","kid":"e1"}"#.utf8))
        issuer.serveToken([header, rsaSigned[1], rsaSigned[2]].joined(separator: "."))
        #expect(throws: OAuthError.invalidIDToken("bad signature")) { try issuer.exchange() }
    }

    @Test(arguments: ["iss", "aud", "azp", "exp", "iat", "nonce", "sub"])
    func aWrongOrMissingClaimIsRefused(claim: String) {
        let wrong: [String: Any] = ["iss": "https://evil.example.com", "aud": "another-client", "azp": "another-client",
                                    "exp": 1_800_000_000 - 61, "iat": 1_800_000_000 + 61, "nonce": "n-2", "sub": ""]
        #expect(isIDTokenRefusal(refusal { $0[claim] = wrong[claim] }), "wrong \(claim)")
        if claim != "azp" {
            #expect(isIDTokenRefusal(refusal { $0[claim] = nil }), "missing \(claim)")
        }
    }

    @Test func severalAudiencesNeedAnAzpNamingTheClient() {
        #expect(refusal { $0["aud"] = ["frontdoor-client", "other"] } == .invalidIDToken("azp (none) is not the client id"))
        #expect(refusal { $0["aud"] = ["frontdoor-client", "other"]; $0["azp"] = "frontdoor-client" } == nil)
        #expect(isIDTokenRefusal(refusal { $0["aud"] = ["other", "third"]; $0["azp"] = "frontdoor-client" }))
    }

    @Test func expiryAndIssueTimeHaveSixtySecondsOfLeeway() {
        #expect(refusal { $0["exp"] = 1_800_000_000 - 59 } == nil)
        #expect(refusal { $0["iat"] = 1_800_000_000 + 59 } == nil)
        #expect(refusal { $0["exp"] = 1_800_000_000 - 60 } == .invalidIDToken("expired at 1799999940"))
    }

    @Test(arguments: ["none", "HS256", "RS512", "PS256"])
    func otherAlgorithmsAreRefused(alg: String) {
        #expect(refusal(alg: alg) { _ in } == .invalidIDToken("alg \(alg) is not accepted (RS256 or ES256 only)"))
    }

    @Test func anUnknownKidFetchesTheKeysOnceMoreThenFails() {
        let issuer = TestIssuer()
        issuer.serveKeys()
        issuer.serveToken(issuer.idToken(issuer.claims(), kid: "r9"))
        #expect(throws: OAuthError.invalidIDToken("no RS256 key r9 in the issuer's JWKS")) { try issuer.exchange() }
        #expect(issuer.http.requests(to: issuer.jwksURL).count == 2)
    }

    @Test func aRotatedKeyIsFoundByFetchingTheKeysAgain() throws {
        // Given cached keys without "r2", then a JWKS that has it
        let issuer = TestIssuer()
        let provider = issuer.provider()
        issuer.http.on(issuer.jwksURL, json(["keys": [TestIssuer.ecJWK("e1")]]))
        issuer.http.then(issuer.jwksURL, json(["keys": [TestIssuer.rsaJWK("r2")]]))
        issuer.serveToken(issuer.idToken(issuer.claims(), alg: "ES256", kid: "e1"))
        _ = try issuer.exchange(provider)
        // When a token signed with r2 comes
        issuer.serveToken(issuer.idToken(issuer.claims(), kid: "r2"))
        let identity = try issuer.exchange(provider)
        // Then it is accepted after one more fetch, and the next one uses the cache
        #expect(identity.subject == "user-42")
        _ = try issuer.exchange(provider)
        #expect(issuer.http.requests(to: issuer.jwksURL).count == 2)
    }

    @Test func aTokenAnswerWithoutIDTokenIsRefused() {
        let issuer = TestIssuer()
        issuer.serveKeys()
        issuer.serveToken(nil)
        #expect(throws: OAuthError.invalidIDToken("the token endpoint gave no id_token")) { try issuer.exchange() }
    }

    @Test(arguments: ["not-a-token", "a.b", "!!.??.**", "e30.e30.", "W10.e30.sig"])
    func malformedTokensAreRefused(token: String) {
        let issuer = TestIssuer()
        issuer.serveKeys()
        issuer.serveToken(token)
        #expect(isIDTokenRefusal({ () -> OAuthError? in
            do { _ = try issuer.exchange(); return nil } catch { return error as? OAuthError }
        }()))
    }
}
