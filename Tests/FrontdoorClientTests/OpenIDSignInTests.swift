// OpenIDSignInTests.swift: signInThroughProvider — discovery, PKCE S256, state, the code redeemed as a public client,
// the access token exchanged for an API token; and every refusal on the way (FakeTransport + a scripted browser).
import Crypto
import Foundation
@testable import FrontdoorClient
import Locking
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct OpenIDSignInTests {
    static let discovery = #"{"issuer":"http://127.0.0.1:9/account","authorization_endpoint":"http://127.0.0.1:9/account/oidc/authorize","#
        + #""token_endpoint":"http://127.0.0.1:9/account/oidc/token"}"#
    static let tokens = #"{"access_token":"at-123","token_type":"Bearer","expires_in":3600,"id_token":"x.y.z"}"#
    static let request = ProviderSignIn(clientID: "notes", redirectURI: "com.example.notes:/cb")

    /// Answers the authorization URL with `answer(url)`: what a browser would be redirected to.
    final class ScriptedBrowser: WebAuthenticationSession, @unchecked Sendable {
        private let lock = Lock()
        private var opened: [(URL, String?)] = []
        let answer: @Sendable (URL) throws -> URL
        init(_ answer: @escaping @Sendable (URL) throws -> URL) { self.answer = answer }
        var calls: [(URL, String?)] { lock.withLock { opened } }
        func authenticate(url: URL, callbackURLScheme: String?) async throws -> URL {
            lock.withLock { opened.append((url, callbackURLScheme)) }
            return try answer(url)
        }
    }

    static func query(_ url: URL) -> [String: String] {
        Dictionary((URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { a, _ in a }
    }

    /// A browser that sends the person back with `code` and the state it was given.
    static func approving(code: String = "code-1") -> ScriptedBrowser {
        ScriptedBrowser { url in URL(string: "com.example.notes:/cb?code=\(code)&state=\(query(url)["state"]!)")! }
    }

    static func counter() -> @Sendable (Int) -> [UInt8] { { count in [UInt8](repeating: 7, count: count) } }

    @Test func theChallengeIsRFC7636sAndSwiftCryptosSHA256() {
        #expect(PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        for length in [0, 1, 55, 56, 63, 64, 65, 200] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
            #expect(SHA256Digest.hash(bytes) == Array(SHA256.hash(data: bytes)))
        }
        #expect(PKCE(random: Self.counter()).verifier.count == 43)
    }

    @Test func signsInThroughTheBrowserAndStoresTheAPIToken() async throws {
        let (client, transport) = Fixture.client([.answer(200, Self.discovery), .answer(200, Self.tokens)] + Fixture.signIns("ann"))
        let browser = Self.approving()
        let user = try await client.signInThroughProvider(Self.request, session: browser, random: Self.counter())
        #expect(user.email == "ann@example.com" && client.currentUser?.authenticationToken == "tok-ann")

        // The browser was sent to the authorization endpoint with PKCE S256 and a state, and told the custom scheme.
        let (url, scheme) = try #require(browser.calls.first)
        #expect(url.path == "/account/oidc/authorize" && scheme == "com.example.notes")
        let query = Self.query(url)
        #expect(query["response_type"] == "code" && query["client_id"] == "notes" && query["redirect_uri"] == "com.example.notes:/cb")
        #expect(query["scope"] == "openid profile email" && query["code_challenge_method"] == "S256")
        let verifier = PKCE(random: Self.counter()).verifier
        #expect(query["code_challenge"] == PKCE.challenge(for: verifier) && query["state"]?.isEmpty == false)

        // The code went to the token endpoint with the verifier and no secret; the access token to sign_in/oidc.
        #expect(transport.sent.map(\.path) == ["/account/.well-known/openid-configuration", "/account/oidc/token", "/account/v1/users/sign_in/oidc"])
        #expect(transport.sent[1].method == "POST" && transport.sent[1].headers["Authorization"] == nil)
        #expect(transport.sent[2].json?["access_token"] as? String == "at-123")
    }

    @Test func theTokenRequestIsAFormOfThePublicClient() async throws {
        final class Recording: HTTPTransport, @unchecked Sendable {
            let lock = Lock()
            var bodies: [String] = []
            let inner: FakeTransport
            init(_ inner: FakeTransport) { self.inner = inner }
            func send(_ request: URLRequest) async throws -> HTTPAnswer {
                lock.withLock { bodies.append(String(decoding: request.httpBody ?? Data(), as: UTF8.self)) }
                return try await inner.send(request)
            }
        }
        let recording = Recording(FakeTransport([.answer(200, Self.discovery), .answer(200, Self.tokens)] + Fixture.signIns("ann")))
        let client = FrontdoorClient(configuration: .init(serverURL: Fixture.server), store: MemoryCredentialsStore(), transport: recording)
        try await client.signInThroughProvider(Self.request, session: Self.approving(code: "c%2Fd"), random: Self.counter())
        let verifier = PKCE(random: Self.counter()).verifier
        #expect(recording.bodies[1] == "grant_type=authorization_code&code=c%2Fd&redirect_uri=com.example.notes%3A%2Fcb&client_id=notes&code_verifier=\(verifier)")
    }

    @Test func aCallbackWithAnotherStateOrURLIsRefusedAndNothingIsRedeemed() async throws {
        for answer in ["com.example.notes:/cb?code=c&state=forged", "com.example.evil:/cb?code=c&state=STATE", "com.example.notes:/cb?code=c"] {
            let (client, transport) = Fixture.client([.answer(200, Self.discovery)])
            let browser = ScriptedBrowser { url in URL(string: answer.replacingOccurrences(of: "STATE", with: Self.query(url)["state"]!))! }
            await #expect(throws: FrontdoorClientError.openIDStateMismatch) {
                try await client.signInThroughProvider(Self.request, session: browser, random: Self.counter())
            }
            #expect(transport.sent.count == 1 && !client.isSignedIn)
        }
    }

    @Test func theProvidersRefusalsAreOpenIDRefused() async throws {
        let (client, _) = Fixture.client([.answer(200, Self.discovery)])
        let denying = ScriptedBrowser { url in
            URL(string: "com.example.notes:/cb?error=access_denied&error_description=Not%20for%20you&state=\(Self.query(url)["state"]!)")!
        }
        await #expect(throws: FrontdoorClientError.openIDRefused(error: "access_denied", message: "Not for you")) {
            try await client.signInThroughProvider(Self.request, session: denying, random: Self.counter())
        }
        let (again, _) = Fixture.client([.answer(200, Self.discovery), .answer(400, #"{"error":"invalid_grant","error_description":"Code used."}"#)])
        await #expect(throws: FrontdoorClientError.openIDRefused(error: "invalid_grant", message: "Code used.")) {
            try await again.signInThroughProvider(Self.request, session: Self.approving(), random: Self.counter())
        }
        #expect(!again.isSignedIn)
    }

    @Test func aDiscoveryDocumentOfAnotherIssuerOrPointingElsewhereIsRefusedBeforeTheBrowserOpens() async throws {
        let documents = [
            Self.discovery.replacingOccurrences(of: #""issuer":"http://127.0.0.1:9/account""#, with: #""issuer":"http://evil.example""#),
            Self.discovery.replacingOccurrences(of: "http://127.0.0.1:9/account/oidc/token", with: "http://evil.example/token"),
            Self.discovery.replacingOccurrences(of: "http://127.0.0.1:9/account/oidc/authorize", with: "http://127.0.0.1:9/accountX/authorize"),
        ]
        for document in documents {
            let (client, _) = Fixture.client([.answer(200, document)])
            let browser = Self.approving()
            await #expect(throws: FrontdoorClientError.invalidResponse) {
                try await client.signInThroughProvider(Self.request, session: browser, random: Self.counter())
            }
            #expect(browser.calls.isEmpty)
        }
    }

    @Test func theAPIExchangeRefusalIsTheServersAndNothingIsStored() async throws {
        let (client, _) = Fixture.client([.answer(200, Self.discovery), .answer(200, Self.tokens),
                                          .answer(401, #"{"error":"Invalid token."}"#)])
        await #expect(throws: FrontdoorClientError.unauthorized(message: "Invalid token.")) {
            try await client.signInThroughProvider(Self.request, session: Self.approving(), random: Self.counter())
        }
        #expect(!client.isSignedIn)
    }

    @Test func anHTTPSRedirectURIGivesTheBrowserNoScheme() async throws {
        let (client, _) = Fixture.client([.answer(200, Self.discovery), .answer(200, Self.tokens)] + Fixture.signIns("ann"))
        let browser = ScriptedBrowser { url in URL(string: "https://app.example/cb?code=c&state=\(Self.query(url)["state"]!)")! }
        try await client.signInThroughProvider(ProviderSignIn(clientID: "notes", redirectURI: "https://app.example/cb"), session: browser,
                                               random: Self.counter())
        #expect(browser.calls.first?.1 == nil)
    }
}
