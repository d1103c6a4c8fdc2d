// SecondFactorClientTests.swift: the second step of a sign-in against a scripted transport: the 401 that asks for a
// code becomes `.secondFactorRequired` with the challenge (nothing stored), `completeSignIn` sends the challenge and
// the code and stores the account, and the failures (wrong code, expired challenge, empty code) are told apart.
// Against the real server: SecondFactorIntegrationTests.swift.
import Foundation
@testable import FrontdoorClient
import Testing

@Suite struct SecondFactorClientTests {
    static let asked = #"{"error":"Enter the code from your authenticator app (or a recovery code) to finish signing in.","#
        + #""reason":"second_factor_required","challenge":"ch-123","challengeExpiresAt":"2026-11-24T10:05:00.000Z"}"#

    @Test func aPasswordThatNeedsACodeThrowsTheChallengeAndStoresNothing() async throws {
        let store = MemoryCredentialsStore()
        let (client, _) = Fixture.client([.answer(401, Self.asked)], store: store)
        let expected = SecondFactorChallenge(token: "ch-123", expiresAt: Fixture.updatedAt,
                                             message: "Enter the code from your authenticator app (or a recovery code) to finish signing in.")
        await #expect(throws: FrontdoorClientError.secondFactorRequired(expected)) {
            try await client.signIn(email: "ann@example.com", password: "pw")
        }
        #expect(!client.isSignedIn)
        #expect(try store.keys().isEmpty)
    }

    @Test func completeSignInSendsTheChallengeAndTheCodeAndStoresTheAccount() async throws {
        let store = MemoryCredentialsStore()
        let (client, transport) = Fixture.client([.answer(401, Self.asked), .answer(201, Fixture.userJSON(token: "tok-2fa"))], store: store) {
            $0.extraParameters = [.completeSignIn: ["device": "phone", "code": "never this one"]]
        }
        var challenge: SecondFactorChallenge?
        do {
            try await client.signIn(email: "ann@example.com", password: "pw")
        } catch FrontdoorClientError.secondFactorRequired(let asked) {
            challenge = asked
        }
        let user = try await client.completeSignIn(try #require(challenge), code: " 123 456\n")
        #expect(user.authenticationToken == "tok-2fa")
        let sent = try #require(transport.sent.last)
        #expect(sent.method == "POST")
        #expect(sent.path == "/account/v1/users/sign_in/second_factor")
        #expect(sent.headers["X-User-Token"] == nil)
        #expect(sent.user == ["challenge": "ch-123", "code": "123 456", "device": "phone"])
        #expect(try store.defaultCredentials() == Credentials(username: "ann@example.com", secret: "tok-2fa", url: Fixture.server,
                                                              extra: ["id": "12"]))
    }

    @Test func aWrongCodeIsUnauthorizedAndAnExpiredChallengeSaysStartOver() async throws {
        let (client, _) = Fixture.client([
            .answer(401, #"{"error":"Invalid code."}"#),
            .answer(401, #"{"error":"This sign-in has expired or was already finished. Sign in again.","reason":"second_factor_expired"}"#),
        ])
        let challenge = SecondFactorChallenge(token: "ch-123")
        await #expect(throws: FrontdoorClientError.unauthorized(message: "Invalid code.")) {
            try await client.completeSignIn(challenge, code: "000000")
        }
        await #expect(throws: FrontdoorClientError.secondFactorExpired(message: "This sign-in has expired or was already finished. Sign in again.")) {
            try await client.completeSignIn(challenge, code: "000000")
        }
        #expect(!client.isSignedIn)
    }

    @Test func anEmptyCodeIsNotSent() async throws {
        let (client, transport) = Fixture.client([])
        for code in ["", "  \n"] {
            await #expect(throws: FrontdoorClientError.self) { try await client.completeSignIn(SecondFactorChallenge(token: "ch"), code: code) }
        }
        #expect(transport.sent.isEmpty)
    }

    @Test func aProviderTokenSignInAsksTheSameWay() async throws {
        let (client, _) = Fixture.client([.answer(401, Self.asked)])
        await #expect(throws: FrontdoorClientError.secondFactorRequired(SecondFactorChallenge(
            token: "ch-123", expiresAt: Fixture.updatedAt,
            message: "Enter the code from your authenticator app (or a recovery code) to finish signing in."))) {
            try await client.signIn(with: .google, token: "ya29.abc")
        }
        #expect(!client.isSignedIn)
    }

    @Test func a401WithoutAChallengeStaysAPlainRefusal() async throws {
        let (client, _) = Fixture.client([.answer(401, #"{"error":"Invalid email or password.","reason":"second_factor_required"}"#)])
        await #expect(throws: FrontdoorClientError.unauthorized(message: "Invalid email or password.")) {
            try await client.signIn(email: "ann@example.com", password: "pw")
        }
    }
}
