// UserinfoEndpointTests.swift: `oidc/userinfo` (Bearer, GET and POST), `oidc/introspect` (RFC 7662) and `oidc/revoke`
// (RFC 7009).
@testable import AccountCore
import Foundation
import Testing
@testable import WebFront

struct UserinfoEndpointTests {
    /// The web app's tokens for Ann, with `scopes`.
    func tokens(_ fixture: TokenFixture, scopes: [String] = ["openid", "profile", "email", "groups"]) throws -> (access: String, refresh: String) {
        let answer = fixture.redeem(try fixture.code(scopes: scopes))
        return (try #require(answer["access_token"] as? String), try #require(answer["refresh_token"] as? String))
    }

    @Test func aBearerTokenGetsTheClaimsOfItsScopeAsTheAccountIsNow() throws {
        let fixture = try TokenFixture()
        let (access, _) = try tokens(fixture)
        let session = try fixture.session()
        try fixture.core.profile.update(accountId: session.accountId, form: ["display_name": "Ann Lee"], client: ClientInfo())
        let answer = fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access])
        #expect(answer.status == 200 && answer.notCached)
        #expect(answer["sub"] as? String == (try fixture.core.openID.subject(accountID: session.accountId, client: TokenFixture.web)))
        #expect(answer["name"] as? String == "Ann Lee" && answer["preferred_username"] as? String == "ann")
        #expect(answer["email"] as? String == "ann@example.com" && answer["email_verified"] as? Bool == true)
        #expect(answer["groups"] as? [String] == [] && answer["nonce"] == nil && answer["iss"] == nil)
        let posted = fixture.post("oidc/userinfo", [("access_token", access)])
        #expect(posted.status == 200 && posted["sub"] as? String == answer["sub"] as? String, "POST with the form field")
        let headerPost = fixture.post("oidc/userinfo", [], headers: ["Authorization": "Bearer " + access])
        #expect(headerPost.status == 200)
    }

    @Test func aNarrowScopeTellsLess() throws {
        let fixture = try TokenFixture()
        let (access, _) = try tokens(fixture, scopes: ["openid"])
        let answer = fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access])
        #expect(answer.status == 200 && Set(answer.json.keys) == ["sub"])
        let (withoutOpenID, _) = try tokens(fixture, scopes: ["profile"])
        let refused = fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + withoutOpenID])
        #expect(refused.status == 403 && refused.error == "insufficient_scope")
    }

    @Test func aMissingOrBadTokenIs401WithTheBearerChallenge() throws {
        let fixture = try TokenFixture()
        let (access, _) = try tokens(fixture)
        let none = fixture.get("oidc/userinfo")
        #expect(none.status == 401 && none.response.header("WWW-Authenticate") == "Bearer", "no token: no error named")
        let bad = fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer nonsense"])
        #expect(bad.status == 401 && bad.response.header("WWW-Authenticate") == "Bearer error=\"invalid_token\"")
        let twice = fixture.post("oidc/userinfo", [("access_token", access)], headers: ["Authorization": "Bearer " + access])
        #expect(twice.status == 400 && twice.error == "invalid_request")
        #expect(fixture.get("oidc/userinfo?access_token=" + access).status == 401, "not from the query string")
        fixture.test.clock.advance(by: 3601)
        let expired = fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access])
        #expect(expired.status == 401 && expired.response.header("WWW-Authenticate") == "Bearer error=\"invalid_token\"")
    }

    @Test func signingOutOfFrontdoorEndsTheTokens() throws {
        let fixture = try TokenFixture()
        let (access, refresh) = try tokens(fixture)
        #expect(fixture.browser.post("/account/sign_out", [:]).status == 303)
        #expect(fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access]).status == 401)
        #expect(fixture.refresh(refresh).error == "invalid_grant")
    }

    @Test func introspectionTellsALiveTokenToItsClientOnly() throws {
        let fixture = try TokenFixture()
        let (access, refresh) = try tokens(fixture)
        let basic = ["Authorization": TokenFixture.basic("web", TokenFixture.secret)]
        let live = fixture.post("oidc/introspect", [("token", access), ("token_type_hint", "access_token")], headers: basic)
        #expect(live.status == 200 && live.notCached && live["active"] as? Bool == true, "\(live.json)")
        #expect(live["client_id"] as? String == "web" && live["scope"] as? String == "openid profile email groups")
        #expect(live["username"] as? String == "ann" && live["token_type"] as? String == "Bearer")
        #expect(live["iss"] as? String == "https://login.example.com/account" && live["sub"] is String && live["exp"] is Int)
        let refreshFound = fixture.post("oidc/introspect", [("token", refresh)], headers: basic)
        #expect(refreshFound["active"] as? Bool == true && refreshFound["token_type"] as? String == "refresh_token")
        let other = fixture.post("oidc/introspect", [("token", access)], headers: ["Authorization": TokenFixture.basic("other", TokenFixture.secret)])
        #expect(other.status == 200 && Set(other.json.keys) == ["active"] && other["active"] as? Bool == false, "another client's token")
        let bare = fixture.post("oidc/introspect", [("token", access), ("client_id", "native")])
        #expect(bare.status == 401 && bare.error == "invalid_client", "introspection needs a client that proves itself")
        #expect(fixture.post("oidc/introspect", [("token", "nonsense")], headers: basic)["active"] as? Bool == false)
        let anonymous = fixture.post("oidc/introspect", [("token", access)])
        #expect(anonymous.status == 401 && anonymous.error == "invalid_client")
        #expect(fixture.post("oidc/introspect", [], headers: basic).error == "invalid_request")
    }

    @Test func revokingARefreshTokenEndsItsAccessTokens() throws {
        let fixture = try TokenFixture()
        let (access, refresh) = try tokens(fixture)
        let basic = ["Authorization": TokenFixture.basic("web", TokenFixture.secret)]
        let revoked = fixture.post("oidc/revoke", [("token", refresh), ("token_type_hint", "refresh_token")], headers: basic)
        #expect(revoked.status == 200 && revoked.notCached)
        #expect(fixture.post("oidc/introspect", [("token", access)], headers: basic)["active"] as? Bool == false, "introspection of a revoked token")
        #expect(fixture.post("oidc/introspect", [("token", refresh)], headers: basic)["active"] as? Bool == false)
        #expect(fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access]).status == 401)
        #expect(fixture.refresh(refresh).error == "invalid_grant")
    }

    @Test func revokingAnAccessTokenEndsItAlone() throws {
        let fixture = try TokenFixture()
        let (access, refresh) = try tokens(fixture)
        let basic = ["Authorization": TokenFixture.basic("web", TokenFixture.secret)]
        #expect(fixture.post("oidc/revoke", [("token", access)], headers: basic).status == 200)
        #expect(fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access]).status == 401)
        #expect(fixture.refresh(refresh).status == 200, "the grant lives on")
    }

    @Test func revocationAnswers200ForUnknownAndOtherClientsTokens() throws {
        let fixture = try TokenFixture()
        let (access, _) = try tokens(fixture)
        let basic = ["Authorization": TokenFixture.basic("web", TokenFixture.secret)]
        #expect(fixture.post("oidc/revoke", [("token", "never-issued")], headers: basic).status == 200)
        #expect(fixture.post("oidc/revoke", [("token", access), ("client_id", "native")]).status == 200)
        #expect(fixture.post("oidc/revoke", [("token", access)], headers: ["Authorization": TokenFixture.basic("other", TokenFixture.secret)]).status == 200)
        #expect(fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access]).status == 200, "another client cannot end it")
        #expect(fixture.post("oidc/revoke", [("token", access)], headers: ["Authorization": TokenFixture.basic("web", "wrong")]).status == 401)
    }
}
