// OpenIDSignInAPITests.swift: `POST v1/users/sign_in/oidc`: a live access token of a client with api_sign_in becomes an
// API token (the sign-in answer, kind api, not a recent sign-in, the grant's factors); every other token is the API's 401.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct OpenIDSignInAPITests {
    /// An app with one account (ann, signed up over the API) and database clients `notes` (api_sign_in) and `web` (not).
    private func fixture() throws -> (TestApp, SessionInfo) {
        let app = try OpenIDApps.app()
        let answer = APIClient(app.app).send("POST", "v1/users", ["user": ["email": "ann@example.com", "password": "correct horse"]])
        let token = try #require(answer.user["authenticationToken"] as? String)
        let session = try #require(try app.services.apiTokens.find(email: "ann@example.com", token: token))
        try app.services.openIDClients.add(OpenIDClient(id: "notes", redirectURIs: ["https://notes.example/cb"], apiSignIn: true, source: .database))
        try app.services.openIDClients.add(OpenIDClient(id: "web", redirectURIs: ["https://web.example/cb"], source: .database))
        return (app, session)
    }

    /// An access token `clientID` got for ann's session with `factors` factors.
    private func accessToken(_ app: TestApp, _ session: SessionInfo, clientID: String, factors: Int = 1) throws -> String {
        let client = try #require(try app.services.openIDClients.client(clientID))
        let authentication = OpenIDAuthentication(accountID: session.accountId, sessionDigest: session.digest, authTime: app.clock.now(), factors: factors)
        let code = try app.services.openID.issueCode(OpenIDCodeRequest(clientID: clientID, redirectURI: client.redirectURIs[0], scopes: ["openid"],
                                                                       authentication: authentication))
        return try app.services.openID.redeemCode(code, client: client, redirectURI: client.redirectURIs[0], codeVerifier: nil).accessToken
    }

    @Test func aLiveTokenOfAnAPISignInClientGivesTheSignInAnswerWithANewAPIToken() throws {
        let (app, session) = try fixture()
        let access = try accessToken(app, session, clientID: "notes", factors: 2)
        let answer = APIClient(app.app).send("POST", "v1/users/sign_in/oidc", ["access_token": access])
        #expect(answer.status == 201)
        #expect(answer.user["email"] as? String == "ann@example.com" && answer.user["id"] as? Int == 1)
        let token = try #require(answer.user["authenticationToken"] as? String)
        let issued = try #require(try app.services.apiTokens.find(email: "ann@example.com", token: token))
        #expect(issued.digest != session.digest && issued.kind == .api && issued.factors == 2)
        #expect(!answer.response.headers.contains { $0.name == "Set-Cookie" })
        // The token works as any API token does.
        var authed = APIClient(app.app)
        (authed.email, authed.token) = ("ann@example.com", token)
        #expect(authed.send("PUT", "v1/users", ["user": ["displayName": "Ann"]]).status == 200)
    }

    @Test func theTokenNeverCountsAsARecentSignIn() throws {
        let (app, session) = try fixture()
        let answer = APIClient(app.app).send("POST", "v1/users/sign_in/oidc", ["access_token": try accessToken(app, session, clientID: "notes")])
        var authed = APIClient(app.app)
        (authed.email, authed.token) = ("ann@example.com", answer.user["authenticationToken"] as? String)
        // At once, unlike a password sign-in's token: a new address needs the password first.
        let change = authed.send("PUT", "v1/users", ["user": ["email": "new@example.com"]])
        #expect(change.status == 401)
        #expect(change.json["error"] as? String == "This needs a recent sign-in: sign in again, then retry.")
        #expect(try app.services.addresses.all(of: 1).map(\.address) == ["ann@example.com"])
    }

    @Test func everyOtherTokenIsTheAPIs401() throws {
        let (app, session) = try fixture()
        let web = try accessToken(app, session, clientID: "web")
        let revoked = try accessToken(app, session, clientID: "notes")
        try app.services.openID.revoke(revoked, client: try #require(try app.services.openIDClients.client("notes")))
        let expired = try accessToken(app, session, clientID: "notes")
        app.clock.advance(by: 3 * 3600)
        for body in [["access_token": web], ["access_token": revoked], ["access_token": expired], ["access_token": "nope"], [:],
                     ["access_token": String(repeating: "a", count: 4000)]] as [[String: Any]] {
            let answer = APIClient(app.app).send("POST", "v1/users/sign_in/oidc", body)
            #expect(answer.status == 401)
            #expect(answer.message == "You need to sign in or sign up before continuing.")
            #expect(answer.user["authenticationToken"] == nil)
        }
    }

    @Test func aSessionEndedSinceTheGrantEndsTheExchange() throws {
        let (app, session) = try fixture()
        let access = try accessToken(app, session, clientID: "notes")
        try app.services.apiTokens.signOut(session: session.digest, client: ClientInfo())
        #expect(APIClient(app.app).send("POST", "v1/users/sign_in/oidc", ["access_token": access]).status == 401)
    }

    @Test func withTheProviderOffTheRouteIsNotThere() throws {
        let app = try makeApp { $0.openID.enabled = false }
        #expect(APIClient(app.app).send("POST", "v1/users/sign_in/oidc", ["access_token": "x"]).status == 404)
    }
}
