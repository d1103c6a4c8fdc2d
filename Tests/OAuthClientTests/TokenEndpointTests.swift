// TokenEndpointTests.swift: the code exchange and refresh requests, and how token answers are read.
import Foundation
import OAuthClient
import Testing

@Suite struct TokenEndpointTests {
    private let tokenURL = "https://api.x.com/2/oauth2/token"
    private let meURL = "https://api.x.com/2/users/me"

    /// An X provider (basic auth by default) whose profile endpoint answers.
    private func provider(_ http: FakeHTTP, clock: TestClock = TestClock(), auth: TokenEndpointAuth? = nil) -> OAuthProvider {
        var configuration = ProviderConfiguration(id: "twitter", kind: .twitter, clientID: "id:1", clientSecret: "se cret")
        if let auth { configuration.tokenEndpointAuth = auth }
        http.on(meURL, json(["data": ["id": "7", "username": "ann", "name": "Ann"]]))
        return OAuthProvider(configuration: configuration, http: http, now: clock.function)
    }

    private func exchange(_ provider: OAuthProvider) throws -> ProviderIdentity {
        try provider.exchange(code: "c 1", redirectURI: "https://example.com/cb", codeVerifier: "v-1", nonce: nil)
    }

    @Test func theCodeIsExchangedWithTheVerifierAndBasicAuth() throws {
        let http = FakeHTTP()
        http.on(tokenURL, json(["access_token": "at", "token_type": "bearer", "refresh_token": "rt", "scope": "users.read"]))
        let identity = try exchange(provider(http))
        let request = try #require(http.requests(to: tokenURL).first)
        #expect(request.method == "POST")
        #expect(formFields(String(decoding: request.body, as: UTF8.self))
            == ["grant_type": "authorization_code", "code": "c 1", "redirect_uri": "https://example.com/cb", "code_verifier": "v-1"])
        // RFC 6749 2.3.1: id and secret are form-encoded before Basic.
        #expect(request.headers.contains(.init("Authorization", "Basic " + Data("id%3A1:se%20cret".utf8).base64EncodedString())))
        #expect(request.headers.contains(.init("Accept", "application/json")))
        #expect(request.headers.contains(.init("Content-Type", "application/x-www-form-urlencoded")))
        #expect(identity.tokens == ProviderTokens(accessToken: "at", refreshToken: "rt", tokenType: "bearer", scope: "users.read"))
    }

    @Test func postAuthPutsTheClientInTheBody() throws {
        let http = FakeHTTP()
        http.on(tokenURL, json(["access_token": "at"]))
        _ = try exchange(provider(http, auth: .post))
        let request = try #require(http.requests(to: tokenURL).first)
        let fields = formFields(String(decoding: request.body, as: UTF8.self))
        #expect(fields["client_id"] == "id:1" && fields["client_secret"] == "se cret")
        #expect(!request.headers.contains { $0.name == "Authorization" })
    }

    @Test func expiresInCountsFromTheInjectedClock() throws {
        let http = FakeHTTP()
        let clock = TestClock()
        http.on(tokenURL, json(["access_token": "at", "expires_in": 7200]))
        #expect(try exchange(provider(http, clock: clock)).tokens.expiresAt == clock.now.addingTimeInterval(7200))
        http.on(tokenURL, json(["access_token": "at", "expires_in": "60"]))
        #expect(try exchange(provider(http, clock: clock)).tokens.expiresAt == clock.now.addingTimeInterval(60))
        http.on(tokenURL, json(["access_token": "at"]))
        #expect(try exchange(provider(http, clock: clock)).tokens.expiresAt == nil)
    }

    @Test(arguments: [400, 200])
    func anErrorAnswerIsAProviderError(status: Int) {
        // GitHub answers errors with 200; others with 400.
        let http = FakeHTTP()
        http.on(tokenURL, json(["error": "invalid_grant", "error_description": "code expired"], status: status))
        #expect(throws: OAuthError.provider("token endpoint \(tokenURL) answered invalid_grant: code expired")) { try exchange(provider(http)) }
    }

    @Test func anotherFailureStatusIsAProviderError() {
        let http = FakeHTTP()
        http.on(tokenURL, HTTPResponse(status: 502, contentType: "text/html", body: Array("<h1>Bad gateway</h1>".utf8)))
        #expect(throws: OAuthError.provider("token endpoint \(tokenURL) answered HTTP 502")) { try exchange(provider(http)) }
    }

    @Test func aNonJSONAnswerIsAnInvalidResponse() {
        let http = FakeHTTP()
        http.on(tokenURL, HTTPResponse(status: 200, contentType: "application/x-www-form-urlencoded", body: Array("access_token=at".utf8)))
        #expect(throws: OAuthError.invalidResponse("token endpoint \(tokenURL) did not answer a JSON object")) { try exchange(provider(http)) }
    }

    @Test func anAnswerWithoutAccessTokenIsAnInvalidResponse() {
        let http = FakeHTTP()
        http.on(tokenURL, json(["token_type": "Bearer"]))
        #expect(throws: OAuthError.invalidResponse("token endpoint \(tokenURL) gave no access_token")) { try exchange(provider(http)) }
    }

    @Test func anUnreachableEndpointStaysUnreachable() {
        let http = FakeHTTP()
        http.fail(tokenURL, .unreachable("connection refused"))
        #expect(throws: OAuthError.unreachable("connection refused")) { try exchange(provider(http)) }
    }

    @Test func refreshKeepsTheRefreshTokenAndScopeWhenNoneComeBack() throws {
        let http = FakeHTTP()
        let clock = TestClock()
        http.on(tokenURL, json(["access_token": "at-2", "token_type": "Bearer", "expires_in": 3600]))
        let old = ProviderTokens(accessToken: "at-1", refreshToken: "rt-1", scope: "users.read", expiresAt: clock.now)
        let fresh = try provider(http, clock: clock).refresh(old)
        #expect(fresh == ProviderTokens(accessToken: "at-2", refreshToken: "rt-1", scope: "users.read", expiresAt: clock.now.addingTimeInterval(3600)))
        let request = try #require(http.requests(to: tokenURL).first)
        #expect(formFields(String(decoding: request.body, as: UTF8.self)) == ["grant_type": "refresh_token", "refresh_token": "rt-1"])
    }

    @Test func refreshTakesANewRefreshToken() throws {
        let http = FakeHTTP()
        http.on(tokenURL, json(["access_token": "at-2", "refresh_token": "rt-2", "scope": "users.read tweet.read"]))
        let fresh = try provider(http).refresh(ProviderTokens(accessToken: "at-1", refreshToken: "rt-1", scope: "users.read"))
        #expect(fresh.refreshToken == "rt-2" && fresh.scope == "users.read tweet.read")
    }

    @Test func refreshWithoutRefreshTokenOrRefusedIsAProviderError() {
        let http = FakeHTTP()
        #expect(throws: OAuthError.provider("no refresh token to use")) { try provider(http).refresh(ProviderTokens(accessToken: "at")) }
        #expect(http.requests.isEmpty)
        http.on(tokenURL, json(["error": "invalid_grant"], status: 400))
        #expect(throws: OAuthError.provider("token endpoint \(tokenURL) answered invalid_grant")) {
            try provider(http).refresh(ProviderTokens(accessToken: "at", refreshToken: "rt"))
        }
    }
}
