// BackChannelLogoutTests.swift: the back-channel logout worker: a session that ends queues a delivery (the core), the
// worker signs a logout token (claims, typ logout+jwt, no nonce) and POSTs it form-encoded to the registered URI;
// 200/204 is delivered, anything else retried later with backoff (a recording poster, a fixed clock).
import AccountCore
import Foundation
import Locking
import Logging
import Testing
@testable import WebFront

@Suite struct BackChannelLogoutTests {
    /// Records each POST and answers with the next scripted status (or throws for nil: no answer).
    final class Poster: LogoutPoster, @unchecked Sendable {
        private let lock = Lock()
        private var statuses: [Int?]
        private(set) var sent: [(url: String, body: String)] = []
        init(_ statuses: [Int?]) { self.statuses = statuses }
        var posts: [(url: String, body: String)] { lock.withLock { sent } }
        func post(_ body: String, to url: String) throws -> Int {
            let status: Int? = lock.withLock {
                sent.append((url, body))
                return statuses.isEmpty ? 200 : statuses.removeFirst()
            }
            guard let status else { throw URLError(.timedOut) }
            return status
        }
    }

    /// The provider on, client `wiki` with a back-channel URI (pairwise subjects), and one of ann's sessions ended.
    private func fixture(_ statuses: [Int?]) throws -> (TestApp, BackChannelLogout, Poster, SessionInfo) {
        let app = try OpenIDApps.app()
        try app.services.openIDClients.add(OpenIDClient(id: "wiki", redirectURIs: ["https://wiki.example.com/cb"], subjectType: .pairwise,
                                                        backchannelLogoutURI: "https://wiki.example.com/bcl", source: .database))
        let browser = TestBrowser(app.app)
        #expect(browser.post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse",
                                                  "password_confirmation": "correct horse"]).status == 303)
        let cookie = try #require(browser.cookies["frontdoor_session"])
        let session = try #require(try app.services.sessions.find(token: cookie))
        // A grant for wiki in this session, then the session ends: the core queues the delivery.
        let client = try #require(try app.services.openIDClients.client("wiki"))
        let code = try app.services.openID.issueCode(OpenIDCodeRequest(
            clientID: "wiki", redirectURI: "https://wiki.example.com/cb", scopes: ["openid"],
            authentication: OpenIDAuthentication(accountID: session.accountId, sessionDigest: session.digest, authTime: app.clock.now(), factors: 1)))
        _ = try app.services.openID.redeemCode(code, client: client, redirectURI: "https://wiki.example.com/cb", codeVerifier: nil)
        #expect(browser.post("/account/sign_out", [:]).status == 303)
        let poster = Poster(statuses)
        let worker = BackChannelLogout(grants: app.services.openID, clients: app.services.openIDClients, openID: try #require(app.app.site.openID),
                                       keys: OpenIDApps.keys(app), poster: poster, clock: app.clock, random: app.services.random,
                                       logger: Logger(label: "test"))
        return (app, worker, poster, session)
    }

    @Test func theLogoutTokenIsSignedWithTheSpecsClaimsAndPostedFormEncoded() throws {
        let (app, worker, poster, session) = try fixture([200])
        #expect(worker.deliverOnce() == (1, 0))
        let post = try #require(poster.posts.first)
        #expect(post.url == "https://wiki.example.com/bcl")
        #expect(post.body.hasPrefix("logout_token="))
        let token = try #require(FormData.parse(post.body)["logout_token"])
        let claims = try OpenIDApps.keys(app).verify(token)
        let client = try #require(try app.services.openIDClients.client("wiki"))
        let now = Int(app.clock.now().timeIntervalSince1970)
        #expect(claims["iss"] as? String == "https://id.example.com/account" && claims["aud"] as? String == "wiki")
        #expect(claims["iat"] as? Int == now && claims["exp"] as? Int == now + 120)
        #expect(claims["sub"] as? String == (try app.services.openID.subject(accountID: session.accountId, client: client)))
        #expect(claims["sid"] as? String == app.services.openID.sid(sessionDigest: session.digest))
        #expect((claims["jti"] as? String)?.count == 32 && claims["nonce"] == nil)
        let events = try #require(claims["events"] as? [String: Any])
        #expect(events.keys.sorted() == ["http://schemas.openid.net/event/backchannel-logout"])
        // The header says what it is.
        let header = try #require(token.split(separator: ".").first)
        var base64 = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let decoded = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: base64))) as? [String: Any]
        #expect(decoded?["typ"] as? String == "logout+jwt" && decoded?["alg"] as? String == "RS256")
        // Delivered: nothing more to send.
        #expect(worker.deliverOnce() == (0, 0))
        #expect(poster.posts.count == 1)
    }

    @Test func a204IsDeliveredTooAndAFailureIsRetriedAfterTheBackoff() throws {
        let (app, worker, poster, _) = try fixture([500, nil, 204])
        #expect(worker.deliverOnce() == (0, 1))
        #expect(worker.deliverOnce() == (0, 0))          // not due yet (30 s)
        app.clock.advance(by: 31)
        #expect(worker.deliverOnce() == (0, 1))          // no answer: next in 60 s
        app.clock.advance(by: 45)
        #expect(worker.deliverOnce() == (0, 0))
        app.clock.advance(by: 20)
        #expect(worker.deliverOnce() == (1, 0))
        #expect(poster.posts.count == 3)
        app.clock.advance(by: 3600)
        #expect(worker.deliverOnce() == (0, 0))
    }

    @Test func aClientThatNoLongerHasAURIIsNotCalled() throws {
        let (app, worker, poster, _) = try fixture([])
        #expect(try app.services.openIDClients.remove("wiki"))
        _ = worker.deliverOnce()
        #expect(poster.posts.isEmpty)
    }
}
