// TokenAfterAuthorizeTests.swift: the code flow end to end in process: the browser through oidc/authorize (the
// authorize helper's endpoint), the client at oidc/token and oidc/userinfo (this helper's).
@testable import AccountCore
import Foundation
import Testing
@testable import WebFront

struct TokenAfterAuthorizeTests {
    @Test func aFirstPartyPublicClientGoesFromAuthorizeToUserinfo() throws {
        let test = try makeOpenIDApp { $0.publicURL = "https://login.example.com" }
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_up", AuthorizeFixture.signUpForm).status == 303)
        let client = AuthorizeFixture.first
        let redirect = browser.follow(authorizeURI(client))
        let location = try #require(redirect.header("Location"))
        #expect(location.hasPrefix(client.redirectURIs[0] + "?"), "\(redirect.status) \(location)")
        let code = try #require(redirect.locationQuery["code"])
        #expect(redirect.locationQuery["state"] == "st-1")

        let fixture = TokenFixture.Client(app: test.app)
        let tokens = fixture.post("oidc/token", [("grant_type", "authorization_code"), ("code", code),
                                                 ("redirect_uri", client.redirectURIs[0]), ("client_id", client.id),
                                                 ("code_verifier", AuthorizeFixture.verifier)])
        #expect(tokens.status == 200, "\(tokens.json)")
        let claims = try test.app.site.openID!.keys.verify(try #require(tokens["id_token"] as? String))
        #expect(claims["iss"] as? String == "https://login.example.com/account" && claims["nonce"] as? String == "n-1")
        #expect(claims["aud"] as? String == client.id && claims["email"] as? String == "ann@example.com")
        let access = try #require(tokens["access_token"] as? String)
        let userinfo = fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access])
        #expect(userinfo.status == 200 && userinfo["sub"] as? String == claims["sub"] as? String)
        let again = fixture.post("oidc/token", [("grant_type", "authorization_code"), ("code", code),
                                                ("redirect_uri", client.redirectURIs[0]), ("client_id", client.id),
                                                ("code_verifier", AuthorizeFixture.verifier)])
        #expect(again.error == "invalid_grant")
        #expect(fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access]).status == 401, "the replay ended it")
    }

    @Test func theEndpointsAreAbsentWhenTheProviderIsOff() throws {
        let test = try makeOpenIDApp { $0.openID.enabled = false }
        let client = TokenFixture.Client(app: test.app)
        #expect(client.post("oidc/token", [("grant_type", "authorization_code")]).status == 404)
        #expect(client.get("oidc/userinfo").status == 404)
        #expect(TestBrowser(test.app).get("/account/device").status == 404)
    }
}

extension TokenAfterAuthorizeTests {
    @Test func browserClientsMayCallTheTokenAndUserinfoEndpointsButNotIntrospection() throws {
        let fixture = try TokenFixture()
        let answer = fixture.redeem(try fixture.code())
        #expect(answer.response.header("Access-Control-Allow-Origin") == "*")
        let access = try #require(answer["access_token"] as? String)
        #expect(fixture.get("oidc/userinfo", headers: ["Authorization": "Bearer " + access]).response.header("Access-Control-Allow-Origin") == "*")
        #expect(fixture.get("oidc/userinfo").response.header("Access-Control-Allow-Origin") == "*", "a refusal too, so the app can read it")
        let preflight = fixture.test.app.respond(to: Request(params: ["REQUEST_METHOD": "OPTIONS", "REQUEST_URI": "/account/oidc/userinfo",
                                                                      "REMOTE_ADDR": "127.0.0.1", "HTTP_ORIGIN": "https://spa.example"]))
        #expect(preflight.status == 204 && preflight.header("Access-Control-Allow-Methods") == "GET, POST, OPTIONS")
        #expect(preflight.header("Access-Control-Allow-Headers") == "Authorization, Content-Type")
        let basic = ["Authorization": TokenFixture.basic("web", TokenFixture.secret)]
        #expect(fixture.post("oidc/introspect", [("token", access)], headers: basic).response.header("Access-Control-Allow-Origin") == nil)
    }
}
