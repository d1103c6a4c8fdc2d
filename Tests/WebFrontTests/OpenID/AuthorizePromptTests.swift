// AuthorizePromptTests.swift: prompt=none|login|select_account, max_age, the client's allow rule by group, and the
// second factor a client, acr_values or the site demand.
import AccountCore
import Foundation
import Testing
@testable import WebFront

@Suite struct AuthorizePromptTests {
    typealias F = AuthorizeFixture

    private func signedUp(configure: (inout AppConfiguration) -> Void = { _ in }) throws -> (TestApp, TestBrowser) {
        let test = try makeOpenIDApp(configure: configure)
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_up", F.signUpForm).status == 303)
        return (test, browser)
    }

    @Test func promptNoneAnswersWithoutAPage() throws {
        let test = try makeOpenIDApp()
        let stranger = TestBrowser(test.app)
        #expect(stranger.get(authorizeURI(F.web, ["prompt": "none"])).locationQuery["error"] == "login_required")
        let (other, signedIn) = try signedUp()
        #expect(signedIn.get(authorizeURI(F.web, ["prompt": "none"])).locationQuery["error"] == "consent_required")
        #expect(signedIn.get(authorizeURI(F.strict, ["prompt": "none"])).locationQuery["error"] == "interaction_required")
        #expect(signedIn.get(authorizeURI(F.first, ["prompt": "none", "max_age": "60"])).locationQuery["code"] != nil)
        other.clock.advance(by: 120)
        #expect(signedIn.get(authorizeURI(F.first, ["prompt": "none", "max_age": "60"])).locationQuery["error"] == "login_required")
        #expect(signedIn.get(authorizeURI(F.first, ["prompt": "none"])).locationQuery["code"] != nil, "nothing to ask: a code")
    }

    @Test func promptNoneWithAnIDTokenHintNeedsItsSubjectSignedIn() throws {
        let (test, browser) = try signedUp()
        let keys = try #require(test.app.site.openID?.keys)
        let subject = try test.services.openID.subject(accountID: 1, client: F.first)
        let issuer = "http://127.0.0.1:8080/account"
        let own = try keys.sign(["iss": issuer, "aud": "first", "sub": subject, "exp": 1, "iat": 1])
        #expect(browser.get(authorizeURI(F.first, ["prompt": "none", "id_token_hint": own])).locationQuery["code"] != nil, "expired is fine")
        for other in [try keys.sign(["iss": issuer, "aud": ["first"], "sub": "someone-else"]), try keys.sign(["iss": issuer, "aud": "web", "sub": subject]),
                      try keys.sign(["iss": "https://elsewhere", "aud": "first", "sub": subject]), "not.a.token"] {
            #expect(browser.get(authorizeURI(F.first, ["prompt": "none", "id_token_hint": other])).locationQuery["error"] == "login_required")
        }
        #expect(browser.get(authorizeURI(F.first, ["id_token_hint": "not.a.token"])).locationQuery["code"] != nil, "without prompt=none: a hint only")
    }

    @Test func promptLoginAndMaxAgeGoThroughTheReauthenticationPageOnce() throws {
        let (test, browser) = try signedUp()
        for extra in [["prompt": "login"], ["max_age": "0"], ["max_age": "300"]] {
            test.clock.advance(by: 600)
            let first = browser.get(authorizeURI(F.first, extra))
            let location = try #require(first.header("Location"), "\(extra)")
            #expect(location.hasPrefix("/account/settings/reauthenticate?rd=%2Faccount%2Foidc%2Fauthorize%3F"), "\(extra)")
            #expect(browser.follow(location).text.contains("name=\"password\""))
            let rd = try #require(FormData.parse(String(location.split(separator: "?", maxSplits: 1)[1]))["rd"])
            test.clock.advance(by: 5)
            let reauthenticated = browser.post("/account/settings/reauthenticate", ["password": "correct horse", "rd": rd])
            #expect(reauthenticated.header("Location") == rd, "\(extra): back to authorize")
            test.clock.advance(by: 2)
            let back = browser.get(rd)
            let code = try #require(back.locationQuery["code"], "\(extra): no loop: \(back.header("Location") ?? "")")
            let issued = try test.services.openID.redeemCode(code, client: F.first, redirectURI: F.first.redirectURIs[0], codeVerifier: F.verifier)
            #expect(abs(issued.grant.authTime.timeIntervalSince(test.clock.now())) <= 3, "\(extra): auth_time is the re-authentication")
        }
        // Without prompt=login or a passed max_age, no page.
        #expect(browser.get(authorizeURI(F.first, ["max_age": "3600"])).locationQuery["code"] != nil)
    }

