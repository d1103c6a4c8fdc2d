// GateHeadersTests.swift: what the gate tells apps about the person (docs/headers.md): username, display name,
// verified address, groups, the account id where asked for, under the configured header names.
@testable import AccountCore
import Foundation
import Testing
@testable import WebFront

struct GateHeadersTests {
    func signedIn(_ configure: @escaping (inout AppConfiguration) -> Void = { _ in }, email: String = "Ann@Example.com",
                  username: String? = nil) throws -> (TestApp, TestBrowser) {
        let test = try makeApp { $0.confirmation.required = false; configure(&$0) }
        let browser = TestBrowser(test.app)
        var form = ["email": email, "password": "correct horse", "password_confirmation": "correct horse"]
        if let username { form["username"] = username }
        #expect(browser.post("/account/sign_up", form).status == 303)
        try test.services.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        return (test, browser)
    }

    func check(_ browser: TestBrowser) -> Response {
        var params = ["REQUEST_METHOD": "GET", "REQUEST_URI": "/account/auth/check", "REMOTE_ADDR": "127.0.0.1"]
        params["HTTP_COOKIE"] = browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        return browser.send(Request(params: params))
    }

    func names(_ response: Response) -> [String] { response.headers.map(\.name) }

    @Test func theDisplayNameIsSentWhenSetAndTheUsernameOtherwise() throws {
        let (test, browser) = try signedIn()
        #expect(check(browser).header("Remote-Name") == "ann")
        try test.services.profile.update(accountId: 1, form: ["display_name": "Ann Lee"], client: ClientInfo())
        let response = check(browser)
        #expect(response.header("Remote-User") == "ann" && response.header("Remote-Name") == "Ann Lee")
        #expect(response.header("Remote-Groups") == nil, "in no group: no header")
        #expect(response.header("Remote-Account-Id") == nil, "the account id only when asked for")
    }

    @Test func twoPeopleWithOneLocalPartAreTwoUsers() throws {
        let test = try makeApp { $0.confirmation.required = false }
        var users: [String?] = []
        for email in ["ann@a.example", "ann@b.example"] {
            let browser = TestBrowser(test.app)
            browser.post("/account/sign_up", ["email": email, "password": "correct horse", "password_confirmation": "correct horse"])
            users.append(check(browser).header("Remote-User"))
        }
        #expect(users == ["ann", "ann-2"])
    }

    @Test func aChosenUsernameIsSentAsTyped() throws {
        let (_, browser) = try signedIn({ $0.identity.username = .optional }, username: "Ann.Lee")
        #expect(check(browser).header("Remote-User") == "Ann.Lee")
    }

    @Test func theAccountIdGoesInItsOwnHeaderOrAsRemoteUserWhenAskedFor() throws {
        let (_, header) = try signedIn { $0.gate.accountId = .header }
        let own = check(header)
        #expect(own.header("Remote-User") == "ann" && own.header("Remote-Account-Id") == "1")
        let (_, asUser) = try signedIn { $0.gate.accountId = .remoteUser }
        let old = check(asUser)
        #expect(old.header("Remote-User") == "1" && old.header("Remote-Name") == "ann" && old.header("Remote-Account-Id") == nil)
    }

    @Test func headerNamesFollowTheSettings() throws {
        let (_, browser) = try signedIn {
            $0.gate.headers.user = "X-WEBAUTH-USER"
            $0.gate.headers.name = "X-WEBAUTH-NAME"
            $0.gate.headers.email = "X-WEBAUTH-EMAIL"
            $0.gate.accountId = .header
            $0.gate.headers.accountId = "X-Account"
        }
        let response = check(browser)
        #expect(Array(names(response).prefix(4)) == ["X-WEBAUTH-USER", "X-WEBAUTH-NAME", "X-WEBAUTH-EMAIL", "X-Account"])
        #expect(response.header("X-WEBAUTH-USER") == "ann" && response.header("Remote-User") == nil)
    }

    @Test func groupsAreCommaSeparatedAndControlCharactersNeverReachAHeader() {
        var session = SessionInfo(digest: Data(count: 32), accountId: 7, email: "a@x", createdAt: Date(), lastSeenAt: Date(),
                                  expiresAt: Date(), rememberMe: false, emailVerified: true)
        session.username = "ann"
        session.displayName = "Ann\r\nX-Evil: 1"
        session.groups = ["admins", "staff"]
        let headers = Gate.identityHeaders(session, gate: AppConfiguration.Gate())
        #expect(headers.map { $0.name } == ["Remote-User", "Remote-Name", "Remote-Email", "Remote-Groups"])
        #expect(headers[1].value == "AnnX-Evil: 1" && headers[3].value == "admins,staff")
    }

    @Test func aHeaderNameSettingTakesOnlyAHeaderName() throws {
        func read(_ environment: [String: String]) throws -> AppConfiguration { try ConfigReader.read(file: nil, environment: environment) }
        #expect(throws: ConfigError.self) { try read(["FRONTDOOR_GATE_HEADERS_USER": "Remote User"]) }
        #expect(throws: ConfigError.self) { try read(["FRONTDOOR_GATE_HEADERS_NAME": "X-Name\r\nX-Evil"]) }
        #expect(throws: ConfigError.self) { try read(["FRONTDOOR_GATE_ACCOUNT_ID": "yes"]) }
        let parsed = try read(["FRONTDOOR_IDENTITY_USERNAME": "required", "FRONTDOOR_GATE_ACCOUNT_ID": "remote_user",
                               "FRONTDOOR_GATE_HEADERS_GROUPS": "X-Groups"])
        #expect(parsed.identity.username == .required && parsed.gate.accountId == .remoteUser && parsed.gate.headers.groups == "X-Groups")
    }
}
