// TokenEndpointTests.swift: `oidc/token`: the authorization code and refresh grants, each way a client proves itself,
// and every refusal RFC 6749 5.2 names (the device grant: DeviceFlowTests).
@testable import AccountCore
import Foundation
import Testing
@testable import WebFront

struct TokenEndpointTests {
    @Test func aCodeRedeemedWithBasicGivesTokensAndASignedIDToken() throws {
        let fixture = try TokenFixture()
        let answer = fixture.redeem(try fixture.code())
        #expect(answer.status == 200 && answer.notCached, "\(answer.json)")
        #expect(answer["token_type"] as? String == "Bearer" && answer["expires_in"] as? Int == 600)
        #expect(answer["scope"] as? String == "openid profile email groups")
        let access = try #require(answer["access_token"] as? String)
        #expect(answer["refresh_token"] is String)
        let claims = try fixture.claims(answer["id_token"])
        let session = try fixture.session()
        #expect(claims["iss"] as? String == "https://login.example.com/account")
        #expect(claims["aud"] as? String == "web" && claims["azp"] as? String == "web")
        #expect(claims["sub"] as? String == (try fixture.core.openID.subject(accountID: session.accountId, client: TokenFixture.web)))
        #expect(claims["nonce"] as? String == "n-0S6")
        #expect(claims["at_hash"] as? String == IDTokenClaims.atHash(access))
        #expect(claims["acr"] as? String == "urn:frontdoor:1fa" && claims["amr"] == nil, "one factor: nothing guessed")
        #expect(claims["sid"] as? String == fixture.core.openID.sid(sessionDigest: session.digest))
        #expect(claims["auth_time"] as? Int == Int(session.createdAt.timeIntervalSince1970))
        let now = Int(fixture.test.clock.now().timeIntervalSince1970)
        #expect(claims["iat"] as? Int == now && claims["exp"] as? Int == now + 3600)
        #expect(claims["email"] as? String == "ann@example.com" && claims["email_verified"] as? Bool == true)
        #expect(claims["preferred_username"] as? String == "ann" && claims["groups"] as? [String] == [])
    }

    @Test func theLifetimesAreTheConfigurations() throws {
        let fixture = try TokenFixture { $0.openID.accessTokenLifetime = 600; $0.openID.idTokenLifetime = 300 }
        let answer = fixture.redeem(try fixture.code())
        #expect(answer["expires_in"] as? Int == 600)
        let claims = try fixture.claims(answer["id_token"])
        #expect((claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0) == 300)
        let access = try #require(answer["access_token"] as? String)
        fixture.test.clock.advance(by: 601)
        #expect(fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access]).status == 401, "expired after 600 s")
    }

    @Test func claimsFollowTheScopeAndTheSecondFactor() throws {
        let fixture = try TokenFixture()
        let answer = fixture.redeem(try fixture.code(scopes: ["openid"], nonce: nil, factors: 2))
        let claims = try fixture.claims(answer["id_token"])
        #expect(claims["email"] == nil && claims["preferred_username"] == nil && claims["groups"] == nil && claims["nonce"] == nil)
        #expect(claims["acr"] as? String == "urn:frontdoor:2fa" && claims["amr"] as? [String] == ["mfa"])
        let plain = fixture.redeem(try fixture.code(scopes: ["profile"]))
        #expect(plain.status == 200 && plain["id_token"] == nil, "no openid scope: no ID token")
    }

    @Test func clientSecretPostWorksAndBasicDecodesEachHalf() throws {
        let fixture = try TokenFixture()
        let posted = fixture.post("oidc/token", [("grant_type", "authorization_code"), ("code", try fixture.code()),
                                                 ("redirect_uri", TokenFixture.redirect), ("client_id", "web"),
                                                 ("client_secret", TokenFixture.secret)])
        #expect(posted.status == 200, "\(posted.json)")
        // The secret holds ':', ' ' and '&': only the urlencoded form of RFC 6749 2.3.1 carries it through Basic.
        #expect(fixture.redeem(try fixture.code()).status == 200)
        let credentials = try #require(try ClientCredentials.basic(TokenFixture.basic("web", TokenFixture.secret), realm: "r"))
        #expect(credentials == ClientCredentials(id: "web", secret: TokenFixture.secret, method: .basic))
    }

