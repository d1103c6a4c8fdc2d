// ProviderTokenAPITests.swift: the operator's backend reads a provider token: allow-listed addresses only, a refresh
// when it has expired, JSON errors.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct ProviderTokenAPITests {
    @Test func theTokenIsReadFromLoopbackAndRefreshedWhenExpired() throws {
        let provider = FakeGitHub()
        let app = try makeSocialApp(provider)
        TestBrowser(app.app).signInWithProvider()
        let first = provider.lastAccessToken
        let api = TestBrowser(app.app)
        let response = api.get("/account/internal/provider_token?provider=github&email=octo@example.com")
        #expect(response.status == 200)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(body["access_token"] as? String == first)
        // An hour later the token has expired: it is refreshed at the provider and the new one stored.
        app.clock.advance(by: 3700)
        let refreshed = api.get("/account/internal/provider_token?provider=github&account=1")
        let renewed = try #require(try JSONSerialization.jsonObject(with: Data(refreshed.body)) as? [String: Any])
        #expect(renewed["access_token"] as? String == provider.lastAccessToken)
        #expect(provider.lastAccessToken != first)
        #expect(provider.requests.contains { String(decoding: $0.body, as: UTF8.self).contains("grant_type=refresh_token") })
    }

    @Test func othersGetTheOrdinaryNotFoundAndMissingLinksAJSONError() throws {
        let app = try makeSocialApp(FakeGitHub())
        TestBrowser(app.app).signInWithProvider()
        let outsider = TestBrowser(app.app)
        outsider.remoteAddress = "203.0.113.9"
        let refused = outsider.get("/account/internal/provider_token?provider=github&account=1")
        #expect(refused.status == 404 && !refused.text.contains("gho_"))
        let none = TestBrowser(app.app).get("/account/internal/provider_token?provider=github&email=nobody@example.com")
        #expect(none.status == 404 && none.text.contains("not_found"))
        #expect(TestBrowser(app.app).get("/account/internal/provider_token?provider=github").status == 400)
    }

    @Test func tokensSealedUnderAnotherKeyAreAnsweredNotCrashedOn() throws {
        let app = try makeSocialApp(FakeGitHub())
        TestBrowser(app.app).signInWithProvider()
        try app.services.database.write { tx in
            try tx.execute("UPDATE socialIdentity SET sealedTokens = ?", [Data((0..<80).map { _ in UInt8.random(in: 0...255) })])
        }
        let response = TestBrowser(app.app).get("/account/internal/provider_token?provider=github&account=1")
        #expect(response.status == 404 && response.text.contains("token_unreadable"))
    }
}
