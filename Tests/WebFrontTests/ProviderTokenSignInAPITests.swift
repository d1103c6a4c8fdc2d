// ProviderTokenSignInAPITests.swift: POST v1/users/auth/{google,facebook} with a token from the provider's SDK: checked
// with the provider (a fake Google tokeninfo here), then signed in or up with an API token; every refusal a 422.
import AccountCore
import Foundation
import Locking
import OAuthClient
import Testing
@testable import WebFront

/// Google's tokeninfo at https://google.test/tokeninfo: knows the access tokens in `tokens` (token → answer).
final class FakeGoogle: HTTPClient, @unchecked Sendable {
    private let lock = Lock()
    private var known: [String: [String: Any]] = [:]
    private var asked = 0

    func add(_ token: String, sub: String, email: String?, verified: Bool = true, aud: String = "web-client") {
        var answer: [String: Any] = ["aud": aud, "azp": aud, "sub": sub, "expires_in": "3599", "exp": "4102444800"]
        if let email { answer["email"] = email; answer["email_verified"] = verified ? "true" : "false" }
        lock.withLock { known[token] = answer }
    }

    var calls: Int { lock.withLock { asked } }

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        lock.withLock { asked += 1 }
        guard request.url.hasPrefix("https://google.test/tokeninfo?"), let query = URLComponents(string: request.url)?.queryItems,
              let token = query.first(where: { $0.name == "access_token" })?.value,
              let answer = lock.withLock({ known[token] }) else {
            return HTTPResponse(status: 400, contentType: "application/json", body: Array(#"{"error_description":"Invalid Value"}"#.utf8))
        }
        return HTTPResponse(status: 200, contentType: "application/json", body: Array(try JSONSerialization.data(withJSONObject: answer)))
    }
}

@Suite struct ProviderTokenSignInAPITests {
    private func app(_ google: FakeGoogle, configure: (inout AppConfiguration) -> Void = { _ in }) throws -> TestApp {
        try makeApp(http: google) { configuration in
            var provider = ProviderConfiguration(id: "google", kind: .google, clientID: "web-client", clientSecret: "s")
            provider.tokenInfoEndpoint = "https://google.test/tokeninfo"
            provider.userInfoEndpoint = "https://google.test/userinfo"
            configuration.social.providers = [provider]
            configuration.confirmation.required = false
            configure(&configuration)
        }
    }

    private func body(_ token: String, uid: String = "") -> [String: Any] {
        ["user": ["provider": "google", "oauth_token": token, "uid": uid, "email": "ignored@example.com"]]
    }

    @Test func aCheckedTokenSignsUpThenInToTheSameAccount() throws {
        let google = FakeGoogle()
        google.add("ya29.first", sub: "g-1", email: "nia@example.com")
        google.add("ya29.second", sub: "g-1", email: "nia@example.com")
        let app = try app(google)
        let api = APIClient(app.app)
        let first = api.send("POST", "v1/users/auth/google", body("ya29.first", uid: "g-1"))
        #expect(first.status == 201)
        #expect(first.user["email"] as? String == "nia@example.com")
        #expect((first.user["authenticationToken"] as? String)?.count == 43)
        let second = api.send("POST", "v1/users/auth/google", body("ya29.second"))
        #expect(second.status == 201 && second.user["id"] as? Int == first.user["id"] as? Int)
        #expect(google.calls >= 2)
    }

    @Test func anAccountWithCodesGetsTheSecondStepAfterTheProvidersToken() throws {
        let google = FakeGoogle()
        google.add("ya29.first", sub: "g-9", email: "uma@example.com")
        google.add("ya29.again", sub: "g-9", email: "uma@example.com")
        let app = try app(google)
        let api = APIClient(app.app)
        let first = api.send("POST", "v1/users/auth/google", body("ya29.first"))
        let token = try #require(first.user["authenticationToken"] as? String)
        let digest = try #require(SecretToken(encoded: token)).digest
        // Codes need a recent sign-in, which an app's provider token never is: as if the person had re-authenticated.
        try app.services.database.write { tx in try tx.execute("UPDATE session SET authenticatedAt = ? WHERE digest = ?",
                                                               [app.clock.now().timeIntervalSince1970, digest]) }
        let enrolment = try app.services.oneTimeCodes.begin(session: digest)
        _ = try app.services.oneTimeCodes.confirm(session: digest, code: TOTP.code(secret: enrolment.secret, step: TOTP.step(at: app.clock.now())),
                                                  client: ClientInfo())

        let asked = api.send("POST", "v1/users/auth/google", body("ya29.again"))
        #expect(asked.status == 401)
        #expect(asked.json["reason"] as? String == "second_factor_required")
        #expect(asked.json["challengeExpiresAt"] is String)
        let challenge = try #require(asked.json["challenge"] as? String)
        app.clock.advance(by: 30)
        let code = TOTP.code(secret: enrolment.secret, step: TOTP.step(at: app.clock.now()))
        let done = api.send("POST", "v1/users/sign_in/second_factor", ["user": ["challenge": challenge, "code": code]])
        #expect(done.status == 201 && done.user["email"] as? String == "uma@example.com")
    }

    @Test func tokensTheProviderDoesNotVouchForAreRefused() throws {
        let google = FakeGoogle()
        google.add("ya29.other-app", sub: "g-2", email: "oli@example.com", aud: "someone-elses-client")
        google.add("ya29.mine", sub: "g-2", email: "oli@example.com")
        google.add("ya29.noemail", sub: "g-3", email: nil)
        let app = try app(google)
        let api = APIClient(app.app)
        for (token, uid) in [("ya29.forged", ""), ("ya29.other-app", ""), ("ya29.mine", "g-999"), ("", "")] {
            let answer = api.send("POST", "v1/users/auth/google", body(token, uid: uid))
            #expect(answer.status == 422)
            #expect(answer.message == "The Google token could not be verified.")
        }
        let noEmail = api.send("POST", "v1/users/auth/google", body("ya29.noemail"))
        #expect(noEmail.status == 422 && noEmail.message?.contains("did not give a verified email address") == true)
        #expect(try app.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } == 0)
    }

    @Test func anAddressWithAnAccountIsNeverLinkedSilently() throws {
        let google = FakeGoogle()
        google.add("ya29.pat", sub: "g-4", email: "pat@example.com")
        let app = try app(google)
        let api = APIClient(app.app)
        api.send("POST", "v1/users", ["user": ["email": "pat@example.com", "password": "correct horse"]])
        let answer = api.send("POST", "v1/users/auth/google", body("ya29.pat"))
        #expect(answer.status == 422 && answer.message?.hasPrefix("This address already has an account.") == true)
    }

    @Test func anUnconfiguredProviderIs422() throws {
        let app = try app(FakeGoogle())
        let answer = APIClient(app.app).send("POST", "v1/users/auth/facebook", ["user": ["provider": "facebook", "oauth_token": "x"]])
        #expect(answer.status == 422 && answer.message == "Sign-in with Facebook is not set up on this server.")
    }
}