    @Test func aWrongSecretIsInvalidClientAndNamesBasicOnlyWhenBasicWasTried() throws {
        let fixture = try TokenFixture()
        let code = try fixture.code()
        let form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.redirect)]
        let basic = fixture.post("oidc/token", form, headers: ["Authorization": TokenFixture.basic("web", "wrong")])
        #expect(basic.status == 401 && basic.error == "invalid_client" && basic.notCached)
        #expect(basic.response.header("WWW-Authenticate") == "Basic realm=\"https://login.example.com/account\"")
        let posted = fixture.post("oidc/token", form + [("client_id", "web"), ("client_secret", "wrong")])
        #expect(posted.status == 401 && posted.error == "invalid_client" && posted.response.header("WWW-Authenticate") == nil)
        let unknown = fixture.post("oidc/token", form, headers: ["Authorization": TokenFixture.basic("nobody", "x")])
        #expect(unknown.status == 401 && unknown.error == "invalid_client", "an unknown client reads like a wrong secret")
        let none = fixture.post("oidc/token", form + [("client_id", "web")])
        #expect(none.status == 401 && none.error == "invalid_client", "a confidential client must present its secret")
        let garbled = fixture.post("oidc/token", form, headers: ["Authorization": "Basic !!!"])
        #expect(garbled.status == 401 && garbled.response.header("WWW-Authenticate") != nil)
        #expect(fixture.redeem(code).status == 200, "the refusals did not use the code up")
    }

    @Test func oneAuthenticationMethodAtATime() throws {
        let fixture = try TokenFixture()
        let form = [("grant_type", "authorization_code"), ("code", try fixture.code()), ("redirect_uri", TokenFixture.redirect)]
        let twice = fixture.post("oidc/token", form + [("client_secret", TokenFixture.secret)],
                                 headers: ["Authorization": TokenFixture.basic("web", TokenFixture.secret)])
        #expect(twice.status == 400 && twice.error == "invalid_request")
        let other = fixture.post("oidc/token", form + [("client_id", "native")],
                                 headers: ["Authorization": TokenFixture.basic("web", TokenFixture.secret)])
        #expect(other.status == 400 && other.error == "invalid_request", "a body client_id naming another client")
        let assertion = fixture.post("oidc/token", form + [("client_id", "web"), ("client_assertion", "x.y.z")])
        #expect(assertion.status == 401 && assertion.error == "invalid_client", "private_key_jwt is not offered")
    }

    @Test func aWrongRedirectURIIsInvalidGrant() throws {
        let fixture = try TokenFixture()
        let answer = fixture.redeem(try fixture.code(), redirectURI: "https://app.example.com/callback/")
        #expect(answer.status == 400 && answer.error == "invalid_grant" && answer.notCached)
    }

    @Test func aPublicClientNeedsPKCEAndNoSecret() throws {
        let fixture = try TokenFixture()
        let native = TokenFixture.native
        let without = fixture.redeem(try fixture.code(native), client: native)
        #expect(without.status == 400 && without.error == "invalid_grant", "a public client without a verifier")
        let mismatch = fixture.redeem(try fixture.code(native, verifier: TokenFixture.verifier), client: native,
                                      verifier: TokenFixture.verifier.uppercased())
        #expect(mismatch.status == 400 && mismatch.error == "invalid_grant", "PKCE mismatch")
        let right = fixture.redeem(try fixture.code(native, verifier: TokenFixture.verifier), client: native, verifier: TokenFixture.verifier)
        #expect(right.status == 200, "\(right.json)")
        let secret = fixture.post("oidc/token", [("grant_type", "authorization_code"),
                                                 ("code", try fixture.code(native, verifier: TokenFixture.verifier)),
                                                 ("redirect_uri", native.redirectURIs[0]), ("code_verifier", TokenFixture.verifier),
                                                 ("client_id", "native"), ("client_secret", "anything")])
        #expect(secret.status == 401 && secret.error == "invalid_client", "a public client has no secret to send")
    }

    @Test func aConfidentialClientsPKCEIsCheckedToo() throws {
        let fixture = try TokenFixture()
        let mismatch = fixture.redeem(try fixture.code(verifier: TokenFixture.verifier), verifier: "x" + TokenFixture.verifier)
        #expect(mismatch.status == 400 && mismatch.error == "invalid_grant")
        #expect(fixture.redeem(try fixture.code(verifier: TokenFixture.verifier), verifier: TokenFixture.verifier).status == 200)
    }

    @Test func aReusedCodeRevokesWhatItIssued() throws {
        let fixture = try TokenFixture()
        let code = try fixture.code()
        let first = fixture.redeem(code)
        let access = try #require(first["access_token"] as? String), refresh = try #require(first["refresh_token"] as? String)
        #expect(fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access]).status == 200)
        let again = fixture.redeem(code)
        #expect(again.status == 400 && again.error == "invalid_grant")
        #expect(fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access]).status == 401, "the access token ended")
        #expect(fixture.refresh(refresh).error == "invalid_grant", "and the refresh token")
        #expect(fixture.metrics().contains("frontdoor_oidc_codes_reused_total 1\n"))
    }

    @Test func anExpiredCodeIsInvalidGrant() throws {
        let fixture = try TokenFixture()
        let code = try fixture.code()
        fixture.test.clock.advance(by: 61)
        let answer = fixture.redeem(code)
        #expect(answer.status == 400 && answer.error == "invalid_grant")
    }

    @Test func anotherClientsCodeIsInvalidGrant() throws {
        let fixture = try TokenFixture()
        let code = try fixture.code(TokenFixture.native, verifier: TokenFixture.verifier)
        let answer = fixture.redeem(code, redirectURI: TokenFixture.native.redirectURIs[0], verifier: TokenFixture.verifier)
        #expect(answer.status == 400 && answer.error == "invalid_grant")
    }

    @Test func refreshRotatesAndAReuseRevokesTheFamily() throws {
        let fixture = try TokenFixture()
        let first = fixture.redeem(try fixture.code())
        let old = try #require(first["refresh_token"] as? String)
        fixture.test.clock.advance(by: 600)
        let second = fixture.refresh(old)
        #expect(second.status == 200 && second.notCached, "\(second.json)")
        let new = try #require(second["refresh_token"] as? String)
        #expect(new != old && second["access_token"] as? String != first["access_token"] as? String)
        let claims = try fixture.claims(second["id_token"])
        #expect(claims["nonce"] == nil, "a refresh is no authentication request: no nonce")
        #expect(claims["auth_time"] as? Int == (try fixture.claims(first["id_token"]))["auth_time"] as? Int, "auth_time stays the sign-in's")
        #expect(claims["sub"] as? String == (try fixture.claims(first["id_token"]))["sub"] as? String)
        let reuse = fixture.refresh(old)
        #expect(reuse.status == 400 && reuse.error == "invalid_grant")
        #expect(fixture.refresh(new).error == "invalid_grant", "the reuse ended the whole family")
        #expect(fixture.metrics().contains("frontdoor_oidc_refresh_tokens_reused_total 1\n"))
        let access = try #require(second["access_token"] as? String)
        #expect(fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access]).status == 401)
    }

    @Test func aRefreshMayNarrowTheScopeButNotWidenIt() throws {
        let fixture = try TokenFixture()
        let first = fixture.redeem(try fixture.code(scopes: ["openid", "email"]))
        let narrowed = fixture.refresh(try #require(first["refresh_token"] as? String), scope: "openid")
        #expect(narrowed.status == 200 && narrowed["scope"] as? String == "openid", "\(narrowed.json)")
        #expect(try fixture.claims(narrowed["id_token"])["email"] == nil)
        let wider = fixture.refresh(try #require(narrowed["refresh_token"] as? String), scope: "openid email groups")
        #expect(wider.status == 400 && wider.error == "invalid_scope")
    }

    @Test func aPersonTheClientsRuleNoLongerAdmitsGetsNoMoreTokens() throws {
        var ops = TokenFixture.web
        ops.allow = "group:ops"
        let fixture = try TokenFixture(clients: [ops])
        let session = try fixture.session()
        try fixture.core.groups.add(name: "ops", client: ClientInfo())
        try fixture.core.groups.change(accountId: session.accountId, adding: ["ops"], removing: [], client: ClientInfo())
        let first = fixture.redeem(try fixture.code())
        #expect(first.status == 200)
        try fixture.core.groups.change(accountId: session.accountId, adding: [], removing: ["ops"], client: ClientInfo())
        let refused = fixture.refresh(try #require(first["refresh_token"] as? String))
        #expect(refused.status == 400 && refused.error == "invalid_grant")
        let access = try #require(first["access_token"] as? String)
        #expect(fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access]).status == 401)
    }

    @Test func malformedRequestsAreInvalidRequest() throws {
        let fixture = try TokenFixture()
        let basic = ["Authorization": TokenFixture.basic("web", TokenFixture.secret)]
        #expect(fixture.post("oidc/token", [("code", "x")], headers: basic).error == "invalid_request", "no grant_type")
        let unsupported = fixture.post("oidc/token", [("grant_type", "password")], headers: basic)
        #expect(unsupported.status == 400 && unsupported.error == "unsupported_grant_type")
        #expect(fixture.post("oidc/token", [("grant_type", "authorization_code"), ("redirect_uri", TokenFixture.redirect)],
                             headers: basic).error == "invalid_request", "no code")
        let code = try fixture.code()
        let repeated = fixture.post("oidc/token", [("grant_type", "authorization_code"), ("code", code), ("code", "other"),
                                                   ("redirect_uri", TokenFixture.redirect)], headers: basic)
        #expect(repeated.status == 400 && repeated.error == "invalid_request", "a parameter given twice")
        let json = fixture.post("oidc/token", [("grant_type", "authorization_code")], headers: basic, contentType: "application/json")
        #expect(json.status == 400 && json.error == "invalid_request")
        #expect(fixture.get("oidc/token").status == 405)
        #expect(fixture.redeem(code).status == 200)
    }
}
