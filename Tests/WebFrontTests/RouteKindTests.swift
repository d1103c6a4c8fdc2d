// RouteKindTests.swift: every route says what it is, and the responder makes the CSRF check for it, so no form POST
// reaches its handler without this browser's token, whatever the page's own code does.
import AccountCore
import Encodings
import Foundation
import Testing
@testable import WebFront

@Suite struct RouteKindTests {
    /// A site with every route: the API on, BrowserID on, one social provider (github, a fake).
    private func fullApp() throws -> (TestApp, [String: Route]) {
        let test = try makeApp(browserID: true, http: FakeGitHub()) { configuration in
            configureFakeGitHub(&configuration)
            configuration.confirmation.required = false
        }
        return (test, Routes.table(core: test.services, providers: ["github"], api: true))
    }

    /// Rows of the tables a form can change, to see that refused posts changed nothing.
    private func snapshot(_ test: TestApp) throws -> [Int] {
        try ["account", "emailAddress", "session", "accountToken", "audit", "mailQueue", "socialFlow", "socialIdentity",
             "profileValue", "residence"].map { table in
            try test.services.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM \(table)") ?? 0 }
        }
    }

    @Test func onlyTheJSONAPIGoesUncheckedAndOnlyFormsTakeAnythingButGET() throws {
        let (_, table) = try fullApp()
        for (path, route) in table {
            switch route.kind {
            case .api:
                #expect(path.hasPrefix("v1/") || path == "verify", "\(path) is a browser's: it cannot be API")
            case .page, .gate, .internal:
                #expect(Set(route.methods.keys) == ["GET"], "\(path) is \(route.kind): GET only")
            case .form, .sessionForm:
                #expect(route.methods.keys.contains { $0 != "GET" }, "\(path) posts nothing: not a form")
            case .admin:
                #expect(path == "admin" || path.hasPrefix("admin/"), "\(path) is an admin page: under admin/")
            case .crossSite:
                #expect(Set(route.methods.keys) == ["GET", "POST"], "\(path) is cross-site: GET and POST alike")
                #expect(["oidc/authorize", "oidc/logout"].contains(path), "\(path): only OpenID Connect's browser endpoints skip the token")
            }
        }
        #expect(table.filter { $0.key == "admin" || $0.key.hasPrefix("admin/") }.allSatisfy { $0.value.kind == .admin },
                "every route under admin/ is of kind admin")
        #expect(Routes.rootTable().values.allSatisfy { $0.kind == .page && Set($0.methods.keys) == ["GET"] })
        // The two that answer a signed-out request themselves (tested below to change nothing then).
        #expect(Set(table.filter { $0.value.kind == .sessionForm }.keys) == ["sign_out", "browserid/certify"])
    }

    @Test func everyFormPostWithoutThisBrowsersTokenIsRefusedBeforeItsHandler() throws {
        let (test, table) = try fullApp()
        let owner = TestBrowser(test.app)
        #expect(owner.post("/account/sign_up", ["email": "ann@example.com", "password": "correct horse",
                                                "password_confirmation": "correct horse"]).status == 303)
        let before = try snapshot(test)
        // The attacker's pre-session pair, fetched from a signed-out page of the real site.
        let attacker = TestBrowser(test.app)
        let pairToken = attacker.csrfToken(for: "/account/sign_in")
        let pairCookie = try #require(attacker.cookies["frontdoor_csrf"])
        var checked = 0
        for (path, route) in table.sorted(by: { $0.key < $1.key }) where [.form, .sessionForm, .admin].contains(route.kind) {
            for method in route.methods.keys where method != "GET" {
                let uri = "/account/" + path
                if route.kind != .sessionForm {
                    let stranger = TestBrowser(test.app)
                    #expect(stranger.post(uri, ["email": "x@example.com"], csrf: false).status == 403, "\(method) \(path) signed out, no token")
                    #expect(stranger.post(uri, ["csrf_token": "forged"]).status == 403, "\(method) \(path) signed out, forged")
                }
                #expect(owner.post(uri, ["email": "x@example.com"], csrf: false).status == 403, "\(method) \(path) signed in, no token")
                let tossed = TestBrowser(test.app)
                tossed.cookies = owner.cookies
                tossed.cookies["frontdoor_csrf"] = pairCookie
                #expect(tossed.post(uri, ["csrf_token": pairToken]).status == 403, "\(method) \(path) signed in, a planted pair")
                checked += 1
            }
        }
        #expect(checked >= 26 + 15, "24 forms, the 2 session forms and 15 admin forms today")
        #expect(try snapshot(test) == before, "nothing changed")
        #expect(owner.get("/account/").text.contains("ann@example.com"), "still signed in")
    }

    @Test func theOpenIDProvidersFormsAreCheckedAndOnlyItsBrowserEndpointsAreCrossSite() throws {
        let test = try makeOpenIDApp()
        let table = Routes.table(core: test.services, openID: true)
        #expect(table["oidc/authorize"]?.kind == .crossSite)
        #expect(Set(table.filter { $0.value.kind == .crossSite }.keys).isSubset(of: ["oidc/authorize", "oidc/logout"]))
        let owner = TestBrowser(test.app)
        #expect(owner.post("/account/sign_up", AuthorizeFixture.signUpForm).status == 303)
        var checked = 0
        for (path, route) in table.sorted(by: { $0.key < $1.key }) where route.kind == .form && (path.hasPrefix("oidc/") || path == "device" || path.hasPrefix("settings/apps")) {
            for method in route.methods.keys where method != "GET" {
                #expect(owner.post("/account/" + path, ["client_id": "web", "decision": "allow"], csrf: false).status == 403, "\(method) \(path)")
                checked += 1
            }
        }
        #expect(checked >= 3, "consent, apps revoke, device (and logout confirm once merged)")
    }

    @Test func theSessionFormsSignedOutAnswerWithoutAToken() throws {
        // Without a session there is nothing to end or certify: the answer says so instead of a CSRF refusal.
        let (test, _) = try fullApp()
        let signedOut = TestBrowser(test.app)
        let out = signedOut.post("/account/sign_out", [:], csrf: false)
        #expect(out.status == 303 && out.header("Location") == "/account/sign_in")
        #expect(signedOut.post("/account/browserid/certify", ["email": "ann@example.com", "pubkey": "{}"], csrf: false).status == 401)
    }
}