    @Test func promptLoginWithoutASessionIsASignInThatCounts() throws {
        let test = try makeOpenIDApp()
        let browser = TestBrowser(test.app)
        let start = try #require(browser.get(authorizeURI(F.first, ["prompt": "login"])).header("Location"))
        #expect(start.hasPrefix("/account/sign_in?rd="))
        let rd = try #require(FormData.parse(String(start.split(separator: "?", maxSplits: 1)[1]))["rd"])
        #expect(rd.contains("fd_login_after="))
        #expect(browser.post("/account/sign_up", F.signUpForm).status == 303)
        #expect(browser.get(rd).locationQuery["code"] != nil)
    }

    @Test func selectAccountOffersTheBrowsersAccountsAndAnother() throws {
        let (_, browser) = try signedUp()
        let start = try #require(browser.get(authorizeURI(F.first, ["prompt": "select_account"])).header("Location"))
        #expect(start.hasPrefix("/account/oidc/select_account?"))
        let page = browser.get(start)
        #expect(page.status == 200 && page.text.contains("Continue as ann@example.com") && page.text.contains("Use another account"))
        let next = try #require(page.text.firstMatch(of: /href="([^"]+)" data-account="current"/)).1.replacingOccurrences(of: "&amp;", with: "&")
        #expect(next.contains("fd_account_chosen=1"))
        #expect(browser.get(String(next)).locationQuery["code"] != nil)
        // A second account signed in here is offered too, through the switcher's form.
        let another = try #require(page.text.firstMatch(of: /href="([^"]*sign_in\?add=1[^"]*)"/)).1.replacingOccurrences(of: "&amp;", with: "&")
        #expect(browser.get(String(another)).status == 200)
        var bea = F.signUpForm
        bea["email"] = "bea@example.com"
        #expect(browser.post("/account/sign_up", bea).status == 303)
        let both = browser.get(start)
        #expect(both.text.contains("Continue as bea@example.com") && both.text.contains("Continue as ann@example.com"))
        #expect(both.text.contains("name=\"to\""))
    }

    @Test func theClientsAllowRuleAdmitsByGroup() throws {
        let (test, browser) = try signedUp()
        let refused = browser.get(authorizeURI(F.admins))
        #expect(refused.header("Location")?.hasPrefix("https://admin.example/cb?") == true && refused.locationQuery["error"] == "access_denied")
        let groups = test.services.groups
        _ = try groups.add(name: "admins", client: ClientInfo())
        let account = try #require(try test.services.database.read { tx in try tx.value(Int64.self, "SELECT id FROM account") })
        _ = try groups.change(accountId: account, adding: ["admins"], removing: [], client: ClientInfo())
        #expect(browser.get(authorizeURI(F.admins)).locationQuery["code"] != nil)
    }

    @Test func aSecondFactorIsDemandedByTheClientTheACRValuesOrTheSite() throws {
        for (client, extra, site) in [(F.strict, [String: String](), SecondFactorPolicy.Mode.optional),
                                      (F.first, ["acr_values": "urn:frontdoor:2fa"], .optional),
                                      (F.first, ["acr_values": "mfa"], .optional),
                                      (F.first, [:], .required)] {
            let (test, browser) = try signedUp { $0.secondFactor = site }
            let step = browser.get(authorizeURI(client, extra))
            let location = try #require(step.header("Location"))
            #expect(location.hasPrefix("/account/sign_in/second_factor?rd=%2Faccount%2Foidc%2Fauthorize%3F"), "\(client.id) \(extra) \(site)")
            #expect(browser.get(location).text.contains("settings/two_step"), "no second factor yet: set one up")
            try test.services.database.write { tx in try tx.execute("UPDATE session SET factors = 2") }
            let code = try #require(browser.get(authorizeURI(client, extra)).locationQuery["code"])
            let issued = try test.services.openID.redeemCode(code, client: client, redirectURI: client.redirectURIs[0], codeVerifier: F.verifier)
            #expect(issued.grant.factors == 2)
        }
        let (_, browser) = try signedUp()
        #expect(browser.get(authorizeURI(F.first, ["acr_values": "urn:frontdoor:1fa"])).locationQuery["code"] != nil, "1fa asks nothing more")
    }
}
