// PasswordAPITests.swift: the devise-ios password resource: change (recent sign-in or current password), reset by
// the mailed token, remind without telling which addresses have accounts.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct PasswordAPITests {
    private func signedIn(_ email: String) throws -> (TestApp, APIClient) {
        let app = try makeApp { $0.confirmation.required = false }
        var api = APIClient(app.app)
        api.send("POST", "v1/users", ["user": ["email": email, "password": "correct horse"]])
        _ = api.signIn(email, "correct horse")
        return (app, api)
    }

    @Test func aFreshTokenChangesThePasswordAndEndsTheOtherTokens() throws {
        let (app, api) = try signedIn("hal@example.com")
        var other = APIClient(app.app)
        _ = other.signIn("hal@example.com", "correct horse")
        let answer = api.send("PUT", "v1/users/password", ["user": ["password": "new horse battery", "passwordConfirmation": "new horse battery"]])
        #expect(answer.status == 200)
        #expect(answer.user["authenticationToken"] as? String == api.token)
        #expect(other.send("PUT", "v1/users", ["user": [:]]).status == 401)
        #expect(api.send("PUT", "v1/users", ["user": [:]]).status == 200)
        var again = APIClient(app.app)
        #expect(again.signIn("hal@example.com", "new horse battery").status == 201)
    }

    @Test func mismatchAndStaleTokensAreRefused() throws {
        let (app, api) = try signedIn("ida@example.com")
        let mismatch = api.send("PUT", "v1/users/password", ["user": ["password": "new horse battery", "passwordConfirmation": "other"]])
        #expect(mismatch.status == 422)
        #expect(mismatch.message == "Validation failed: Password confirmation doesn't match Password")
        app.clock.advance(by: 3600)
        let stale = api.send("PUT", "v1/users/password", ["user": ["password": "new horse battery", "passwordConfirmation": "new horse battery"]])
        #expect(stale.message == "Validation failed: Current password can't be blank")
        let withCurrent = api.send("PUT", "v1/users/password", ["user": ["password": "new horse battery", "passwordConfirmation": "new horse battery",
                                                                         "currentPassword": "correct horse"]])
        #expect(withCurrent.status == 200)
    }

    @Test func remindingAnswersTheSameForEveryAddressAndTheTokenResets() throws {
        let (app, _) = try signedIn("joe@example.com")
        // Reminders go to confirmed addresses only (with confirmation off, sign-up leaves the address unconfirmed).
        try app.services.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        let api = APIClient(app.app)
        let known = api.send("POST", "v1/users/password", ["user": ["email": "joe@example.com"]])
        let unknown = api.send("POST", "v1/users/password", ["user": ["email": "nobody@example.com"]])
        #expect(known.status == 201 && unknown.status == 201)
        #expect(known.response.body == Array("{}".utf8) && unknown.response.body == known.response.body)
        #expect(api.send("POST", "v1/users/password", ["user": ["email": "not an address"]]).status == 422)
        let link = try #require(try app.link(containing: "password/edit"))
        let token = String(link.split(separator: "=").last ?? "")
        let reset = api.send("PUT", "v1/users/password", ["user": ["resetPasswordToken": token, "password": "reset horse battery",
                                                                   "passwordConfirmation": "reset horse battery"]])
        #expect(reset.status == 200)
        #expect((reset.user["authenticationToken"] as? String)?.count == 43)
        let reused = api.send("PUT", "v1/users/password", ["user": ["resetPasswordToken": token, "password": "reset horse battery",
                                                                    "passwordConfirmation": "reset horse battery"]])
        #expect(reused.status == 422)
    }
}
