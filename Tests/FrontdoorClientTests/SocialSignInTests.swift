// SocialSignInTests.swift: signIn(with:token:uid:), the provider-token call, and signIn(with:code:codeVerifier:redirectURI:),
// X's code form: what they send and keep, and against the real server whose "google" provider asks FakeTokenInfo about
// each token and whose "x" provider redeems codes there.
import Foundation
@testable import FrontdoorClient
import Testing

@Suite struct SocialSignInTests {
    @Test func sendsTheDeviseProviderBodyAndStoresTheAccountLikeAPasswordSignIn() async throws {
        let store = MemoryCredentialsStore()
        let (client, transport) = Fixture.client(Fixture.signIns("ann", "bob"), store: store) {
            $0.extraParameters = [.socialSignIn: ["device": "phone", "oauth_token": "never this one"]]
        }
        try await client.signIn(email: "ann@example.com", password: "pw")
        let user = try await client.signIn(with: .google, token: "ya29.abc", uid: "1234")
        #expect(user == User(id: 2, email: "bob@example.com", authenticationToken: "tok-bob", createdAt: Fixture.createdAt,
                             updatedAt: Fixture.updatedAt))
        let sent = try #require(transport.sent.last)
        #expect(sent.method == "POST")
        #expect(sent.path == "/account/v1/users/auth/google")
        #expect(sent.headers["X-User-Token"] == nil)
        #expect(sent.user == ["provider": "google", "oauth_token": "ya29.abc", "uid": "1234", "device": "phone"])
        #expect(client.currentUser?.id == 2)
        #expect(try client.accounts().map(\.id) == [1, 2])
    }

    @Test func xsCodeFormSendsTheCodeItsVerifierAndTheRedirectURIAndNoToken() async throws {
        let (client, transport) = Fixture.client(Fixture.signIns("xan"))
        let user = try await client.signIn(with: .x, code: "code-123", codeVerifier: "verifier-456",
                                           redirectURI: "com.example.app:/x-callback")
        #expect(user.email == "xan@example.com" && client.currentUser?.id == 1)
        let sent = try #require(transport.sent.last)
        #expect(sent.method == "POST" && sent.path == "/account/v1/users/auth/x")
        #expect(sent.user == ["provider": "x", "code": "code-123", "code_verifier": "verifier-456",
                              "redirect_uri": "com.example.app:/x-callback"])
        #expect(sent.headers["X-User-Token"] == nil)
    }

    @Test func anIncompleteCodeFormIsRefusedBeforeSending() async throws {
        let (client, transport) = Fixture.client([])
        for (code, verifier, uri) in [("", "v", "app:/cb"), ("c", "", "app:/cb"), ("c", "v", "")] {
            await #expect(throws: FrontdoorClientError.self) {
                try await client.signIn(with: .x, code: code, codeVerifier: verifier, redirectURI: uri)
            }
        }
        #expect(transport.sent.isEmpty)
        #expect(!client.isSignedIn)
    }

    @Test func anyProviderNameIsOnePathSegmentAndRefusalsAreTheServers() async throws {
        let (client, transport) = Fixture.client([
            .answer(422, #"{"error":{"message":"Facebook did not accept the token.","code":0,"status":422}}"#),
            .answer(404, "{}"),
        ])
        await #expect(throws: FrontdoorClientError.validation(message: "Facebook did not accept the token.", fields: [:])) {
            try await client.signIn(with: .facebook, token: "EAAbad")
        }
        #expect(transport.sent[0].user == ["provider": "facebook", "oauth_token": "EAAbad"])
        await #expect(throws: FrontdoorClientError.self) { try await client.signIn(with: "x/../../sign_in", token: "t") }
        #expect(transport.sent[1].url == "http://127.0.0.1:9/account/v1/users/auth/x%2F%2E%2E%2F%2E%2E%2Fsign_in")
        #expect(!client.isSignedIn)
    }
}

