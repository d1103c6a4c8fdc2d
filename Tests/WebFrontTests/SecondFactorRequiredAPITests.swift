// SecondFactorRequiredAPITests.swift: `second_factor: required` on the JSON API. A sign-in of an account without a
// second factor answers 403 second_factor_enrolment_required and leaves no token behind; a one-factor token made
// before the policy does nothing (403); an account with codes signs in through the second step and its two-factor
// token works.
@testable import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct SecondFactorRequiredAPITests {
    static let password = "correct horse"

    private func apiSessions(_ app: TestApp) throws -> Int {
        try app.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM session WHERE kind = 'api'") ?? 0 }
    }

    private func requiredApp() throws -> TestApp {
        try makeApp { $0.confirmation.required = false; $0.secondFactor = .required }
    }

    private func expectEnrolmentRequired(_ answer: APIClient.Answer, _ comment: Comment) {
        #expect(answer.status == 403, comment)
        #expect(answer.json["reason"] as? String == "second_factor_enrolment_required", comment)
        #expect((answer.json["error"] as? [String: Any])?["message"] as? String
                == "Two-step sign-in is required here: set it up in your account settings on the web, then sign in again.", comment)
    }

    @Test func aSignInWithoutASecondFactorIsRefusedAndLeavesNoToken() throws {
        let app = try requiredApp()
        let api = APIClient(app.app)
        expectEnrolmentRequired(api.send("POST", "v1/users", ["user": ["email": "ann@example.com", "password": Self.password]]), "sign-up")
        expectEnrolmentRequired(api.send("POST", "v1/users/sign_in", ["user": ["email": "ann@example.com", "password": Self.password]]),
                                "sign-in")
        #expect(try apiSessions(app) == 0)
    }

    /// An account made over the API (answered 403 under the policy, but made) and its id.
    private func account(_ app: TestApp) throws -> Int64 {
        APIClient(app.app).send("POST", "v1/users", ["user": ["email": "ann@example.com", "password": Self.password]])
        return try #require(try app.services.database.read { tx in try tx.value(Int64.self, "SELECT id FROM account") })
    }

    @Test func aOneFactorTokenDoesNothing() throws {
        let app = try requiredApp()
        let account = try account(app)
        let grant = try app.services.database.write { tx in
            try app.services.sessions.create(in: tx, accountId: account, email: "ann@example.com", rememberMe: true, client: ClientInfo(),
                                             kind: .api)
        }
        var api = APIClient(app.app)
        api.email = "ann@example.com"
        api.token = grant.token.encoded
        expectEnrolmentRequired(api.send("PUT", "v1/users", ["user": [:]]), "a token of one factor")
    }

    @Test func anAccountWithCodesSignsInThroughTheSecondStep() throws {
        let app = try requiredApp()
        let account = try account(app)
        let session = try app.services.database.write { tx in
            try app.services.sessions.create(in: tx, accountId: account, email: "ann@example.com", rememberMe: false, client: ClientInfo())
        }
        let enrolment = try app.services.oneTimeCodes.begin(session: session.session.digest)
        _ = try app.services.oneTimeCodes.confirm(session: session.session.digest, code: SecondFactorAPITests.code(enrolment.secret, app),
                                                   client: ClientInfo())
        let api = APIClient(app.app)
        let first = api.send("POST", "v1/users/sign_in", ["user": ["email": "ann@example.com", "password": Self.password]])
        #expect(first.status == 401 && first.json["reason"] as? String == "second_factor_required")
        let challenge = try #require(first.json["challenge"] as? String)
        app.clock.advance(by: 30)
        let answer = api.send("POST", "v1/users/sign_in/second_factor",
                              ["user": ["challenge": challenge, "code": SecondFactorAPITests.code(enrolment.secret, app)]])
        #expect(answer.status == 201)
        var authed = APIClient(app.app)
        authed.email = "ann@example.com"
        authed.token = try #require(answer.user["authenticationToken"] as? String)
        #expect(authed.send("PUT", "v1/users", ["user": [:]]).status == 200)
    }
}
