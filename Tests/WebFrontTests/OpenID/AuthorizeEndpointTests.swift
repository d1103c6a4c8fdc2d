// AuthorizeEndpointTests.swift: oidc/authorize's refusals (an error page until the client and redirect URI are known
// good, then errors to the client), PKCE rules, the whole way through sign-in and consent to a code, and POST alike GET.
import AccountCore
import Crypto
import Foundation
import Testing
@testable import WebFront

@Suite struct AuthorizeEndpointTests {
    typealias F = AuthorizeFixture

    @Test func anUnknownClientOrUnregisteredRedirectIsAPageNeverARedirect() throws {
        let test = try makeOpenIDApp()
        let browser = TestBrowser(test.app)
        let cases = [
            "/account/oidc/authorize?response_type=code&scope=openid",
            authorizeURI(F.web, ["client_id": "nobody"]),
            authorizeURI(F.web, ["redirect_uri": "https://evil.example/cb"]),
            authorizeURI(F.web, ["redirect_uri": "https://app.example/cb/../evil"]),
            authorizeURI(F.web, ["redirect_uri": ""]),
            authorizeURI(F.web, ["client_id": "web", "request_uri": "urn:ietf:params:oauth:request_uri:nothing"]),
            authorizeURI(F.web, ["redirect_uri": "https://evil.example/cb", "response_type": "token"]),
        ]
        for uri in cases {
            let page = browser.get(uri)
            #expect(page.status == 400, "\(uri)")
            #expect(page.header("Location") == nil, "\(uri): never a redirect")
            #expect(page.text.contains("Go back to the application"), "\(uri): says what to do")
        }
    }

    @Test func errorsAfterTheRedirectURIIsKnownGoBackToTheClientWithStateAndIssuer() throws {
        let test = try makeOpenIDApp()
        let browser = TestBrowser(test.app)
        let cases: [([String: String], String)] = [
            (["response_type": "token"], "unsupported_response_type"),
            (["response_type": ""], "invalid_request"),
            (["scope": "email profile"], "invalid_scope"),
            (["prompt": "none login"], "invalid_request"),
            (["max_age": "soon"], "invalid_request"),
            (["request": "eyJ..."], "request_not_supported"),
            (["response_mode": "form_post"], "invalid_request"),
            (["code_challenge": F.challenge, "code_challenge_method": "plain"], "invalid_request"),
            (["code_challenge": F.challenge], "invalid_request"),
            (["code_challenge": "short", "code_challenge_method": "S256"], "invalid_request"),
        ]
        for (extra, error) in cases {
            let answer = browser.get(authorizeURI(F.web, extra))
            #expect(answer.status == 302, "\(extra)")
            #expect(answer.header("Location")?.hasPrefix("https://app.example/cb?") == true, "\(extra)")
            let query = answer.locationQuery
            #expect(query["error"] == error && query["state"] == "st-1" && query["iss"] == "http://127.0.0.1:8080/account", "\(extra): \(query)")
        }
    }

    @Test func aParameterGivenTwiceIsRefused() throws {
        let test = try makeOpenIDApp()
        let browser = TestBrowser(test.app)
        let twiceRedirect = browser.get(authorizeURI(F.web) + "&redirect_uri=https%3A%2F%2Fevil.example%2Fcb")
        #expect(twiceRedirect.status == 400 && twiceRedirect.header("Location") == nil)
        #expect(browser.get(authorizeURI(F.web) + "&client_id=web").status == 400)
        let twiceScope = browser.get(authorizeURI(F.web) + "&scope=openid")
        #expect(twiceScope.locationQuery["error"] == "invalid_request" && twiceScope.locationQuery["error_description"] == "scope is given more than once")
        #expect(AuthorizeEndpoint.repeatedName("a=1&b=2&%61=3") == "a" && AuthorizeEndpoint.repeatedName("a=1&b") == nil)
    }

    @Test func aPublicClientMustSendPKCEAndAConfidentialOneMay() throws {
        let test = try makeOpenIDApp()
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_up", F.signUpForm).status == 303)
        let bare = browser.get(authorizeURI(F.first, ["code_challenge": "", "code_challenge_method": ""]))
        #expect(bare.locationQuery["error"] == "invalid_request" && bare.header("Location")?.hasPrefix("https://intranet.example/cb?") == true)
        let withPKCE = browser.get(authorizeURI(F.first))
        let code = try #require(withPKCE.locationQuery["code"])
        #expect(throws: OpenIDError.self) { try test.services.openID.redeemCode(code, client: F.first, redirectURI: F.first.redirectURIs[0], codeVerifier: "wrong-verifier-wrong-verifier-wrong-verifier") }
        let code2 = try #require(browser.get(authorizeURI(F.first)).locationQuery["code"])
        let issued = try test.services.openID.redeemCode(code2, client: F.first, redirectURI: F.first.redirectURIs[0], codeVerifier: F.verifier)
        #expect(issued.grant.nonce == "n-1" && issued.grant.scopes == ["openid", "email"])
    }

