// SecondFactorAPITests.swift: the JSON API's second step: a right password of an account with one-time codes answers
// 401 second_factor_required with a challenge and no token; POST v1/users/sign_in/second_factor with a right code
// issues the token (two factors); a wrong code is the one 401; a used, expired or browser challenge says start over.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct SecondFactorAPITests {
    static let password = "correct horse"

    /// An app with confirmation off and an account `email` with one-time codes on; returns the app and the secret.
    private func enrolled(_ email: String = "ann@example.com", configure: (inout AppConfiguration) -> Void = { _ in }) throws
        -> (TestApp, [UInt8]) {
        let app = try makeApp { $0.confirmation.required = false; configure(&$0) }
        let api = APIClient(app.app)
        let registered = api.send("POST", "v1/users", ["user": ["email": email, "password": Self.password]])
        let token = try #require(registered.user["authenticationToken"] as? String)
        let digest = try #require(SecretToken(encoded: token)).digest
        let enrolment = try app.services.oneTimeCodes.begin(session: digest)
        _ = try app.services.oneTimeCodes.confirm(session: digest, code: Self.code(enrolment.secret, app), client: ClientInfo())
        return (app, enrolment.secret)
    }

    /// The current code of `secret` at the app's clock (`steps` later or earlier).
    static func code(_ secret: [UInt8], _ app: TestApp, steps: Int64 = 0) -> String {
        TOTP.code(secret: secret, step: TOTP.step(at: app.clock.now()) + steps)
    }

    private func apiSessions(_ app: TestApp) throws -> Int {
        try app.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM session WHERE kind = 'api'") ?? 0 }
    }

    /// The stored factors of the session of `token` (read from the row: the API's token lookup does not carry them).
    private func factors(_ app: TestApp, _ token: String) throws -> Int? {
        let digest = try #require(SecretToken(encoded: token)).digest
        return try app.services.database.read { tx in try tx.value(Int.self, "SELECT factors FROM session WHERE digest = ?", [digest]) }
    }

    private func challenge(_ app: TestApp, email: String = "ann@example.com") throws -> String {
        let answer = APIClient(app.app).send("POST", "v1/users/sign_in", ["user": ["email": email, "password": Self.password]])
        #expect(answer.status == 401)
        return try #require(answer.json["challenge"] as? String)
    }

    @Test func aRightPasswordAnswersTheChallengeAndNoToken() throws {
        let (app, _) = try enrolled()
        let before = try apiSessions(app)
        let answer = APIClient(app.app).send("POST", "v1/users/sign_in", ["user": ["email": "ann@example.com", "password": Self.password]])
        #expect(answer.status == 401)
        #expect(Set(answer.json.keys) == ["error", "reason", "challenge", "challengeExpiresAt"])
        #expect(answer.json["reason"] as? String == "second_factor_required")
        #expect(answer.message == "Enter the code from your authenticator app (or a recovery code) to finish signing in.")
        #expect((answer.json["challenge"] as? String)?.count == 43)
        let expires = try #require(answer.json["challengeExpiresAt"] as? String)
        #expect(expires.hasSuffix("Z") && expires > APIContext.timestamp(app.clock.now()))
        #expect(try apiSessions(app) == before, "no token before the code")
        #expect(!answer.response.headers.contains { $0.name == "Set-Cookie" })
    }

    @Test func aWrongPasswordIsStillTheOneFailureWithoutAChallenge() throws {
        let (app, _) = try enrolled()
        let answer = APIClient(app.app).send("POST", "v1/users/sign_in", ["user": ["email": "ann@example.com", "password": "wrong horse"]])
        #expect(answer.status == 401)
        #expect(Set(answer.json.keys) == ["error"])
        #expect(answer.message == "Invalid email or password.")
    }

    @Test func theRightCodeIssuesATwoFactorTokenThatAuthenticates() throws {
        let (app, secret) = try enrolled()
        let challenge = try challenge(app)
        app.clock.advance(by: 30)
        let answer = APIClient(app.app).send("POST", "v1/users/sign_in/second_factor",
                                             ["user": ["challenge": challenge, "code": Self.code(secret, app)]])
        #expect(answer.status == 201)
        #expect(answer.user["email"] as? String == "ann@example.com")
        let token = try #require(answer.user["authenticationToken"] as? String)
        var authed = APIClient(app.app)
        authed.email = "ann@example.com"
        authed.token = token
        #expect(authed.send("PUT", "v1/users", ["user": [:]]).status == 200)
        #expect(try factors(app, token) == 2)
    }

    @Test func aWrongCodeIsOne401AndTheChallengeMayBeTriedAgain() throws {
        let (app, secret) = try enrolled()
        let challenge = try challenge(app)
        app.clock.advance(by: 30)
        let wrong = String(Self.code(secret, app).reversed()) == Self.code(secret, app) ? "000000" : String(Self.code(secret, app).reversed())
        let api = APIClient(app.app)
        for code in [wrong, "", "not a code"] {
            let answer = api.send("POST", "v1/users/sign_in/second_factor", ["user": ["challenge": challenge, "code": code]])
            #expect(answer.status == 401)
            #expect(Set(answer.json.keys) == ["error"])
            #expect(answer.message == "Invalid code.")
        }
        let right = api.send("POST", "v1/users/sign_in/second_factor", ["user": ["challenge": challenge, "code": Self.code(secret, app)]])
        #expect(right.status == 201)
    }

    @Test func aUsedUnknownOrExpiredChallengeSaysStartOver() throws {
        let (app, secret) = try enrolled()
        let api = APIClient(app.app)
        let used = try challenge(app)
        app.clock.advance(by: 30)
        #expect(api.send("POST", "v1/users/sign_in/second_factor", ["user": ["challenge": used, "code": Self.code(secret, app)]]).status == 201)
        let expired = try challenge(app)
        app.clock.advance(by: 3600)
        for challenge in [used, expired, "", String(repeating: "A", count: 43)] {
            let answer = api.send("POST", "v1/users/sign_in/second_factor", ["user": ["challenge": challenge, "code": Self.code(secret, app)]])
            #expect(answer.status == 401)
            #expect(answer.json["reason"] as? String == "second_factor_expired")
            #expect(answer.message == "This sign-in has expired or was already finished. Sign in again.")
        }
    }

    @Test func anAccountWithoutASecondFactorSignsInAsBefore() throws {
        let (app, _) = try enrolled()
        let api = APIClient(app.app)
        #expect(api.send("POST", "v1/users", ["user": ["email": "bob@example.com", "password": Self.password]]).status == 201)
        let answer = api.send("POST", "v1/users/sign_in", ["user": ["email": "bob@example.com", "password": Self.password]])
        #expect(answer.status == 201)
        let token = try #require(answer.user["authenticationToken"] as? String)
        #expect(try factors(app, token) == 1)
    }

    @Test func anApprovedResidenceOfAnAccountWithCodesAnswersTheChallengeNotAToken() throws {
        let (app, secret) = try enrolled()
        let api = APIClient(app.app)
        let created = api.send("POST", "v1/residences", ["email": "ann@example.com"])
        let id = try #require(created.json["id"] as? String), key = try #require(created.json["secret"] as? String)
        let link = try #require(try app.link(containing: "residences/confirm"))
        let path = String(link[link.range(of: "/account/")!.lowerBound...])
        let browser = TestBrowser(app.app)
        let csrf = browser.get(path).text.firstMatch(of: /name="csrf_token" value="([^"]+)"/).map { String($0.1) } ?? ""
        let allowed = browser.post("/account/residences/confirm", ["token": String(path.split(separator: "=").last ?? ""), "csrf_token": csrf])
        #expect(allowed.status == 200)
        let tokens = try apiSessions(app)

        let collected = api.send("POST", "v1/residences/\(id)/verify", ["secret": key])
        #expect(collected.status == 401)
        #expect(collected.json["reason"] as? String == "second_factor_required")
        let challenge = try #require(collected.json["challenge"] as? String)
        #expect(try apiSessions(app) == tokens, "the mailed link alone issues no token")
        #expect(api.send("POST", "v1/residences/\(id)/verify", ["secret": key]).status == 404, "used up")
        app.clock.advance(by: 30)
        let signedIn = api.send("POST", "v1/users/sign_in/second_factor", ["user": ["challenge": challenge, "code": Self.code(secret, app)]])
        #expect(signedIn.status == 201)
        #expect(try factors(app, try #require(signedIn.user["authenticationToken"] as? String)) == 2)
    }

    @Test func aPasswordResetByTheAPIAsksTheCodeBeforeAnyToken() throws {
        let (app, secret) = try enrolled()
        // Reminders go to confirmed addresses only (with confirmation off, sign-up leaves the address unconfirmed).
        try app.services.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        let api = APIClient(app.app)
        #expect(api.send("POST", "v1/users/password", ["user": ["email": "ann@example.com"]]).status == 201)
        let link = try #require(try app.link(containing: "password/edit"))
        let reset = api.send("PUT", "v1/users/password", ["user": ["resetPasswordToken": String(link.split(separator: "=").last ?? ""),
                                                                   "password": "reset horse battery", "passwordConfirmation": "reset horse battery"]])
        #expect(reset.status == 401)
        #expect(reset.json["reason"] as? String == "second_factor_required")
        // The reset ended the registration's token, and the mailed link alone issues none.
        #expect(try apiSessions(app) == 0)
        let challenge = try #require(reset.json["challenge"] as? String)
        app.clock.advance(by: 30)
        let signedIn = api.send("POST", "v1/users/sign_in/second_factor", ["user": ["challenge": challenge, "code": Self.code(secret, app)]])
        #expect(signedIn.status == 201)
        #expect(try factors(app, try #require(signedIn.user["authenticationToken"] as? String)) == 2)
    }
}
