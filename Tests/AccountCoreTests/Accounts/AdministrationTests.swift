// AdministrationTests.swift: the operator's account operations, on an in-memory database (the online backup: BackupTests).
import AccountRules
import Foundation
import Testing
@testable import AccountCore

struct AdministrationTests {
    let cli = ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local")

    @Test func addReportsEveryBrokenRuleAndCreatesNothing() throws {
        let fixture = try TestFixture()
        let thrown = #expect(throws: AccountError.self) {
            try fixture.services.administration.add(email: "not an address", password: "short", confirmed: false, client: cli)
        }
        guard case .invalid(let errors)? = thrown else { Issue.record("expected invalid"); return }
        #expect(errors.keys(for: "email") == ["invalid_email"])
        #expect(errors.keys(for: "password") == ["too_short"])
        #expect(errors.messages(for: "password", in: .english) == ["Password is too short (minimum is 12 characters)"])
        #expect(try fixture.count("account") == 0)
        #expect(try fixture.count("audit") == 0)
    }

    @Test func addRefusesAnAddressAlreadyTakenInAnyCase() throws {
        let fixture = try TestFixture()
        try fixture.signUp("Ann@Example.com")
        let thrown = #expect(throws: AccountError.self) {
            try fixture.services.administration.add(email: " ann@EXAMPLE.com ", password: "long enough now", confirmed: true, client: cli)
        }
        guard case .invalid(let errors)? = thrown else { Issue.record("expected invalid"); return }
        #expect(errors.messages(for: "email", in: .english) == ["Email has already been taken"])
        #expect(try fixture.count("account") == 1)
    }

    @Test func addedAccountsSignInListAndShow() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        let admin = fixture.services.administration
        let ann = try admin.add(email: "Ann@Example.com", password: "correct horse", confirmed: true, client: cli)
        fixture.clock.advance(by: 60)
        let bob = try admin.add(email: "bob@example.org", password: "battery staple", confirmed: false, client: cli)
        // The confirmed one signs in; the other waits for confirmation
        fixture.clock.advance(by: 60)
        _ = try fixture.signIn("ann@example.com", password: "correct horse")
        #expect(throws: AccountError.unconfirmed) { try fixture.signIn("bob@example.org", password: "battery staple") }

        let all = try admin.list()
        #expect(all.map(\.id) == [ann, bob])
        #expect(all[0] == AccountSummary(id: ann, email: "Ann@Example.com", username: "ann", confirmed: true, lockedUntil: nil,
                                         createdAt: Date(timeIntervalSince1970: 1_800_000_000), lastSignIn: fixture.clock.now()))
        #expect(all[1].confirmed == false && all[1].lastSignIn == nil)
        #expect(try admin.list(search: "EXAMPLE.ORG").map(\.id) == [bob])
        #expect(try admin.list(search: "%").isEmpty, "the search text is literal")
        #expect(try admin.list(limit: 1).map(\.id) == [ann])

        let detail = try admin.show(accountId: ann)
        #expect(detail.addresses.map(\.address) == ["Ann@Example.com"])
        #expect(detail.liveSessions == 1)
        #expect(detail.recentAudit.map(\.event) == ["sign_in", "account_created"])
        #expect(detail.recentAudit.last?.userAgent == "frontdoor-cli")
    }

    @Test func referencesAreAddressesInAnyCaseOrIds() throws {
        let fixture = try TestFixture()
        let id = try fixture.signUp("Ann@Example.com").session.accountId
        let admin = fixture.services.administration
        #expect(try admin.resolve(" ANN@example.com") == id)
        #expect(try admin.resolve(String(id)) == id)
        #expect(throws: AdministrationError.noAccount("nobody@example.com")) { try admin.resolve("nobody@example.com") }
        #expect(throws: AdministrationError.noAccount("99")) { try admin.resolve("99") }
    }

    @Test func confirmVerifiesEveryPendingAddressOnce() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        let admin = fixture.services.administration
        let id = try admin.add(email: "ann@example.com", password: "correct horse", confirmed: false, client: cli)
        #expect(try admin.confirm(accountId: id, client: cli) == ["ann@example.com"])
        #expect(try admin.confirm(accountId: id, client: cli) == [])
        #expect(try fixture.signIn("ann@example.com").session.accountId == id)
        #expect(try fixture.services.audit.list(AuditFilter(event: .emailConfirmed)).count == 1)
    }

    @Test func deleteRemovesTheAccountWithItsRowsAndKeepsTheTrail() throws {
        let fixture = try TestFixture()
        let keep = try fixture.signUp("bob@example.com").session.accountId
        let grant = try fixture.signUp("ann@example.com")
        let id = grant.session.accountId
        try fixture.database.write { tx in
            try tx.execute("INSERT INTO accountToken (digest, purpose, accountId, createdAt, expiresAt) VALUES (?, 'reset', ?, 0, 1)",
                           [Data(repeating: 7, count: 32), id])
        }
        #expect(try fixture.services.administration.delete(accountId: id, client: cli) == "ann@example.com")
        #expect(try fixture.services.sessions.find(token: grant.token.encoded) == nil)
        #expect(try fixture.count("account") == 1)
        #expect(try fixture.count("emailAddress") == 1)
        #expect(try fixture.count("accountToken") == 0)
        let deleted = try #require(try fixture.services.audit.list(AuditFilter(event: .accountDeleted)).first)
        #expect(deleted.accountId == id && deleted.email == "ann@example.com" && deleted.remoteAddress == "local")
        #expect(throws: AdministrationError.noAccount(String(id))) { try fixture.services.administration.delete(accountId: id, client: cli) }
        #expect(try fixture.services.administration.resolve("bob@example.com") == keep)
    }

    @Test func setPasswordEndsEverySessionAndTheNewPasswordSignsIn() throws {
        let fixture = try TestFixture()
        let first = try fixture.signUp("ann@example.com", password: "correct horse")
        let second = try fixture.signIn("ann@example.com", password: "correct horse")
        let admin = fixture.services.administration
        #expect(throws: AccountError.self) { try admin.setPassword(accountId: first.session.accountId, password: "short", client: cli) }
        #expect(try fixture.services.sessions.find(token: second.token.encoded) != nil, "a refused password changes nothing")

        #expect(try admin.setPassword(accountId: first.session.accountId, password: "new and long", client: cli) == 2)
        #expect(try fixture.services.sessions.find(token: first.token.encoded) == nil)
        #expect(try fixture.services.sessions.find(token: second.token.encoded) == nil)
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("ann@example.com", password: "correct horse") }
        let grant = try fixture.services.authentication.signIn(email: "ann@example.com", password: "new and long", rememberMe: false,
                                                               client: ClientInfo())
        #expect(grant.session.accountId == first.session.accountId)
        let audited = try #require(try fixture.services.audit.list(AuditFilter(event: .passwordChanged)).first)
        #expect(audited.detail.contains("2 session(s) ended"))
    }

    @Test func sessionsAreListedLiveOnlyAndRevokedByShortIdOrAccount() throws {
        let fixture = try TestFixture()
        let ann = try fixture.signUp("ann@example.com", client: ClientInfo(userAgent: "Firefox", remoteAddress: "10.0.0.1"))
        fixture.clock.advance(by: 10)
        let ann2 = try fixture.signIn("ann@example.com", rememberMe: true)
        let bob = try fixture.signUp("bob@example.com")
        let admin = fixture.services.administration

        let all = try admin.liveSessions()
        #expect(all.count == 3)
        let first = try #require(try admin.liveSessions(accountId: ann.session.accountId).last)
        #expect(first.shortId == ann.token.digest.prefix(6).map { String(format: "%02x", $0) }.joined())
        #expect(first.email == "ann@example.com" && first.userAgent == "Firefox" && first.remoteAddress == "10.0.0.1" && !first.rememberMe)

        // An idle session is not live, though its row remains until purged
        fixture.clock.advance(by: SessionPolicy.default.idleTimeout)
        #expect(try admin.liveSessions().map(\.shortId).count == 1, "only the remembered one survives idling")
        #expect(throws: AdministrationError.noSession(first.shortId)) { try admin.revokeSession(shortId: first.shortId, client: cli) }
        #expect(throws: AdministrationError.noSession("xyz")) { try admin.revokeSession(shortId: "xyz", client: cli) }

        let remembered = try #require(try admin.liveSessions().first)
        #expect(try admin.revokeSession(shortId: remembered.shortId.uppercased(), client: cli) == ann.session.accountId)
        #expect(try fixture.services.sessions.find(token: ann2.token.encoded) == nil)
        #expect(try fixture.services.audit.list(AuditFilter(event: .sessionRevoked)).first?.detail == "session \(remembered.shortId) by the operator")

        let fresh = try fixture.signIn("bob@example.com")
        #expect(try admin.revokeSessions(accountId: bob.session.accountId, client: cli) == 1)
        #expect(try fixture.services.sessions.find(token: fresh.token.encoded) == nil)
        #expect(try fixture.count("session") > 0, "ann's idle one waits for the pruner: a sign-in purges nothing")
        try fixture.services.retention.deleteEnded()
        #expect(try fixture.count("session") == 0, "bob's are gone; ann's idle one went with the pruner's pass")
    }

    @Test func apiTokensAreListedWithTheirKind() throws {
        let fixture = try TestFixture()
        _ = try fixture.signUp("cy@example.com")
        _ = try fixture.services.authentication.signIn(email: "cy@example.com", password: "correct horse", rememberMe: false,
                                                       client: ClientInfo(userAgent: "App/1"), kind: .api)
        let kinds = try fixture.services.administration.liveSessions().map(\.kind)
        #expect(kinds.sorted { $0.rawValue < $1.rawValue } == [.api, .browser])
    }

    @Test func anAmbiguousShortIdEndsNothing() throws {
        let fixture = try TestFixture()
        let id = try fixture.signUp("ann@example.com").session.accountId
        let now = fixture.clock.now().timeIntervalSince1970
        try fixture.database.write { tx in
            for second in [UInt8(1), 2] {
                try tx.execute("""
                    INSERT INTO session (digest, accountId, createdAt, lastSeenAt, expiresAt, rememberMe, userAgent, remoteAddress)
                    VALUES (?, ?, ?, ?, ?, TRUE, '', '')
                    """, [Data([0xab, 0xcd, second]) + Data(repeating: 0, count: 29), id, now, now, now + 3600])
            }
        }
        let admin = fixture.services.administration
        #expect(throws: AdministrationError.ambiguousSession("abcd", matches: 2)) { try admin.revokeSession(shortId: "abcd", client: cli) }
        #expect(throws: AdministrationError.noSession("abc")) { try admin.revokeSession(shortId: "abc", client: cli) }
        #expect(try fixture.count("session") == 3)
        try admin.revokeSession(shortId: "abcd02", client: cli)
        #expect(try admin.liveSessions(accountId: id).map(\.shortId).contains("abcd01000000"))
        #expect(try fixture.count("session") == 2)
    }
}
