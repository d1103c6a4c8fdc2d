// ProfileMappingTests.swift: who signed in, as GitHub, Facebook, X and an OpenID Connect userinfo endpoint say.
import Foundation
import OAuthClient
import Testing

@Suite struct ProfileMappingTests {
    /// A code exchange with `kind`'s preset, whose token endpoint gives access token "at".
    private func signIn(_ kind: ProviderKind, _ http: FakeHTTP) throws -> ProviderIdentity {
        let configuration = ProviderConfiguration(id: kind.rawValue, kind: kind, clientID: "id", clientSecret: "secret")
        http.on(configuration.tokenEndpoint, json(["access_token": "at", "token_type": "bearer"]))
        return try OAuthProvider(configuration: configuration, http: http)
            .exchange(code: "c", redirectURI: "https://example.com/cb", codeVerifier: "v", nonce: nil)
    }

    private let user = "https://api.github.com/user"
    private let emails = "https://api.github.com/user/emails"
    private let githubUser: [String: Any] = ["id": 1234567, "login": "octoann", "name": "Ann Octo", "email": "public@example.com"]

    @Test func gitHubGivesThePrimaryVerifiedAddress() throws {
        let http = FakeHTTP()
        http.on(user, json(githubUser))
        http.on(emails, json([["email": "old@example.com", "primary": false, "verified": true],
                              ["email": "ann@example.com", "primary": true, "verified": true]]))
        let identity = try signIn(.github, http)
        #expect(identity.subject == "1234567" && identity.username == "octoann" && identity.name == "Ann Octo")
        #expect(identity.email == "ann@example.com" && identity.emailVerified)
        #expect(identity.otherVerifiedEmails == ["old@example.com"], "the picker's other candidates")
        #expect(http.requests(to: emails).count == 1)
        let request = try #require(http.requests(to: user).first)
        #expect(request.headers.contains(.init("Authorization", "Bearer at")) && request.headers.contains { $0.name == "User-Agent" })
        #expect(http.requests(to: "https://github.com/login/oauth/access_token").first?.headers.contains(.init("Accept", "application/json")) == true)
    }

    @Test func gitHubFallsBackToAnotherVerifiedAddress() throws {
        let http = FakeHTTP()
        http.on(user, json(githubUser))
        http.on(emails, json([["email": "ann@example.com", "primary": true, "verified": false],
                              ["email": "work@example.com", "primary": false, "verified": true]]))
        let identity = try signIn(.github, http)
        #expect(identity.email == "work@example.com" && identity.emailVerified)
        #expect(identity.otherVerifiedEmails.isEmpty, "an unverified address is never a candidate")
    }

    @Test func gitHubWithoutVerifiedAddressGivesTheProfileAddressUnverified() throws {
        let http = FakeHTTP()
        http.on(user, json(githubUser))
        http.on(emails, json([["email": "ann@example.com", "primary": true, "verified": false]]))
        let identity = try signIn(.github, http)
        #expect(identity.email == "public@example.com" && !identity.emailVerified)
    }

    @Test func gitHubWithoutTheEmailsScopeStillSignsIn() throws {
        let http = FakeHTTP()
        var noEmail = githubUser
        noEmail["email"] = NSNull()
        http.on(user, json(noEmail))
        http.on(emails, json(["message": "Not Found"], status: 404))
        let identity = try signIn(.github, http)
        #expect(identity.subject == "1234567" && identity.email == nil && !identity.emailVerified)
    }

    @Test func gitHubProfileErrorsAreProviderErrors() {
        let http = FakeHTTP()
        http.on(user, json(["message": "Bad credentials"], status: 401))
        #expect(throws: OAuthError.provider("GitHub user \(user) answered HTTP 401")) { try signIn(.github, http) }
        http.on(user, json(["login": "octoann"]))
        #expect(throws: OAuthError.invalidResponse("GitHub user \(user) has no id")) { try signIn(.github, http) }
    }

    @Test func facebookAddressesCountAsVerified() throws {
        let http = FakeHTTP()
        let me = "https://graph.facebook.com/v19.0/me?fields=id,name,email"
        http.on(me, json(["id": "10158", "name": "Ann", "email": "ann@example.com"]))
        let identity = try signIn(.facebook, http)
        #expect(identity == ProviderIdentity(provider: "facebook", subject: "10158", email: "ann@example.com", emailVerified: true,
                                             name: "Ann", username: nil, tokens: ProviderTokens(accessToken: "at", tokenType: "bearer")))
        http.on(me, json(["id": "10158", "name": "Ann"]))
        let withoutEmail = try signIn(.facebook, http)
        #expect(withoutEmail.email == nil && !withoutEmail.emailVerified)
    }

    @Test func xGivesIdUsernameAndNameButNoEmail() throws {
        let http = FakeHTTP()
        http.on("https://api.x.com/2/users/me", json(["data": ["id": "2244994945", "name": "Ann", "username": "ann_x"]]))
        let identity = try signIn(.twitter, http)
        #expect(identity.subject == "2244994945" && identity.username == "ann_x" && identity.name == "Ann")
        #expect(identity.email == nil && !identity.emailVerified)
        http.on("https://api.x.com/2/users/me", json(["errors": [["title": "Unauthorized"]]]))
        #expect(throws: OAuthError.invalidResponse("X users/me https://api.x.com/2/users/me has no data.id")) { try signIn(.twitter, http) }
    }

    @Test func openIDAsksUserinfoWhenTheIDTokenHasNoEmail() throws {
        let issuer = TestIssuer()
        issuer.serveKeys()
        var claims = issuer.claims()
        claims["email"] = nil
        claims["email_verified"] = nil
        issuer.serveToken(issuer.idToken(claims))
        issuer.http.on(issuer.userInfoURL, json(["sub": "user-42", "email": "ann@example.com", "email_verified": "true",
                                                 "preferred_username": "ann"]))
        let identity = try issuer.exchange()
        #expect(identity.email == "ann@example.com" && identity.emailVerified && identity.username == "ann" && identity.name == "Ann")
        #expect(issuer.http.requests(to: issuer.userInfoURL).first?.headers.contains(.init("Authorization", "Bearer at-1")) == true)
    }

    @Test func openIDRefusesUserinfoAboutSomeoneElse() {
        let issuer = TestIssuer()
        issuer.serveKeys()
        var claims = issuer.claims()
        claims["email"] = nil
        issuer.serveToken(issuer.idToken(claims))
        issuer.http.on(issuer.userInfoURL, json(["sub": "user-43", "email": "mallory@example.com", "email_verified": true]))
        #expect(throws: OAuthError.invalidResponse("userinfo \(issuer.userInfoURL) names another subject than the ID token")) {
            try issuer.exchange()
        }
    }

    @Test func openIDUnverifiedAddressStaysUnverified() throws {
        let issuer = TestIssuer()
        issuer.serveKeys()
        var claims = issuer.claims()
        claims["email_verified"] = false
        issuer.serveToken(issuer.idToken(claims))
        let identity = try issuer.exchange()
        #expect(identity.email == "ann@example.com" && !identity.emailVerified)
    }
}
