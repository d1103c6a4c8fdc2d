// DeviceFlowTests.swift: the device authorization grant (RFC 8628): `oidc/device_authorization`, the `device` page a
// signed-in person approves or denies on, and the device's polling of `oidc/token`.
@testable import AccountCore
import Foundation
import Testing
@testable import WebFront

struct DeviceFlowTests {
    /// The web app starting a device authorization; its JSON.
    func start(_ fixture: TokenFixture, scope: String? = "openid profile") throws -> [String: Any] {
        var form = [("client_id", "web"), ("client_secret", TokenFixture.secret)]
        if let scope { form.append(("scope", scope)) }
        let answer = fixture.post("oidc/device_authorization", form)
        #expect(answer.status == 200 && answer.notCached, "\(answer.json)")
        return answer.json
    }

    func poll(_ fixture: TokenFixture, _ deviceCode: String) -> TokenFixture.Answer {
        fixture.post("oidc/token", [("grant_type", TokenEndpoint.deviceGrant), ("device_code", deviceCode)],
                     headers: ["Authorization": TokenFixture.basic("web", TokenFixture.secret)])
    }

    @Test func aPersonApprovesOnTheDevicePageAndTheDeviceGetsTokens() throws {
        let fixture = try TokenFixture()
        let started = try start(fixture)
        let userCode = try #require(started["user_code"] as? String), deviceCode = try #require(started["device_code"] as? String)
        #expect(userCode.wholeMatch(of: /[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}/) != nil)
        #expect(started["verification_uri"] as? String == "https://login.example.com/account/device")
        #expect(started["verification_uri_complete"] as? String == "https://login.example.com/account/device?user_code=" + userCode)
        #expect(started["expires_in"] as? Int == 600 && started["interval"] as? Int == 5)
        let pending = poll(fixture, deviceCode)
        #expect(pending.status == 400 && pending.error == "authorization_pending" && pending.notCached)

        let typed = userCode.lowercased().replacingOccurrences(of: "-", with: " ")
        let page = fixture.browser.get("/account/device?user_code=" + FormData.encode(typed))
        #expect(page.status == 200 && page.text.contains("Web App") && page.text.contains(userCode), "typed any which way")
        #expect(page.text.contains("Your name and username") && !page.text.contains("Your email address"), "what it will see")
        fixture.test.clock.advance(by: 5)
        #expect(poll(fixture, deviceCode).error == "authorization_pending", "a GET approves nothing")
        let approved = fixture.browser.post("/account/device", ["user_code": userCode, "decision": "approve"])
        #expect(approved.status == 200 && approved.text.contains("Device connected"))
        fixture.test.clock.advance(by: 5)
        let tokens = poll(fixture, deviceCode)
        #expect(tokens.status == 200 && tokens["access_token"] is String && tokens["refresh_token"] is String, "\(tokens.json)")
        #expect(tokens["scope"] as? String == "openid profile")
        let claims = try fixture.claims(tokens["id_token"])
        #expect(claims["preferred_username"] as? String == "ann" && claims["aud"] as? String == "web")
        fixture.test.clock.advance(by: 5)
        #expect(poll(fixture, deviceCode).error == "invalid_grant", "tokens once")
    }

    @Test func pollingTooFastIsSlowDown() throws {
        let fixture = try TokenFixture()
        let deviceCode = try #require(try start(fixture)["device_code"] as? String)
        #expect(poll(fixture, deviceCode).error == "authorization_pending")
        #expect(poll(fixture, deviceCode).error == "slow_down")
    }

