// ResidencesAPITests.swift: email residences end to end in-process: register, the mailed link's page (a GET approves
// nothing), approve, collect once, and the token on the users resource.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct ResidencesAPITests {
    /// Presses "Allow this device" on the approval page at `path` (its form's CSRF token and the link's token).
    @discardableResult
    private func allow(_ browser: TestBrowser, _ path: String) -> Response {
        let page = browser.get(path)
        let csrf = page.text.firstMatch(of: /name="csrf_token" value="([^"]+)"/).map { String($0.1) } ?? ""
        return browser.post("/account/residences/confirm", ["token": String(path.split(separator: "=").last ?? ""), "csrf_token": csrf])
    }

    /// The approval page's link from the newest residence mail, as a path under the site.
    private func approvalPath(_ app: TestApp) throws -> String {
        let link = try #require(try app.link(containing: "residences/confirm"))
        return String(link[link.range(of: "/account/")!.lowerBound...])
    }

    @Test func aResidenceIsPendingUntilItsLinkIsApprovedThenCollectedOnce() throws {
        let app = try makeApp()
        let api = APIClient(app.app)
        let created = api.send("POST", "v1/residences", ["email": "Kim@Example.com"])
        #expect(created.status == 201)
        #expect(created.json["state"] as? String == "pending")
        let id = try #require(created.json["id"] as? String), secret = try #require(created.json["secret"] as? String)
        let pending = api.send("POST", "v1/residences/\(id)/verify", ["secret": secret])
        #expect(pending.status == 409)
        #expect(pending.json.count == 1 && pending.json["state"] as? String == "pending")

        let browser = TestBrowser(app.app)
        let path = try approvalPath(app)
        let page = browser.get(path)
        #expect(page.status == 200)
        #expect(page.text.contains("Kim@Example.com") && page.text.contains("ExampleApp/1.0"))
        #expect(api.send("POST", "v1/residences/\(id)/verify", ["secret": secret]).status == 409)   // the GET approved nothing
        let approved = allow(browser, path)
        #expect(approved.status == 200 && approved.text.contains("Device allowed"))

        #expect(api.send("POST", "v1/residences/\(id)/verify", ["secret": String(secret.reversed())]).status == 404)
        let verified = api.send("POST", "v1/residences/\(id)/verify", ["secret": secret])
        #expect(verified.status == 200)
        #expect(verified.json["state"] as? String == "verified" && verified.json["email"] as? String == "Kim@Example.com")
        var authed = APIClient(app.app)
        authed.email = "kim@example.com"
        authed.token = try #require(verified.json["token"] as? String)
        #expect(authed.send("PUT", "v1/users", ["user": ["displayName": "Kim"]]).status == 200)
        #expect(api.send("POST", "v1/residences/\(id)/verify", ["secret": secret]).status == 404)
    }

    @Test func badInputAndRepeatsGetTheirAnswers() throws {
        let app = try makeApp()
        let api = APIClient(app.app)
        let invalid = api.send("POST", "v1/residences", ["residence": ["email": "not an address"]])
        #expect(invalid.status == 422)
        #expect(api.send("POST", "v1/residences", ["email": "lee@example.com"]).status == 201)
        let again = api.send("POST", "v1/residences", ["email": "LEE@example.com"])
        #expect(again.status == 429)
        #expect(again.response.headers.contains { $0.name == "Retry-After" })
        #expect(api.send("POST", "v1/residences/unknown/verify", ["secret": "x"]).status == 404)
        #expect(TestBrowser(app.app).get("/account/residences/confirm?token=nope").status == 404)
    }

    @Test func withSignUpClosedAnUnknownAddressIsRefused() throws {
        let app = try makeApp { $0.signUp = .closed }
        let api = APIClient(app.app)
        let created = api.send("POST", "v1/residences", ["email": "max@example.com"])
        let id = try #require(created.json["id"] as? String), secret = try #require(created.json["secret"] as? String)
        let browser = TestBrowser(app.app)
        let path = try approvalPath(app)
        let refused = allow(browser, path)
        #expect(refused.status == 403)
        let collected = api.send("POST", "v1/residences/\(id)/verify", ["secret": secret])
        #expect(collected.status == 403 && collected.json["state"] as? String == "refused")
    }
}
