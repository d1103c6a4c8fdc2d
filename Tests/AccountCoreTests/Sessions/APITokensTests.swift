import AccountRules
import Foundation
import Testing
@testable import AccountCore

/// API tokens: sessions of kind `api`, found only with one of the account's addresses (APITokens.swift), and the
/// `kind: .api` paths of sign-in, sign-up and reset.
struct APITokensTests {
    let app = ClientInfo(userAgent: "FrontdoorKit", remoteAddress: "198.51.100.7")

    /// An account (Ann@Example.com, verified) and an API token from a password sign-in.
    func apiSignIn(_ fixture: TestFixture) throws -> SessionGrant {
        try fixture.signUp("Ann@Example.com")
        try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        return try fixture.services.authentication.signIn(email: "ann@example.com", password: "correct horse", rememberMe: false,
                                                          client: app, kind: .api)
    }

    // MARK: Issue and find

    @Test func aPasswordSignInOfKindAPIIssuesAToken() throws {
        let fixture = try TestFixture()
        let grant = try apiSignIn(fixture)
        #expect(grant.session.kind == .api && grant.session.rememberMe, "stored as remembered: no idle timeout")
        #expect(grant.session.expiresAt == fixture.clock.now() + 90 * 86400)
        #expect(try fixture.sessionRow(grant)?["kind"] as String? == "api")
        #expect(try fixture.audits(.signIn).map { $0["detail"] as String } == ["api"])
        let found = try #require(try fixture.services.apiTokens.find(email: "ANN@example.com", token: grant.token.encoded))
        #expect(found.accountId == grant.session.accountId && found.email == "Ann@Example.com" && found.kind == .api)
    }