@Suite(.enabled(if: TestServer.nginxInstalled, "nginx is not installed"))
struct SocialSignInIntegrationTests {
    @Test func aGoogleTokenSignsInOrUpAndTheSecondAccountKeepsTheFirst() async throws {
        let stack = try await TestServer.social.stack()
        let client = Integration.client(stack)
        let email = Integration.email("pw")
        try await client.register(email: email, password: Integration.password, fields: ["nickname": "pw-\(UUID().uuidString.prefix(6))"])
        let label = "g\(UUID().uuidString.prefix(8).lowercased())"
        let user = try await client.signIn(with: .google, token: FakeTokenInfo.token(label), uid: label)
        #expect(user.email == "\(label)@example.com")
        #expect(user.authenticationToken?.count == 43)
        #expect(FakeTokenInfo.tokensAsked(stack).contains(FakeTokenInfo.token(label)))
        #expect(try await client.reload().email == "\(label)@example.com")
        #expect(try client.accounts().map(\.email).sorted() == [email, "\(label)@example.com"].sorted())
        // The same provider identity again: the same account, a new token.
        let again = try await Integration.client(stack).signIn(with: .google, token: FakeTokenInfo.token(label))
        #expect(again.id == user.id)
        #expect(again.authenticationToken != user.authenticationToken)
    }

    @Test func tokensTheProviderRefusesOrForAnotherAppSignNobodyIn() async throws {
        let stack = try await TestServer.social.stack()
        let client = Integration.client(stack)
        let label = "r\(UUID().uuidString.prefix(8).lowercased())"
        for token in ["ya29.unknown", FakeTokenInfo.otherAppsToken(label)] {
            await #expect { try await client.signIn(with: .google, token: token) } throws: { error in
                guard case FrontdoorClientError.validation(let message, _) = error else { return false }
                return message.contains("Google")
            }
        }
        // A uid that is not the token's subject.
        await #expect(throws: FrontdoorClientError.self) {
            try await client.signIn(with: .google, token: FakeTokenInfo.token(label), uid: "someone-else")
        }
        // Facebook is not configured on this server.
        await #expect(throws: FrontdoorClientError.self) { try await client.signIn(with: .facebook, token: "EAA123") }
        #expect(!client.isSignedIn)
        #expect(try client.accounts().isEmpty)
    }

    @Test func xsCodeFormReachesTheServerWhichRedeemsItWithItsClientAndRefusesBareTokens() async throws {
        let stack = try await TestServer.social.stack()
        let client = Integration.client(stack)
        let label = "x\(UUID().uuidString.prefix(8).lowercased())"
        let (code, verifier) = FakeTokenInfo.xCode(label)
        // A new X user (X gives no address) is told to sign up on the web first: the code was redeemed and users/me asked.
        await #expect { try await client.signIn(with: .x, code: code, codeVerifier: verifier, redirectURI: FakeTokenInfo.xRedirectURI) }
            throws: { error in
                guard case FrontdoorClientError.validation(let message, _) = error else { return false }
                return message.hasPrefix("X did not give a verified email address.")
            }
        #expect(FakeTokenInfo.tokensAsked(stack).contains("x-token \(code) \(verifier) \(FakeTokenInfo.xRedirectURI)"))
        // A wrong verifier: X refuses the code.
        await #expect(throws: FrontdoorClientError.validation(message: "The X token could not be verified.", fields: [:])) {
            try await client.signIn(with: .x, code: code, codeVerifier: "not-" + verifier, redirectURI: FakeTokenInfo.xRedirectURI)
        }
        // A bare access token: refused before X is asked, since the operator did not switch that form on.
        await #expect { try await client.signIn(with: .x, token: "xat_\(label)") } throws: { error in
            guard case FrontdoorClientError.validation(let message, _) = error else { return false }
            return message.hasPrefix("X sign-in from an app needs an authorization code")
        }
        #expect(!client.isSignedIn)
    }
}
