// EndSessionEndpointTests.swift: RP-initiated logout (`oidc/logout`, `oidc/logout/confirm`): a hint naming the session
// signs out at once and follows only a registered post-logout URI (with state); anything that does not prove the client
// or names another session asks first; the confirmation form needs its CSRF token; signing out ends the grants and
// queues the back-channel logout.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct EndSessionEndpointTests {
    static let back = "https://wiki.example.com/signed-out"

    /// The provider on, clients `wiki` (post-logout URI `back`, a back-channel URI) and `other`, and ann signed in.
    private func fixture() throws -> (TestApp, TestBrowser, SessionInfo) {
        let app = try OpenIDApps.app()
        try app.services.openIDClients.add(OpenIDClient(id: "wiki", redirectURIs: ["https://wiki.example.com/cb"], postLogoutRedirectURIs: [Self.back],
                                                        backchannelLogoutURI: "https://wiki.example.com/bcl", source: .database))
        try app.services.openIDClients.add(OpenIDClient(id: "other", redirectURIs: ["https://other.example.com/cb"],
                                                        postLogoutRedirectURIs: ["https://other.example.com/bye"], source: .database))
        let browser = TestBrowser(app.app)
        #expect(browser.post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse",
                                                  "password_confirmation": "correct horse"]).status == 303)
        let cookie = try #require(browser.cookies["frontdoor_session"])
        let session = try #require(try app.services.sessions.find(token: cookie))
        try OpenIDApps.grant(app, session: session, clientID: "wiki")
        return (app, browser, session)
    }

    private func query(_ items: [String: String]) -> String {
        items.map { "\($0.key)=\(FormData.encode($0.value))" }.sorted().joined(separator: "&")
    }

    @Test func aHintNamingTheSessionSignsOutAndReturnsToTheRegisteredURIWithState() throws {
        let (app, browser, session) = try fixture()
        let hint = try OpenIDApps.idToken(app, session: session, clientID: "wiki")
        let answer = browser.get("/account/oidc/logout?" + query(["id_token_hint": hint, "post_logout_redirect_uri": Self.back, "state": "s 1&x"]))
        #expect(answer.status == 302)
        #expect(answer.header("Location") == Self.back + "?state=s%201%26x")
        #expect(browser.cookies["frontdoor_session"] == nil)
        #expect(try app.services.openID.dueLogoutDeliveries(limit: 10).map(\.clientID) == ["wiki"])
    }

    @Test func postIsHandledAsGetWithoutACSRFToken() throws {
        let (app, browser, session) = try fixture()
        let hint = try OpenIDApps.idToken(app, session: session, clientID: "wiki")
        let answer = browser.post("/account/oidc/logout", ["id_token_hint": hint, "post_logout_redirect_uri": Self.back], csrf: false)
        #expect(answer.status == 303 && answer.header("Location") == Self.back)
        #expect(browser.cookies["frontdoor_session"] == nil)
    }

    @Test func anExpiredHintStillProvesTheClient() throws {
        let (app, browser, session) = try fixture()
        let hint = try OpenIDApps.idToken(app, session: session, clientID: "wiki", expiresIn: 60)
        app.clock.advance(by: 7200)
        let answer = browser.get("/account/oidc/logout?" + query(["id_token_hint": hint, "post_logout_redirect_uri": Self.back]))
        #expect(answer.status == 302 && answer.header("Location") == Self.back)
    }

    @Test func withoutAValidHintThePersonIsAskedFirst() throws {
        let (app, browser, session) = try fixture()
        let forged = try OpenIDApps.idToken(app, session: session, clientID: "wiki", issuer: "https://evil.example")
        let otherSession = try OpenIDApps.idToken(app, session: session, clientID: "wiki", sid: "another-session")
        for parameters in [["client_id": "wiki", "post_logout_redirect_uri": Self.back], ["id_token_hint": forged],
                           ["id_token_hint": "not.a.token"], ["id_token_hint": otherSession, "post_logout_redirect_uri": Self.back], [:]] {
            let page = browser.get("/account/oidc/logout?" + query(parameters))
            #expect(page.status == 200)
            #expect(page.text.contains("Do you want to sign out of"))
            #expect(page.text.contains("action=\"/account/oidc/logout/confirm\""))
            #expect(browser.cookies["frontdoor_session"] != nil)
        }
        #expect(try app.services.openID.dueLogoutDeliveries(limit: 10).isEmpty)
    }

    @Test func theConfirmationSignsOutWithItsTokenOnly() throws {
        let (app, browser, _) = try fixture()
        let page = browser.get("/account/oidc/logout?" + query(["client_id": "wiki", "post_logout_redirect_uri": Self.back, "state": "abc"]))
        #expect(page.text.contains("wiki asks to sign you out."))
        #expect(browser.post("/account/oidc/logout/confirm", ["client_id": "wiki", "post_logout_redirect_uri": Self.back], csrf: false).status == 403)
        #expect(browser.cookies["frontdoor_session"] != nil)
        let token = try #require(page.text.firstMatch(of: /name="csrf_token" value="([^"]+)"/)).1
        let done = browser.post("/account/oidc/logout/confirm", ["csrf_token": String(token), "client_id": "wiki",
                                                                 "post_logout_redirect_uri": Self.back, "state": "abc"])
        #expect(done.status == 303 && done.header("Location") == Self.back + "?state=abc")
        #expect(browser.cookies["frontdoor_session"] == nil)
        #expect(try app.services.openID.dueLogoutDeliveries(limit: 10).map(\.clientID) == ["wiki"])
    }

    @Test func anUnregisteredURIIsNeverFollowed() throws {
        let (app, browser, session) = try fixture()
        let hint = try OpenIDApps.idToken(app, session: session, clientID: "wiki")
        // Registered, but for another client than the hint's: the signed-out page, no redirect.
        for uri in ["https://other.example.com/bye", "https://evil.example/", Self.back + "/more"] {
            let fresh = try fixture()
            let freshHint = try OpenIDApps.idToken(fresh.0, session: fresh.2, clientID: "wiki")
            let answer = fresh.1.get("/account/oidc/logout?" + query(["id_token_hint": freshHint, "post_logout_redirect_uri": uri]))
            #expect(answer.status == 200 && answer.header("Location") == nil)
            #expect(answer.text.contains("You are signed out."))
            #expect(fresh.1.cookies["frontdoor_session"] == nil)
        }
        // A hint and a client_id that disagree: nothing happens.
        let mismatch = browser.get("/account/oidc/logout?" + query(["id_token_hint": hint, "client_id": "other"]))
        #expect(mismatch.status == 400)
        #expect(browser.cookies["frontdoor_session"] != nil)
        _ = app
    }

    @Test func signedOutAlreadyGoesStraightOnToTheRegisteredURI() throws {
        let (app, browser, session) = try fixture()
        let hint = try OpenIDApps.idToken(app, session: session, clientID: "wiki")
        let stranger = TestBrowser(app.app)
        let answer = stranger.get("/account/oidc/logout?" + query(["id_token_hint": hint, "post_logout_redirect_uri": Self.back, "state": "z"]))
        #expect(answer.status == 302 && answer.header("Location") == Self.back + "?state=z")
        #expect(browser.cookies["frontdoor_session"] != nil)
        let cookie = try #require(browser.cookies["frontdoor_session"])
        #expect(try app.services.sessions.find(token: cookie) != nil)
    }

    @Test func withTheProviderOffThereIsNoLogoutRoute() throws {
        let app = try makeApp { $0.openID.enabled = false }
        #expect(TestBrowser(app.app).get("/account/oidc/logout").status == 404)
    }
}
