// NativeTokenTests.swift: native apps' provider tokens checked with Google's tokeninfo and Facebook's debug_token + me
// (X's: NativeTokenXTests.swift).
import Foundation
import OAuthClient
import Testing

@Suite struct NativeTokenTests {
    private let http = FakeHTTP()
    private let clock = TestClock()
    private static let idToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMTAifQ.c2lnbmF0dXJl"
    private static let accessToken = "ya29.a0-access"
    private static let secret = "app-s3cret/+x"

    private func provider(_ kind: ProviderKind, change: (inout ProviderConfiguration) -> Void = { _ in }) -> OAuthProvider {
        var configuration = ProviderConfiguration(id: kind.rawValue, kind: kind, clientID: kind == .facebook ? "1001" : "web.apps", clientSecret: Self.secret)
        change(&configuration)
        return OAuthProvider(configuration: configuration, http: http, now: clock.function)
    }

    private var now: Int { Int(clock.now.timeIntervalSince1970) }

    // MARK: Google

    private let tokenInfo = "https://oauth2.googleapis.com/tokeninfo"

    private func googleAnswer(_ change: (inout [String: Any]) -> Void = { _ in }) -> HTTPResponse {
        var answer: [String: Any] = ["aud": "web.apps", "azp": "web.apps", "sub": "110", "email": "ann@example.com", "email_verified": "true",
                                     "exp": String(now + 3599), "expires_in": "3599", "iss": "https://accounts.google.com", "name": "Ann"]
        change(&answer)
        return json(answer)
    }

    private func serveGoogle(_ token: String, kind: String = "id_token", _ response: HTTPResponse) {
        http.on("\(tokenInfo)?\(kind)=\(token)", response)
    }

