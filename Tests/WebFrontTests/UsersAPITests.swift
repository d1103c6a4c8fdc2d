// UsersAPITests.swift: the devise-ios users resource: register, sign in and out, update, delete; its error shapes.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct UsersAPITests {
    private func openApp() throws -> TestApp { try makeApp { $0.confirmation.required = false } }

    @Test func registeringAnswersTheUserWithATokenThatAuthenticates() throws {
        let app = try openApp()
        let api = APIClient(app.app)
        let answer = api.send("POST", "v1/users/", ["user": ["email": "ann@example.com", "password": "correct horse"]])
        #expect(answer.status == 201)
        #expect(answer.user["email"] as? String == "ann@example.com")
        #expect(answer.user["id"] as? Int == 1)
        let token = try #require(answer.user["authenticationToken"] as? String)
        #expect(token.count == 43)
        #expect((answer.user["createdAt"] as? String)?.hasSuffix(".000Z") == true)
        #expect(!answer.response.headers.contains { $0.name == "Set-Cookie" })
        var authed = APIClient(app.app)
        authed.email = "ANN@example.com"
        authed.token = token
        let updated = authed.send("PUT", "v1/users", ["user": ["displayName": "Ann"]])
        #expect(updated.status == 200)
        #expect(updated.user["authenticationToken"] as? String == token)
        #expect(try app.services.profile.values(of: 1).displayName == "Ann")
    }

    @Test func validationFailuresUseDevisesErrorObject() throws {
        let app = try openApp()
        let api = APIClient(app.app)
        for body in [[:], ["user": ["email": "nope", "password": "correct horse"]], ["user": ["email": "a@example.com"]]] as [[String: Any]] {
            let answer = api.send("POST", "v1/users", body)
            #expect(answer.status == 422)
            let error = try #require(answer.json["error"] as? [String: Any])
            #expect((error["message"] as? String)?.hasPrefix("Validation failed: ") == true)
            #expect(error["code"] as? Int == 0 && error["status"] as? Int == 422)
            #expect(error["errors"] is [String: [String]])
        }
        let mismatch = api.send("POST", "v1/users", ["user": ["email": "b@example.com", "password": "correct horse",
                                                              "passwordConfirmation": "other horse"]])
        #expect(mismatch.message == "Validation failed: Password confirmation doesn't match Password")
        #expect(try app.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } == 0)
    }

    @Test func withConfirmationRequiredNewAndTakenAddressesAnswerAlike() throws {
        let app = try makeApp()
        let api = APIClient(app.app)
        let first = api.send("POST", "v1/users", ["user": ["email": "cat@example.com", "password": "correct horse"]])
        let again = api.send("POST", "v1/users", ["user": ["email": "cat@example.com", "password": "other horse!"]])
        #expect(first.status == 201 && again.status == 201)
        #expect(first.response.body == again.response.body)
        #expect(first.json["confirmationSent"] as? Bool == true)
        #expect(first.user["authenticationToken"] is NSNull)
        var signIn = APIClient(app.app)
        #expect(signIn.signIn("cat@example.com", "correct horse").message == "You have to confirm your email address before signing in.")
    }

    @Test func signInFailuresAreOne401AndSignOutRevokesTheToken() throws {
        let app = try openApp()
        var api = APIClient(app.app)
        api.send("POST", "v1/users", ["user": ["email": "dan@example.com", "password": "correct horse"]])
        let wrong = api.send("POST", "v1/users/sign_in", ["user": ["email": "dan@example.com", "password": "wrong horse"]])
        let unknown = api.send("POST", "v1/users/sign_in", ["user": ["email": "nobody@example.com", "password": "wrong horse"]])
        #expect(wrong.status == 401 && unknown.status == 401)
        #expect(wrong.json["error"] as? String == "Invalid email or password.")
        #expect(wrong.response.body == unknown.response.body)
        let signedIn = api.signIn("dan@example.com", "correct horse")
        #expect(signedIn.status == 201)
        #expect(api.send("DELETE", "v1/users/sign_out").status == 200)
        let after = api.send("PUT", "v1/users", ["user": ["displayName": "Dan"]])
        #expect(after.status == 401)
        #expect(after.json["error"] as? String == "You need to sign in or sign up before continuing.")
    }

    @Test func aBrowserCookieIsNotAnAPITokenAndAnAPITokenIsNotACookie() throws {
        let app = try openApp()
        var api = APIClient(app.app)
        api.send("POST", "v1/users", ["user": ["email": "eve@example.com", "password": "correct horse"]])
        let token = try #require(api.signIn("eve@example.com", "correct horse").user["authenticationToken"] as? String)
        let browser = TestBrowser(app.app)
        browser.cookies["frontdoor_session"] = token
        #expect(browser.get("/account/settings").status == 302)
        #expect(browser.get("/account/auth/check").status == 401)
        let page = TestBrowser(app.app)
        page.post("/account/sign_in", ["email": "eve@example.com", "password": "correct horse"])
        let cookie = try #require(page.cookies["frontdoor_session"])
        #expect(api.send("PUT", "v1/users", headers: ["Cookie": "frontdoor_session=\(cookie)"]).status == 200)
        var withCookieOnly = APIClient(app.app)
        withCookieOnly.email = nil
        #expect(withCookieOnly.send("PUT", "v1/users", ["user": [:]], headers: ["Cookie": "frontdoor_session=\(cookie)"]).status == 401)
        // The token belongs with one of its account's addresses only.
        var wrongEmail = api
        wrongEmail.email = "someone@example.com"
        #expect(wrongEmail.send("PUT", "v1/users", ["user": [:]]).status == 401)
    }

    @Test func updatingTheEmailWaitsForItsConfirmation() throws {
        let app = try openApp()
        var api = APIClient(app.app)
        api.send("POST", "v1/users", ["user": ["email": "fay@example.com", "password": "correct horse"]])
        _ = api.signIn("fay@example.com", "correct horse")
        let answer = api.send("PUT", "v1/users", ["user": ["email": "fay@new.example"]])
        #expect(answer.status == 200)
        #expect(answer.user["email"] as? String == "fay@example.com")
        #expect(answer.user["unconfirmedEmail"] as? String == "fay@new.example")
        let link = try #require(try app.link(containing: "confirm?token="))
        #expect(TestBrowser(app.app).get(String(link[link.range(of: "/account/")!.lowerBound...])).status == 302)
        // The new address is primary now; the app's stored address still names the token's account.
        let after = api.send("PUT", "v1/users", ["user": [:]])
        #expect(after.status == 200 && after.user["email"] as? String == "fay@new.example" && after.user["unconfirmedEmail"] == nil)
        var renamed = api
        renamed.email = "fay@new.example"
        #expect(renamed.send("PUT", "v1/users", ["user": [:]]).status == 200)
    }

    /// A new address can receive reset links, so a token that signed in long ago (perhaps stolen) gives the password first.
    @Test func changingTheEmailNeedsARecentSignInOrThePassword() throws {
        let app = try openApp()
        var api = APIClient(app.app)
        api.send("POST", "v1/users", ["user": ["email": "hal@example.com", "password": "correct horse"]])
        _ = api.signIn("hal@example.com", "correct horse")
        app.clock.advance(by: 3600)
        let stale = api.send("PUT", "v1/users", ["user": ["email": "thief@example.net", "displayName": "Thief"]])
        #expect(stale.status == 401)
        #expect(stale.json["error"] as? String == "This needs a recent sign-in: sign in again, then retry.")
        let wrong = api.send("PUT", "v1/users", ["user": ["email": "thief@example.net", "currentPassword": "wrong horse"]])
        #expect(wrong.status == 422)
        let addresses = try app.services.database.read { tx in
            try tx.values(String.self, "SELECT address FROM emailAddress ORDER BY id")
        }
        #expect(addresses == ["hal@example.com"])
        #expect(try app.link(containing: "confirm?token=") == nil)
        #expect(api.send("PUT", "v1/users", ["user": [:]]).user["displayName"] as? String != "Thief")
        let given = api.send("PUT", "v1/users", ["user": ["email": "hal@new.example", "currentPassword": "correct horse"]])
        #expect(given.status == 200 && given.user["unconfirmedEmail"] as? String == "hal@new.example")
    }

    @Test func deletingNeedsARecentSignInOrThePassword() throws {
        let app = try openApp()
        var api = APIClient(app.app)
        api.send("POST", "v1/users", ["user": ["email": "gus@example.com", "password": "correct horse"]])
        _ = api.signIn("gus@example.com", "correct horse")
        app.clock.advance(by: 3600)
        let stale = api.send("DELETE", "v1/users")
        #expect(stale.status == 401)
        #expect(stale.json["error"] as? String == "This needs a recent sign-in: sign in again, then retry.")
        let wrong = api.send("DELETE", "v1/users", ["user": ["currentPassword": "wrong horse"]])
        #expect(wrong.status == 422)
        let deleted = api.send("DELETE", "v1/users", ["user": ["currentPassword": "correct horse"]])
        #expect(deleted.status == 200)
        #expect(deleted.user["email"] as? String == "gus@example.com")
        #expect(try app.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM account") } == 0)
    }

    @Test func malformedRequestsGetJSONErrors() throws {
        let app = try openApp()
        let api = APIClient(app.app)
        let form = api.send("POST", "v1/users", Array("email=a".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 415)
        #expect((form.json["error"] as? [String: Any])?["status"] as? Int == 415)
        #expect(api.send("POST", "v1/users", Array("{not json".utf8)).status == 400)
        #expect(api.send("POST", "v1/users", Array("[1]".utf8)).status == 400)
        let missing = api.send("GET", "v1/nothing")
        #expect(missing.status == 404 && missing.message == "There is nothing at this address.")
        let method = api.send("PATCH", "v1/users")
        #expect(method.status == 405 && method.response.headers.contains { $0.name == "Allow" })
    }

    @Test func theAPICanBeTurnedOff() throws {
        let app = try makeApp { $0.api.enabled = false }
        #expect(APIClient(app.app).send("POST", "v1/users", ["user": [:]]).status == 404)
    }

    // MARK: - Languages

    @Test func registeringKeepsTheAcceptLanguageAndUpdatingLeavesThePreference() throws {
        let app = try openApp()
        let answer = APIClient(app.app).send("POST", "v1/users", ["user": ["email": "ann@example.com", "password": "correct horse"]],
                                             headers: ["Accept-Language": "fr-FR, de;q=0.5"])
        var authed = APIClient(app.app)
        authed.email = "ann@example.com"
        authed.token = answer.user["authenticationToken"] as? String
        #expect(try app.services.profile.language(of: 1) == "fr")
        #expect(authed.send("PUT", "v1/users", ["user": ["displayName": "Ann"]], headers: ["Accept-Language": "de"]).status == 200)
        #expect(try app.services.profile.language(of: 1) == "fr", "the API has no language choice: the preference stays")
    }

    @Test func aPreferenceNoLongerOfferedDoesNotBlockAnUpdateThatDoesNotTouchIt() throws {
        // The operator dropped German from languages.available after Ann chose it; she changes only her name.
        let app = try makeApp { $0.confirmation.required = false; $0.languages.available = "en, fr" }
        var api = APIClient(app.app)
        api.send("POST", "v1/users/", ["user": ["email": "ann@example.com", "password": "correct horse"]])
        #expect(api.signIn("ann@example.com", "correct horse").status == 201)
        try app.services.database.write { tx in try tx.execute("UPDATE account SET language = 'de' WHERE id = 1") }
        let updated = api.send("PUT", "v1/users", ["user": ["displayName": "Ann"]])
        #expect(updated.status == 200, "\(updated.message ?? "")")
        #expect(try app.services.profile.values(of: 1).displayName == "Ann")
    }
}