    @Test func theTokenIsNeverABrowserSessionNorABrowserSessionAToken() throws {
        let fixture = try TestFixture()
        let api = try apiSignIn(fixture)
        let browser = try fixture.signIn("ann@example.com")
        #expect(try fixture.services.sessions.find(token: api.token.encoded) == nil)
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: browser.token.encoded) == nil)
        #expect(try fixture.services.sessions.find(token: browser.token.encoded) != nil)
    }

    @Test func theTokenGoesOnlyWithAnAddressOfItsAccount() throws {
        let fixture = try TestFixture()
        let grant = try apiSignIn(fixture)
        let ann = grant.session.accountId
        _ = try fixture.signUp("bob@example.com")
        try fixture.services.addresses.add("work@example.com", to: ann, client: app)
        let find = { (email: String) in try fixture.services.apiTokens.find(email: email, token: grant.token.encoded)?.accountId }
        #expect(try find("bob@example.com") == nil, "another account's address")
        #expect(try find("") == nil)
        #expect(try find("Work@Example.com") == ann, "any address the account holds, verified or not: the token is the secret")
        #expect(try find("nobody@example.com") == nil)
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: "malformed") == nil)
    }

    @Test func anUnverifiedPrimaryAddressStillGoesWithTheToken() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("ann@example.com")
        let token = try fixture.database.write { tx in
            try fixture.services.apiTokens.issue(accountId: grant.session.accountId, client: app, in: tx)
        }
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: token.token.encoded)?.accountId == grant.session.accountId)
    }

    @Test func theTokenLastsItsLifetimeWithoutIdleTimeoutAndIsTouched() throws {
        let fixture = try TestFixture()
        let grant = try apiSignIn(fixture)
        fixture.clock.advance(by: 30 * 86400)
        let found = try #require(try fixture.services.apiTokens.find(email: "ann@example.com", token: grant.token.encoded))
        #expect(found.lastSeenAt == fixture.clock.now())
        #expect(try fixture.sessionRow(grant)?["lastSeenAt"] as Double? == fixture.clock.now().timeIntervalSince1970)
        fixture.clock.advance(by: 60 * 86400)
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: grant.token.encoded) == nil)
    }

    // MARK: Summary

    @Test func theSummaryIsThePrimaryAddressAndTheWaitingOne() throws {
        let fixture = try TestFixture()
        let grant = try apiSignIn(fixture)
        let ann = grant.session.accountId
        var user = try fixture.services.apiTokens.summary(of: ann)
        var expected = APIUser(id: ann, email: "Ann@Example.com", createdAt: fixture.clock.now(), updatedAt: fixture.clock.now())
        expected.username = "ann"
        #expect(user == expected)
        try fixture.services.addresses.requestPrimaryChange(to: "new@example.com", accountId: ann, client: app)
        user = try fixture.services.apiTokens.summary(of: ann)
        #expect(user.email == "Ann@Example.com" && user.pendingEmail == "new@example.com")
        #expect(throws: AccountError.notFound) { try fixture.services.apiTokens.summary(of: ann + 100) }
    }

    // MARK: Ending tokens

    @Test func signingOutEndsTheTokenAndIsRecorded() throws {
        let fixture = try TestFixture()
        let grant = try apiSignIn(fixture)
        try fixture.services.apiTokens.signOut(session: grant.token.digest, client: app)
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: grant.token.encoded) == nil)
        #expect(try fixture.audits(.signOut).map { $0["detail"] as String } == ["api"])
        // A browser session's digest is not the API's to end
        let browser = try fixture.signIn("ann@example.com")
        try fixture.services.apiTokens.signOut(session: browser.token.digest, client: app)
        #expect(try fixture.services.sessions.find(token: browser.token.encoded) != nil)
        #expect(try fixture.audits(.signOut).count == 1)
    }

    @Test func tokensAreListedAndRevokedWithTheBrowserSessions() throws {
        let fixture = try TestFixture()
        let api = try apiSignIn(fixture)
        let browser = try fixture.signIn("ann@example.com")
        let entries = try fixture.services.sessionManagement.list(accountId: api.session.accountId, current: browser.token.digest)
        #expect(entries.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.api, .browser, .browser], "with the sign-up's session")
        let handle = try #require(entries.first { $0.kind == .api }?.handle)
        try fixture.services.sessionManagement.revoke(handle: handle, accountId: api.session.accountId, client: ClientInfo())
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: api.token.encoded) == nil)
    }

    @Test func aPasswordChangeThroughATokenEndsEveryOtherSessionButThatToken() throws {
        let fixture = try TestFixture()
        let api = try apiSignIn(fixture)
        let other = try fixture.services.authentication.signIn(email: "ann@example.com", password: "correct horse", rememberMe: false,
                                                               client: app, kind: .api)
        let browser = try fixture.signIn("ann@example.com")
        let form = ["password": "battery staple", "password_confirmation": "battery staple"]
        #expect(try fixture.services.passwordChange.change(session: api.token.digest, form: form, client: app, recentSignInSuffices: true) == 3,
                "the other token, this browser and the sign-up's session")
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: api.token.encoded) != nil)
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: other.token.encoded) == nil)
        #expect(try fixture.services.sessions.find(token: browser.token.encoded) == nil)
    }

    @Test func aResetOfKindAPIStartsAToken() throws {
        let fixture = try TestFixture()
        _ = try apiSignIn(fixture)
        try fixture.services.reminder.sendReminder(email: "ann@example.com")
        let message = try #require(try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'password_reset'")
        })
        let token = String(try #require(message.firstMatch(of: /passwordReset\(token: "([A-Za-z0-9_-]+)"\)/)).1)
        let grant = try fixture.services.reminder.reset(token: token, form: ["password": "battery staple", "password_confirmation": "battery staple"],
                                                        client: app, kind: .api)
        #expect(grant.session.kind == .api)
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: grant.token.encoded) != nil)
        #expect(try fixture.count("session") == 1, "the reset ended the earlier token")
    }

    @Test func aSignUpOfKindAPIStartsAToken() throws {
        let fixture = try TestFixture()
        guard case .signedIn(let grant) = try fixture.services.registration.signUp(TestFixture.form(email: "ann@example.com"), client: app,
                                                                                  kind: .api) else {
            Issue.record("expected .signedIn"); return
        }
        #expect(grant.session.kind == .api)
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: grant.token.encoded) != nil, "the primary, unverified")
    }

    @Test func deletingTheAccountEndsItsTokens() throws {
        let fixture = try TestFixture()
        let api = try apiSignIn(fixture)
        try fixture.services.deletion.delete(session: api.token.digest, password: "", client: app, recentSignInSuffices: true)
        #expect(try fixture.count("session") == 0)
        #expect(try fixture.services.apiTokens.find(email: "ann@example.com", token: api.token.encoded) == nil)
    }
}