    @Test func aGoogleIDTokenIsCheckedWithTokeninfo() throws {
        serveGoogle(Self.idToken, googleAnswer())
        let identity = try provider(.google).identity(fromNativeToken: Self.idToken)
        #expect(identity == ProviderIdentity(provider: "google", subject: "110", email: "ann@example.com", emailVerified: true, name: "Ann",
                                             username: nil, tokens: ProviderTokens(accessToken: Self.idToken,
                                                                                   expiresAt: Date(timeIntervalSince1970: TimeInterval(now + 3599)))))
        #expect(http.requests.count == 1 && http.requests[0].method == "GET")
    }

    @Test func aGoogleAccessTokenIsCheckedAsOneAndItsNameReadFromUserinfo() throws {
        serveGoogle(Self.accessToken, kind: "access_token", googleAnswer {
            $0["iss"] = nil
            $0["name"] = nil
            $0["email_verified"] = true
        })
        http.on("https://accounts.google.com/.well-known/openid-configuration",
                json(["issuer": "https://accounts.google.com", "authorization_endpoint": "https://accounts.google.com/o/oauth2/v2/auth",
                      "token_endpoint": "https://oauth2.googleapis.com/token", "jwks_uri": "https://www.googleapis.com/oauth2/v3/certs",
                      "userinfo_endpoint": "https://openidconnect.googleapis.com/v1/userinfo"]))
        http.on("https://openidconnect.googleapis.com/v1/userinfo", json(["sub": "110", "name": "Ann Lee"]))
        let identity = try provider(.google).identity(fromNativeToken: Self.accessToken)
        #expect(identity.subject == "110" && identity.email == "ann@example.com" && identity.emailVerified && identity.name == "Ann Lee")
        #expect(identity.tokens.accessToken == Self.accessToken)
        let userinfo = http.requests(to: "https://openidconnect.googleapis.com/v1/userinfo")
        #expect(userinfo.first?.headers.contains(HTTPRequest.Header("Authorization", "Bearer \(Self.accessToken)")) == true)
    }

    @Test func userinfoOnlyAddsWhatItCanAndNeverFails() throws {
        let token = "ya29.other"
        serveGoogle(token, kind: "access_token", googleAnswer { $0["iss"] = nil; $0["name"] = nil; $0["email"] = nil; $0["email_verified"] = nil })
        // Another subject: ignored.
        let other = provider(.google) { $0.userInfoEndpoint = "http://127.0.0.1:9000/userinfo" }
        http.on("http://127.0.0.1:9000/userinfo", json(["sub": "999", "name": "Mallory", "email": "m@example.com", "email_verified": true]))
        let identity = try other.identity(fromNativeToken: token)
        #expect(identity.name == nil && identity.email == nil && !identity.emailVerified)
        // Its own subject: fills in the name and the address.
        http.on("http://127.0.0.1:9000/userinfo", json(["sub": "110", "name": "Ann", "email": "ann@example.com", "email_verified": "false"]))
        let filled = try other.identity(fromNativeToken: token)
        #expect(filled.name == "Ann" && filled.email == "ann@example.com" && !filled.emailVerified)
        // Down: the identity stands without a name.
        http.fail("http://127.0.0.1:9000/userinfo", .unreachable("down"))
        #expect(try other.identity(fromNativeToken: token).name == nil)
    }

    @Test func anIDTokenNeverGoesToUserinfo() throws {
        serveGoogle(Self.idToken, googleAnswer { $0["name"] = nil })
        let identity = try provider(.google) { $0.userInfoEndpoint = "https://example.com/userinfo" }.identity(fromNativeToken: Self.idToken)
        #expect(identity.name == nil && http.requests.count == 1)
    }

    @Test func anUnverifiedOrMissingAddressIsNotVouchedFor() throws {
        serveGoogle(Self.idToken, googleAnswer { $0["email_verified"] = "false" })
        #expect(try !provider(.google).identity(fromNativeToken: Self.idToken).emailVerified)
        serveGoogle(Self.idToken, googleAnswer { $0["email_verified"] = nil })
        #expect(try !provider(.google).identity(fromNativeToken: Self.idToken).emailVerified)
        serveGoogle(Self.idToken, googleAnswer { $0["email"] = nil })
        let identity = try provider(.google).identity(fromNativeToken: Self.idToken)
        #expect(identity.email == nil && !identity.emailVerified)
    }

    @Test func theTokenIsPercentEncodedInTheQuery() throws {
        let token = "a+b/c=="
        http.on("\(tokenInfo)?access_token=a%2Bb%2Fc%3D%3D", googleAnswer { $0["iss"] = nil })
        #expect(try provider(.google).identity(fromNativeToken: token).subject == "110")
    }

    @Test func aTokenForAnotherClientIsRefused() throws {
        serveGoogle(Self.idToken, googleAnswer { $0["aud"] = "evil.apps"; $0["azp"] = "evil.apps" })
        #expect(throws: OAuthError.provider("google tokeninfo: the token is for another client (aud evil.apps)")) {
            try provider(.google).identity(fromNativeToken: Self.idToken)
        }
    }

    @Test func nativeClientIDsAreAcceptedAsAudience() throws {
        let google = provider(.google) { $0.nativeClientIDs = ["ios.apps", "android.apps"] }
        serveGoogle(Self.idToken, googleAnswer { $0["aud"] = "android.apps"; $0["azp"] = "android.apps" })
        #expect(try google.identity(fromNativeToken: Self.idToken).subject == "110")
        // An iOS ID token made for the server: aud is the web client, azp the iOS one.
        serveGoogle(Self.idToken, googleAnswer { $0["aud"] = "web.apps"; $0["azp"] = "ios.apps" })
        #expect(try google.identity(fromNativeToken: Self.idToken).subject == "110")
        // Made for another backend: our app as authorized party is not enough.
        serveGoogle(Self.idToken, googleAnswer { $0["aud"] = "evil.apps"; $0["azp"] = "ios.apps" })
        #expect(throws: OAuthError.self) { try google.identity(fromNativeToken: Self.idToken) }
        // Without the setting, only client_id.
        #expect(throws: OAuthError.self) { try provider(.google).identity(fromNativeToken: Self.idToken) }
    }

    @Test(arguments: [-1, 0])
    func anExpiredTokenIsRefused(offset: Int) throws {
        serveGoogle(Self.idToken, googleAnswer { $0["exp"] = String(now + offset); $0["expires_in"] = "0" })
        #expect(throws: OAuthError.provider("google tokeninfo: the token has expired")) {
            try provider(.google).identity(fromNativeToken: Self.idToken)
        }
    }

    @Test func withoutExpExpiresInCounts() throws {
        serveGoogle(Self.accessToken, kind: "access_token", googleAnswer { $0["exp"] = nil; $0["expires_in"] = "60"; $0["iss"] = nil })
        let identity = try provider(.google).identity(fromNativeToken: Self.accessToken)
        #expect(identity.tokens.expiresAt == clock.now.addingTimeInterval(60))
        serveGoogle(Self.accessToken, kind: "access_token", googleAnswer { $0["exp"] = nil; $0["expires_in"] = "0" })
        #expect(throws: OAuthError.provider("google tokeninfo: the token has expired")) {
            try provider(.google).identity(fromNativeToken: Self.accessToken)
        }
        serveGoogle(Self.accessToken, kind: "access_token", googleAnswer { $0["exp"] = nil; $0["expires_in"] = nil })
        #expect(throws: OAuthError.invalidResponse("google tokeninfo gives no exp")) {
            try provider(.google).identity(fromNativeToken: Self.accessToken)
        }
    }

    @Test func anInvalidTokenAnswers400() throws {
        serveGoogle(Self.idToken, json(["error_description": "Invalid Value"], status: 400))
        #expect(throws: OAuthError.provider("google tokeninfo refused the token (HTTP 400: Invalid Value)")) {
            try provider(.google).identity(fromNativeToken: Self.idToken)
        }
        serveGoogle(Self.accessToken, kind: "access_token", HTTPResponse(status: 500, body: Array("oops".utf8)))
        #expect(throws: OAuthError.provider("google tokeninfo refused the token (HTTP 500)")) {
            try provider(.google).identity(fromNativeToken: Self.accessToken)
        }
    }

    @Test func anAnswerWithoutSubjectOrNotJSONIsInvalid() throws {
        serveGoogle(Self.idToken, googleAnswer { $0["sub"] = nil })
        #expect(throws: OAuthError.invalidResponse("google tokeninfo gives no sub")) { try provider(.google).identity(fromNativeToken: Self.idToken) }
        serveGoogle(Self.idToken, HTTPResponse(status: 200, body: Array("<html>".utf8)))
        #expect(throws: OAuthError.invalidResponse("google tokeninfo is not a JSON object")) {
            try provider(.google).identity(fromNativeToken: Self.idToken)
        }
    }

    @Test(arguments: ["accounts.google.com", "https://accounts.google.com", "https://google.example.com"])
    func anIDTokensIssuerIsGoogles(issuer: String) throws {
        serveGoogle(Self.idToken, googleAnswer { $0["iss"] = issuer })
        let google = provider(.google) { $0.issuer = "https://google.example.com" }
        #expect(try google.identity(fromNativeToken: Self.idToken).subject == "110")
    }

    @Test(arguments: ["https://evil.example.com", "", nil] as [String?])
    func anIDTokenFromAnotherIssuerIsRefused(issuer: String?) throws {
        serveGoogle(Self.idToken, googleAnswer { $0["iss"] = issuer })
        #expect(throws: OAuthError.provider("google tokeninfo: the ID token is from another issuer (\(issuer ?? "none"))")) {
            try provider(.google).identity(fromNativeToken: Self.idToken)
        }
    }

    @Test func anAccessTokenNeedsNoIssuer() throws {
        serveGoogle(Self.accessToken, kind: "access_token", googleAnswer { $0["iss"] = "https://evil.example.com" })
        #expect(try provider(.google).identity(fromNativeToken: Self.accessToken).subject == "110")
    }

    @Test func theTokeninfoEndpointCanBeOverridden() throws {
        http.on("http://127.0.0.1:9000/tokeninfo?id_token=\(Self.idToken)", googleAnswer())
        let google = provider(.google) { $0.tokenInfoEndpoint = "http://127.0.0.1:9000/tokeninfo" }
        #expect(try google.identity(fromNativeToken: Self.idToken).subject == "110")
    }

    // MARK: Facebook

    private let debugToken = "https://graph.facebook.com/debug_token"
    private let me = "https://graph.facebook.com/v19.0/me?fields=id,name,email"
    private static let fbToken = "EAAB-user-token"
    private var debugURL: String { "\(debugToken)?input_token=\(Self.fbToken)&access_token=1001%7Capp-s3cret%2F%2Bx" }

    private func facebookAnswer(_ change: (inout [String: Any]) -> Void = { _ in }) -> HTTPResponse {
        var data: [String: Any] = ["app_id": "1001", "type": "USER", "application": "Example", "is_valid": true, "user_id": "5150",
                                   "expires_at": now + 3600, "scopes": ["email", "public_profile"]]
        change(&data)
        return json(["data": data])
    }

    @Test func aFacebookTokenIsCheckedWithDebugTokenThenMe() throws {
        http.on(debugURL, facebookAnswer())
        http.on(me, json(["id": "5150", "name": "Ann", "email": "ann@example.com"]))
        let identity = try provider(.facebook).identity(fromNativeToken: Self.fbToken)
        #expect(identity == ProviderIdentity(provider: "facebook", subject: "5150", email: "ann@example.com", emailVerified: true, name: "Ann",
                                             username: nil, tokens: ProviderTokens(accessToken: Self.fbToken,
                                                                                   expiresAt: Date(timeIntervalSince1970: TimeInterval(now + 3600)))))
        #expect(http.requests.map(\.url) == [debugURL, me])
        // The app access token goes to debug_token only; me gets the person's token.
        #expect(http.requests(to: me).first?.headers.contains(HTTPRequest.Header("Authorization", "Bearer \(Self.fbToken)")) == true)
        #expect(!http.requests(to: me).contains { request in request.url.contains("s3cret") || request.headers.contains { $0.value.contains("s3cret") } })
    }

    @Test func aTokenThatNeverExpiresAndNumericIDsAreRead() throws {
        http.on(debugURL, facebookAnswer { $0["expires_at"] = 0; $0["app_id"] = 1001; $0["user_id"] = 5150 })
        http.on(me, json(["id": "5150"]))
        let identity = try provider(.facebook).identity(fromNativeToken: Self.fbToken)
        #expect(identity.subject == "5150" && identity.tokens.expiresAt == nil && identity.email == nil && !identity.emailVerified)
    }

    @Test func aFacebookTokenOfAnotherAppIsRefused() throws {
        http.on(debugURL, facebookAnswer { $0["app_id"] = "666" })
        #expect(throws: OAuthError.provider("facebook debug_token: the token is for another app (666)")) {
            try provider(.facebook).identity(fromNativeToken: Self.fbToken)
        }
        #expect(http.requests(to: me).isEmpty)
    }

    @Test func anotherAppOfTheOperatorIsAccepted() throws {
        http.on(debugURL, facebookAnswer { $0["app_id"] = "2002" })
        http.on(me, json(["id": "5150"]))
        #expect(try provider(.facebook) { $0.nativeClientIDs = ["2002"] }.identity(fromNativeToken: Self.fbToken).subject == "5150")
    }

    @Test func anInvalidFacebookTokenIsRefused() throws {
        http.on(debugURL, json(["data": ["is_valid": false, "error": ["code": 190, "message": "Invalid OAuth access token."]]]))
        #expect(throws: OAuthError.provider("facebook debug_token says the token is not valid (HTTP 200: Invalid OAuth access token.)")) {
            try provider(.facebook).identity(fromNativeToken: Self.fbToken)
        }
        http.on(debugURL, json(["error": ["message": "Invalid OAuth access token.", "type": "OAuthException", "code": 190]], status: 400))
        #expect(throws: OAuthError.provider("facebook debug_token says the token is not valid (HTTP 400: Invalid OAuth access token.)")) {
            try provider(.facebook).identity(fromNativeToken: Self.fbToken)
        }
        http.on(debugURL, facebookAnswer { $0["is_valid"] = nil })
        #expect(throws: OAuthError.provider("facebook debug_token says the token is not valid (HTTP 200)")) {
            try provider(.facebook).identity(fromNativeToken: Self.fbToken)
        }
        http.on(debugURL, HTTPResponse(status: 200, body: Array("[]".utf8)))
        #expect(throws: OAuthError.invalidResponse("facebook debug_token gives no data")) { try provider(.facebook).identity(fromNativeToken: Self.fbToken) }
        #expect(http.requests(to: me).isEmpty)
    }

    @Test func anExpiredFacebookTokenIsRefused() throws {
        http.on(debugURL, facebookAnswer { $0["expires_at"] = now - 1 })
        #expect(throws: OAuthError.provider("facebook debug_token: the token has expired")) {
            try provider(.facebook).identity(fromNativeToken: Self.fbToken)
        }
    }

    @Test func debugTokenWithoutUserIsInvalid() throws {
        http.on(debugURL, facebookAnswer { $0["user_id"] = nil })
        #expect(throws: OAuthError.invalidResponse("facebook debug_token gives no user_id")) {
            try provider(.facebook).identity(fromNativeToken: Self.fbToken)
        }
    }

    @Test func meMustNameTheUserDebugTokenNamed() throws {
        http.on(debugURL, facebookAnswer())
        http.on(me, json(["id": "6000", "name": "Mallory", "email": "m@example.com"]))
        #expect(throws: OAuthError.provider("facebook me names another user (6000) than debug_token (5150)")) {
            try provider(.facebook).identity(fromNativeToken: Self.fbToken)
        }
        http.on(me, json(["error": ["message": "Session expired"]], status: 400))
        #expect(throws: OAuthError.self) { try provider(.facebook).identity(fromNativeToken: Self.fbToken) }
    }

    @Test func overriddenEndpointsAreUsed() throws {
        let facebook = provider(.facebook) {
            $0.tokenInfoEndpoint = "http://127.0.0.1:9000/debug_token"
            $0.userInfoEndpoint = "http://127.0.0.1:9000/me"
        }
        http.on("http://127.0.0.1:9000/debug_token?input_token=\(Self.fbToken)&access_token=1001%7Capp-s3cret%2F%2Bx", facebookAnswer())
        http.on("http://127.0.0.1:9000/me", json(["id": "5150"]))
        #expect(try facebook.identity(fromNativeToken: Self.fbToken).subject == "5150")
    }

    @Test func theAppAccessTokenAndTheTokenNeverAppearInAnError() throws {
        // CurlHTTPClient names the URL it could not reach; Facebook might echo what it got.
        http.fail(debugURL, .unreachable("\(debugURL): Could not resolve host"))
        let unreachable = #expect(throws: OAuthError.self) { try provider(.facebook).identity(fromNativeToken: Self.fbToken) }
        #expect(unreachable == .unreachable("\(debugToken)?input_token=…&access_token=…: Could not resolve host"))
        http.on(debugURL, json(["data": ["is_valid": false, "error": ["message": "bad 1001|\(Self.secret) for \(Self.fbToken), \(Self.secret)"]]]))
        let echoed = #expect(throws: OAuthError.self) { try provider(.facebook).identity(fromNativeToken: Self.fbToken) }
        #expect(echoed == .provider("facebook debug_token says the token is not valid (HTTP 200: bad … for …, …)"))
        let google = "\(tokenInfo)?id_token=\(Self.idToken)"
        http.fail(google, .unreachable("\(google): timeout"))
        let googleError = #expect(throws: OAuthError.self) { try provider(.google).identity(fromNativeToken: Self.idToken) }
        #expect(googleError == .unreachable("\(tokenInfo)?id_token=…: timeout"))
    }

    // MARK: Others

    @Test(arguments: [ProviderKind.oidc, .github])
    func otherKindsTakeNoNativeTokens(kind: ProviderKind) throws {
        #expect(throws: OAuthError.provider("\(kind.rawValue) takes no native tokens")) { try provider(kind).identity(fromNativeToken: Self.fbToken) }
        #expect(http.requests.isEmpty)
    }

    @Test(arguments: [ProviderKind.google, .facebook, .twitter])
    func anEmptyTokenIsRefusedWithoutAsking(kind: ProviderKind) throws {
        #expect(throws: OAuthError.provider("\(kind.rawValue): the token is empty")) { try provider(kind).identity(fromNativeToken: "") }
        #expect(http.requests.isEmpty)
    }

    @Test func anUnreachableProviderSaysSo() throws {
        http.fail(debugURL, .unreachable("down"))
        #expect(throws: OAuthError.unreachable("down")) { try provider(.facebook).identity(fromNativeToken: Self.fbToken) }
        http.on(debugURL, facebookAnswer())
        http.fail(me, .unreachable("down"))
        #expect(throws: OAuthError.unreachable("down")) { try provider(.facebook).identity(fromNativeToken: Self.fbToken) }
        http.fail("\(tokenInfo)?id_token=\(Self.idToken)", .unreachable("down"))
        #expect(throws: OAuthError.unreachable("down")) { try provider(.google).identity(fromNativeToken: Self.idToken) }
    }
}