    @Test func aDeniedDeviceIsAccessDenied() throws {
        let fixture = try TokenFixture()
        let started = try start(fixture)
        let denied = fixture.browser.post("/account/device", ["user_code": try #require(started["user_code"] as? String), "decision": "deny"])
        #expect(denied.status == 200 && denied.text.contains("Request denied"))
        let answer = poll(fixture, try #require(started["device_code"] as? String))
        #expect(answer.status == 400 && answer.error == "access_denied")
    }

    @Test func anExpiredDeviceCodeIsExpiredToken() throws {
        let fixture = try TokenFixture()
        let started = try start(fixture)
        fixture.test.clock.advance(by: 601)
        #expect(poll(fixture, try #require(started["device_code"] as? String)).error == "expired_token")
        let page = fixture.browser.get("/account/device?user_code=" + (try #require(started["user_code"] as? String)))
        #expect(page.status == 404 && page.text.contains("not known"), "the page no longer knows the code")
    }

    @Test func theDeviceEndpointAuthenticatesTheClientAndChecksTheScope() throws {
        let fixture = try TokenFixture()
        let wrong = fixture.post("oidc/device_authorization", [("client_id", "web"), ("client_secret", "wrong")])
        #expect(wrong.status == 401 && wrong.error == "invalid_client")
        let beyond = fixture.post("oidc/device_authorization", [("client_id", "web"), ("client_secret", TokenFixture.secret),
                                                                ("scope", "openid offline_access")])
        #expect(beyond.status == 400 && beyond.error == "invalid_scope")
        let native = fixture.post("oidc/device_authorization", [("client_id", "native")])
        #expect(native.status == 200 && native["device_code"] is String, "a public client with its id alone")
        #expect(try start(fixture, scope: nil)["device_code"] is String, "no scope: the client's")
    }

    @Test func thePageNeedsASignedInPersonTheClientAdmits() throws {
        var ops = TokenFixture.web
        ops.allow = "group:ops"
        let fixture = try TokenFixture(clients: [ops])
        let userCode = try #require(try start(fixture)["user_code"] as? String)
        let anonymous = TestBrowser(fixture.test.app).get("/account/device?user_code=" + userCode)
        #expect(anonymous.status == 302)
        #expect(anonymous.header("Location") == "/account/sign_in?rd=" + FormData.encode("/account/device?user_code=" + userCode))
        let refused = fixture.browser.get("/account/device?user_code=" + userCode)
        #expect(refused.status == 403 && refused.text.contains("may not use Web App"))
        let posted = fixture.browser.post("/account/device", ["user_code": userCode, "decision": "approve"])
        #expect(posted.status == 403)
        #expect(fixture.browser.get("/account/device").status == 200, "the code form itself is open to the signed-in")
    }

    @Test func aClientAskingTwoFactorsSendsAOneFactorSessionThroughTheSecondStep() throws {
        var strict = TokenFixture.web
        strict.requiresSecondFactor = true
        let fixture = try TokenFixture(clients: [strict])
        let userCode = try #require(try start(fixture)["user_code"] as? String)
        let page = fixture.browser.get("/account/device?user_code=" + userCode)
        #expect(page.status == 302)
        #expect(page.header("Location") == "/account/sign_in/second_factor?rd=" + FormData.encode("/account/device?user_code=" + userCode))
        _ = try fixture.core.database.write { tx in try tx.execute("UPDATE session SET factors = 2") }
        #expect(fixture.browser.get("/account/device?user_code=" + userCode).status == 200)
    }

    @Test func anUnknownCodeShowsTheFormAgainAndTheCSRFTokenIsChecked() throws {
        let fixture = try TokenFixture()
        let unknown = fixture.browser.get("/account/device?user_code=BBBB-BBBB")
        #expect(unknown.status == 404 && unknown.text.contains("not known") && unknown.text.contains("BBBB-BBBB"))
        let userCode = try #require(try start(fixture)["user_code"] as? String)
        #expect(fixture.browser.post("/account/device", ["user_code": userCode, "decision": "approve"], csrf: false).status == 403)
    }

    @Test func codesAreReadWithoutCaseSpacesOrDashes() {
        #expect(DevicePage.normalized("bcdf ghjk") == "BCDF-GHJK")
        #expect(DevicePage.normalized("BCDF-GHJK") == "BCDF-GHJK" && DevicePage.normalized(" bcdfghjk ") == "BCDF-GHJK")
        #expect(DevicePage.normalized("bcd") == "BCD")
    }
}
