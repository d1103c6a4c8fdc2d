// NativeTokenXTests.swift: X's native forms: a user access token checked at users/me (only where the operator switched
// the form on: nothing binds it to our client), and an authorization code redeemed with our client (HTTP Basic), so a
// code of another app is refused by X.
import Foundation
import OAuthClient
import Testing

@Suite struct NativeTokenXTests {
    private let http = FakeHTTP()
    private let clock = TestClock()
    private static let meURL = "https://api.x.com/2/users/me"
    private static let tokenURL = "https://api.x.com/2/oauth2/token"
    private static let token = "WDlYbGxx-access/+token"
    private static let secret = "x-s3cret/+"

    private func provider(_ change: (inout ProviderConfiguration) -> Void = { _ in }) -> OAuthProvider {
        var configuration = ProviderConfiguration(id: "x", kind: .twitter, clientID: "x-client", clientSecret: Self.secret)
        configuration.nativeAccessTokens = true
        change(&configuration)
        return OAuthProvider(configuration: configuration, http: http, now: clock.function)
    }

    private func serveMe(_ status: Int = 200) {
        http.on(Self.meURL, status == 200 ? json(["data": ["id": "2244994945", "name": "X Dev", "username": "XDevelopers"]])
                                          : json(["title": "Unauthorized", "type": "about:blank", "status": status, "detail": "Unauthorized"],
                                                 status: status))
    }

    @Test func anAccessTokenIsCheckedAtUsersMeWithTheTokenAsBearer() throws {
        serveMe()
        let identity = try provider().identity(fromNativeToken: Self.token)
        #expect(identity == ProviderIdentity(provider: "x", subject: "2244994945", email: nil, emailVerified: false, name: "X Dev",
                                             username: "XDevelopers", tokens: ProviderTokens(accessToken: Self.token)))
        let request = try #require(http.requests.first)
        #expect(http.requests.count == 1 && request.method == "GET" && request.url == Self.meURL)
        #expect(request.headers.contains(HTTPRequest.Header("Authorization", "Bearer \(Self.token)")))
    }

    @Test func anAccessTokenIsRefusedUnaskedUnlessTheFormIsSwitchedOn() throws {
        serveMe()
        #expect(!ProviderConfiguration(id: "x", kind: .twitter, clientID: "c", clientSecret: "s").nativeAccessTokens, "off by default")
        let error = try #require(throws: OAuthError.self) { try provider { $0.nativeAccessTokens = false }.identity(fromNativeToken: Self.token) }
        guard case .provider(let message) = error else { Issue.record("\(error)"); return }
        #expect(message.contains("native_access_tokens") && !message.contains(Self.token))
        #expect(http.requests.isEmpty, "X is not asked")
    }

    @Test func theConfiguredUserinfoEndpointIsTheOneAsked() throws {
        let local = "http://127.0.0.1:9000/2/users/me"
        http.on(local, json(["data": ["id": "7", "username": "seven"]]))
        let identity = try provider { $0.userInfoEndpoint = local }.identity(fromNativeToken: Self.token)
        #expect(identity.subject == "7" && identity.username == "seven" && identity.name == nil)
        #expect(http.requests.map(\.url) == [local])
    }

    @Test(arguments: [401, 403])
    func aRefusedTokenIsAProviderErrorThatNeverNamesIt(status: Int) throws {
        serveMe(status)
        let error = try #require(throws: OAuthError.self) { try provider().identity(fromNativeToken: Self.token) }
        guard case .provider(let message) = error else { Issue.record("\(error)"); return }
        #expect(message.contains("HTTP \(status)") && !message.contains(Self.token))
    }

    @Test func anAnswerWithoutDataIDIsInvalid() throws {
        http.on(Self.meURL, json(["errors": [["message": "nope"]]]))
        #expect(throws: OAuthError.invalidResponse("X users/me \(Self.meURL) has no data.id")) {
            try provider().identity(fromNativeToken: Self.token)
        }
    }

    @Test func anUnreachableProviderSaysSoWithoutTheToken() throws {
        http.fail(Self.meURL, .unreachable("could not reach \(Self.meURL) with \(Self.token)"))
        #expect(throws: OAuthError.unreachable("could not reach \(Self.meURL) with …")) { try provider().identity(fromNativeToken: Self.token) }
    }

    // MARK: The code form

    @Test func aCodeIsRedeemedWithOurClientOverBasicAndTheAppsVerifierAndRedirect() throws {
        http.on(Self.tokenURL, json(["access_token": "at-2", "refresh_token": "rt-2", "token_type": "bearer", "expires_in": 7200,
                                     "scope": "users.read tweet.read offline.access"]))
        serveMe()
        let identity = try provider().identity(fromNativeCode: "code-1", codeVerifier: "verifier-1", redirectURI: "com.example.app:/x")
        let request = try #require(http.requests(to: Self.tokenURL).first)
        #expect(formFields(String(decoding: request.body, as: UTF8.self))
            == ["grant_type": "authorization_code", "code": "code-1", "redirect_uri": "com.example.app:/x", "code_verifier": "verifier-1"])
        let basic = "Basic " + Data("x-client:x-s3cret%2F%2B".utf8).base64EncodedString()   // RFC 6749 2.3.1: form-encoded first
        #expect(request.headers.contains(HTTPRequest.Header("Authorization", basic)))
        #expect(identity.subject == "2244994945" && identity.email == nil)
        #expect(identity.tokens == ProviderTokens(accessToken: "at-2", refreshToken: "rt-2", tokenType: "bearer",
                                                  scope: "users.read tweet.read offline.access", expiresAt: clock.now.addingTimeInterval(7200)))
        #expect(http.requests(to: Self.meURL).first?.headers.contains(HTTPRequest.Header("Authorization", "Bearer at-2")) == true)
    }

    @Test func aCodeXRefusesIsAProviderErrorWithoutTheCodeOrVerifier() throws {
        http.on(Self.tokenURL, json(["error": "invalid_request", "error_description": "Value passed for the authorization code was invalid: code-9"],
                                    status: 400))
        #expect(throws: OAuthError.provider("token endpoint \(Self.tokenURL) answered invalid_request: Value passed for the authorization code was invalid: …")) {
            try provider().identity(fromNativeCode: "code-9", codeVerifier: "verifier-9", redirectURI: "com.example.app:/x")
        }
        #expect(http.requests(to: Self.meURL).isEmpty)
    }

    @Test(arguments: [("", "verifier-0", "app:/r"), ("code-0", "", "app:/r"), ("code-0", "verifier-0", "")])
    func aCodeWithoutVerifierOrRedirectIsRefusedWithoutAsking(code: String, verifier: String, redirect: String) throws {
        #expect(throws: OAuthError.provider("x: code, code_verifier and redirect_uri are all needed")) {
            try provider().identity(fromNativeCode: code, codeVerifier: verifier, redirectURI: redirect)
        }
        #expect(http.requests.isEmpty)
    }

    @Test(arguments: [ProviderKind.oidc, .google, .github, .facebook])
    func otherKindsTakeNoCodes(kind: ProviderKind) throws {
        var configuration = ProviderConfiguration(id: kind.rawValue, kind: kind, clientID: "client-0", clientSecret: "secret-0")
        configuration.issuer = "https://sso.example.com"
        let other = OAuthProvider(configuration: configuration, http: http, now: clock.function)
        #expect(throws: OAuthError.provider("\(kind.rawValue) takes no native codes")) {
            try other.identity(fromNativeCode: "code-0", codeVerifier: "verifier-0", redirectURI: "app:/r")
        }
        #expect(http.requests.isEmpty)
    }
}