    /// RFC 8252 7.3: a native app listening on a loopback IP takes whatever port is free, so a public client's
    /// registered `http://127.0.0.1/…` or `http://[::1]/…` matches any port; path and query still exactly, and no other
    /// host (`localhost` is a name: exact), no confidential client.
    @Test func aNativeAppsLoopbackRedirectMatchesAnyPort() throws {
        let cli = OpenIDClient(id: "cli", isPublic: true, redirectURIs: ["http://127.0.0.1/callback", "http://[::1]/cb"], scopes: ["openid"],
                               firstParty: true)
        let web = OpenIDClient(id: "loopweb", secretDigests: [Data(SHA256.hash(data: Data(F.secret.utf8)))], redirectURIs: ["http://127.0.0.1/callback"],
                               scopes: ["openid"], firstParty: true)
        let test = try makeOpenIDApp(clients: [cli, web])
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_up", F.signUpForm).status == 303)
        for uri in ["http://127.0.0.1:53123/callback", "http://127.0.0.1/callback", "http://[::1]:8400/cb"] {
            let answer = browser.get(authorizeURI(cli, ["redirect_uri": uri, "scope": "openid"]))
            #expect(answer.locationQuery["code"] != nil && answer.header("Location")?.hasPrefix(uri + "?") == true, "\(uri)")
        }
        for uri in ["http://127.0.0.1:53123/other", "http://127.0.0.1:53123/callback?x=1", "http://localhost:53123/callback",
                    "https://127.0.0.1:53123/callback", "http://127.0.0.2:53123/callback", "http://127.0.0.1:53123/callback#f"] {
            #expect(browser.get(authorizeURI(cli, ["redirect_uri": uri, "scope": "openid"])).status == 400, "\(uri)")
        }
        #expect(browser.get(authorizeURI(web, ["redirect_uri": "http://127.0.0.1:53123/callback", "scope": "openid"])).status == 400,
                "a confidential client's URI is exact")
    }

    @Test func signInThenConsentOnceThenTheCodeAndNextTimeNoConsent() throws {
        let test = try makeOpenIDApp()
        let browser = TestBrowser(test.app)
        let start = browser.get(authorizeURI(F.web, ["login_hint": "ann@example.com", "scope": "openid email groups unknown offline_access"]))
        let signIn = try #require(start.header("Location"))
        #expect(signIn.hasPrefix("/account/sign_in?rd=%2Faccount%2Foidc%2Fauthorize%3F") && signIn.hasSuffix("&email=ann%40example.com"))
        #expect(browser.get(signIn).text.contains(#"value="ann@example.com""#), "login_hint fills the address")
        #expect(browser.post("/account/sign_up", F.signUpForm).status == 303)
        let rd = try #require(FormData.parse(String(signIn.split(separator: "?", maxSplits: 1)[1]))["rd"])
        let consent = browser.follow(rd)
        #expect(consent.status == 200 && consent.text.contains("Let Web App in?"))
        #expect(consent.text.contains("your email address") && consent.text.contains("the groups you belong to"))
        let listed = consent.text.matches(of: /<li>([^<]+)<\/li>/).map { String($0.1) }
        #expect(listed.count == 3, "openid, email, groups: scopes not understood (unknown, offline_access) are dropped: \(listed)")
        #expect(consent.text.contains("app.example"), "says where the person returns")
        var form: [String: String] = [:]
        for match in consent.text.matches(of: /<input type="hidden" name="([^"]+)" value="([^"]*)">/) where match.1 != "csrf_token" {
            form[String(match.1)] = String(match.2).replacingOccurrences(of: "&amp;", with: "&")
        }
        form["decision"] = "allow"
        let approved = browser.post("/account/oidc/consent", form)
        #expect(approved.status == 303 && approved.header("Location")?.hasPrefix("https://app.example/cb?code=") == true)
        #expect(approved.locationQuery["state"] == "st-1" && approved.locationQuery["iss"] == "http://127.0.0.1:8080/account")
        let issued = try test.services.openID.redeemCode(try #require(approved.locationQuery["code"]), client: F.web,
                                                         redirectURI: "https://app.example/cb", codeVerifier: nil)
        #expect(issued.grant.scopes == ["openid", "email", "groups"])
        // Once agreed, the same scopes (or fewer) go straight to a code.
        let again = browser.get(authorizeURI(F.web, ["scope": "openid email"]))
        #expect(again.status == 302 && again.locationQuery["code"] != nil)
        // prompt=consent asks again.
        #expect(browser.follow(authorizeURI(F.web, ["prompt": "consent"])).text.contains("Let Web App in?"))
    }

    @Test func denyingSendsAccessDenied() throws {
        let test = try makeOpenIDApp()
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_up", F.signUpForm).status == 303)
        let page = browser.get(authorizeURI(F.web))
        let consentURI = try #require(page.header("Location"))
        #expect(consentURI.hasPrefix("/account/oidc/consent?"))
        var form = FormData.parse(String(consentURI.split(separator: "?", maxSplits: 1)[1]))
        form["decision"] = "deny"
        let denied = browser.post("/account/oidc/consent", form)
        #expect(denied.locationQuery["error"] == "access_denied" && denied.locationQuery["state"] == "st-1")
        form["decision"] = "maybe"
        #expect(browser.post("/account/oidc/consent", form).status == 400)
        #expect(browser.post("/account/oidc/consent", ["decision": "allow"]).status == 400, "no client: a page")
    }

    @Test func aFirstPartyClientNeedsNoConsent() throws {
        let test = try makeOpenIDApp()
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_up", F.signUpForm).status == 303)
        #expect(browser.get(authorizeURI(F.first)).locationQuery["code"] != nil)
    }

    @Test func aPOSTIsAGETWithoutAToken() throws {
        let test = try makeOpenIDApp()
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_up", F.signUpForm).status == 303)
        let form = FormData.parse(String(authorizeURI(F.first).split(separator: "?", maxSplits: 1)[1]))
        let answer = browser.post("/account/oidc/authorize", form, csrf: false)
        #expect(answer.status == 303 && answer.locationQuery["code"] != nil, "no CSRF refusal: cross-site")
    }

    @Test func onlyAuthorizeAndLogoutAreCrossSiteAndTheConsentFormIsChecked() throws {
        let test = try makeOpenIDApp()
        let table = Routes.openID(core: test.services, api: true)
        #expect(table.filter { $0.value.kind == .crossSite }.keys.sorted() == ["oidc/authorize", "oidc/logout"])
        #expect(table["oidc/par"]?.kind == .api && table["oidc/consent"]?.kind == .form && table["settings/apps/revoke"]?.kind == .form)
        let browser = TestBrowser(test.app)
        #expect(browser.post("/account/sign_up", F.signUpForm).status == 303)
        var form = FormData.parse(String(authorizeURI(F.web).split(separator: "?", maxSplits: 1)[1]))
        form["decision"] = "allow"
        #expect(browser.post("/account/oidc/consent", form, csrf: false).status == 403, "a consent is never given cross-site")
        #expect(try !test.services.openID.hasConsent(accountID: 1, clientID: "web", scopes: ["openid"]))
    }

    @Test func oddInputIsAnsweredClearlyNeverWithA500() throws {
        let test = try makeOpenIDApp()
        let signedOut = TestBrowser(test.app), signedIn = TestBrowser(test.app)
        #expect(signedIn.post("/account/sign_up", F.signUpForm).status == 303)
        let odd = ["", "?client_id=", "?client_id=web", "?client_id=%00", "?client_id=web&redirect_uri=%E2%80%AE",
                   "?" + String(repeating: "a=b&", count: 500), "?client_id=web&request_uri=", "?client_id=web&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3A",
                   "?client_id=\(String(repeating: "x", count: 65))", "?fd_login_after=nan&client_id=first&redirect_uri=https%3A%2F%2Fintranet.example%2Fcb"]
        for route in ["oidc/authorize", "oidc/consent", "oidc/select_account"] {
            for query in odd {
                for browser in [signedOut, signedIn] {
                    let answer = browser.get("/account/\(route)\(query)")
                    #expect(answer.status < 500, "\(route)\(query.prefix(60))")
                }
            }
        }
        let weird = authorizeURI(F.first, ["fd_login_after": "1e308", "max_age": "99999999999999999999999", "prompt": "login none"])
        #expect(signedIn.get(weird).locationQuery["error"] == "invalid_request")
        #expect(signedIn.get(authorizeURI(F.first, ["fd_login_after": "-5", "prompt": "login"])).header("Location")?
            .hasPrefix("/account/settings/reauthenticate") == true, "an old or odd marker proves nothing")
        #expect(signedIn.post("/account/oidc/par", [:], csrf: false).status == 401)
        #expect(signedIn.post("/account/settings/apps/revoke", [:]).status == 400)
    }

    @Test func theProviderOffAnswers404() throws {
        let test = try makeOpenIDApp { $0.openID.enabled = false }
        let browser = TestBrowser(test.app)
        #expect(browser.get(authorizeURI(F.web)).status == 404)
        #expect(browser.get("/account/settings/apps").status != 200)
    }
}
