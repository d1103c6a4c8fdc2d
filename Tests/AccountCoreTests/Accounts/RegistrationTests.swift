import AccountRules
import Foundation
import MailTestKit
import Testing
@testable import AccountCore

struct RegistrationTests {
    @Test func signingUpCreatesTheAccountItsPrimaryAddressAndASession() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("Ann.Lee@Example.com", client: ClientInfo(userAgent: "Browser/1", remoteAddress: "192.0.2.1"))

        let address = try #require(try fixture.database.read { tx in try tx.row("SELECT * FROM emailAddress").map(EmailAddress.init(row:)) })
        #expect(address.address == "Ann.Lee@Example.com", "stored as entered")
        #expect(address.normalizedAddress == "ann.lee@example.com")
        #expect(address.isPrimary)
        #expect(address.verifiedAt == nil)
        #expect(address.createdAt == fixture.clock.now())
        #expect(try fixture.count("account") == 1)

        #expect(grant.session.accountId == address.accountId)
        #expect(grant.session.email == "Ann.Lee@Example.com")
        #expect(!grant.session.rememberMe)
        let row = try #require(try fixture.sessionRow(grant))
        #expect(row["accountId"] as Int64 == address.accountId)
        #expect(row["userAgent"] as String == "Browser/1" && row["remoteAddress"] as String == "192.0.2.1")
        #expect(try fixture.services.sessions.find(token: grant.token.encoded)?.accountId == address.accountId)
    }

    /// Anti-automation (ASVS 4.2.2): one client address creates at most `maxPerAddress` accounts per window; another
    /// address is not affected, and the window moves on.
    @Test func oneClientAddressCreatesAtMostTheLimitOfAccountsPerWindow() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(maxPerAddress: 2, window: 3600))
        let bot = ClientInfo(userAgent: "bot", remoteAddress: "203.0.113.9")
        _ = try fixture.signUp("a1@example.com", client: bot)
        _ = try fixture.signUp("a2@example.com", client: bot)
        #expect(throws: AccountError.refused("sign_up_rate_limited")) { try fixture.signUp("a3@example.com", client: bot) }
        #expect(try fixture.count("account") == 2)
        _ = try fixture.signUp("b1@example.com", client: ClientInfo(userAgent: "person", remoteAddress: "198.51.100.7"))
        fixture.clock.advance(by: 3601)
        _ = try fixture.signUp("a3@example.com", client: bot)
        #expect(try fixture.count("account") == 4)
    }

    /// Rotating through one's own IPv6 /64 does not reset the sign-up limit (issue 22).
    @Test func anIPv6ClientsWholeSlash64SharesTheSignUpLimit() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(maxPerAddress: 2, window: 3600))
        _ = try fixture.signUp("a1@example.com", client: ClientInfo(remoteAddress: "2001:db8:7:7::1"))
        _ = try fixture.signUp("a2@example.com", client: ClientInfo(remoteAddress: "2001:db8:7:7::2"))
        #expect(throws: AccountError.refused("sign_up_rate_limited")) {
            try fixture.signUp("a3@example.com", client: ClientInfo(remoteAddress: "2001:db8:7:7:abcd::3"))
        }
        _ = try fixture.signUp("b1@example.com", client: ClientInfo(remoteAddress: "2001:db8:7:8::1"))
        #expect(try fixture.count("account") == 3)
    }

    @Test func thePasswordIsStoredOnlyAsAnArgon2idHash() throws {
        let fixture = try TestFixture()
        try fixture.signUp(password: "correct horse")
        let hash = try #require(try fixture.database.read { tx in try tx.value(String.self, "SELECT passwordHash FROM account") })
        #expect(hash.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$"))
        #expect(!hash.contains("correct horse"))
        #expect(fixture.services.hasher.verify("correct horse", against: hash))
    }

    @Test func anAddressTakenInAnotherCaseIsRefusedAndNothingIsAdded() throws {
        // Given an account for ann@example.com
        let fixture = try TestFixture()
        try fixture.signUp("ann@example.com")
        // When someone signs up with the same address in other case
        let error = #expect(throws: AccountError.self) {
            try fixture.services.registration.signUp(TestFixture.form(email: "ANN@Example.COM"), client: ClientInfo())
        }
        // Then the form says the address is taken, and there is still one account
        guard case .invalid(let errors) = error else { Issue.record("expected .invalid, got \(String(describing: error))"); return }
        #expect(errors.fieldNames == ["email"])
        #expect(errors.keys(for: "email") == ["taken"])
        #expect(errors.messages(for: "email", in: .english) == ["Email has already been taken"])
        #expect(try [fixture.count("account"), fixture.count("emailAddress"), fixture.count("session")] == [1, 1, 1])
        // And the owner is told someone tried, once per throttle window however often it is tried
        _ = try? fixture.services.registration.signUp(TestFixture.form(email: "ann@example.com"), client: ClientInfo())
        let notes = try fixture.services.mail.list().filter { $0.kind == "sign_up_attempt" }
        #expect(notes.map(\.recipient) == ["ann@example.com"])
    }

    @Test func anInvalidFormWritesNothingAndListsEveryProblem() throws {
        let fixture = try TestFixture()
        let error = #expect(throws: AccountError.self) {
            try fixture.services.registration.signUp(
                ["email": "ann@example", "password": "abc", "password_confirmation": "abd"], client: ClientInfo())
        }
        guard case .invalid(let errors) = error else { Issue.record("expected .invalid, got \(String(describing: error))"); return }
        #expect(errors.fieldNames == ["email", "password", "password_confirmation"])
        for table in ["account", "emailAddress", "session", "accountToken", "mailQueue"] {
            #expect(try fixture.count(table) == 0, "\(table)")
        }
    }

    @Test func whiteSpaceAroundTheAddressIsTrimmed() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("  ann@example.com \t\n")
        #expect(grant.session.email == "ann@example.com")
        #expect(try fixture.database.read { tx in try tx.value(String.self, "SELECT address FROM emailAddress") } == "ann@example.com")
        #expect(try fixture.signIn("ann@example.com").session.accountId == grant.session.accountId)
    }

    @Test func theConfiguredPasswordLengthApplies() throws {
        let fixture = try TestFixture()
        let error = #expect(throws: AccountError.self) {
            try fixture.services.registration.signUp(TestFixture.form(email: "ann@example.com", password: String(repeating: "p", count: 129)),
                                                     client: ClientInfo())
        }
        guard case .invalid(let errors) = error else { Issue.record("expected .invalid, got \(String(describing: error))"); return }
        #expect(errors.messages(for: "password", in: .english) == ["Password is too long (maximum is 128 characters)"])
        #expect(try fixture.count("account") == 0)
    }

    @Test func withConfirmationRequiredSignUpMailsALinkAndStartsNoSession() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        let outcome = try fixture.services.registration.signUp(TestFixture.form(email: "Ann@Example.com"), client: ClientInfo())
        guard case .confirmationSent = outcome else { Issue.record("expected .confirmationSent"); return }
        #expect(try [fixture.count("account"), fixture.count("session"), fixture.count("accountToken")] == [1, 0, 1])
        #expect(try fixture.services.mail.list().map(\.kind) == ["confirmation"])
        #expect(try fixture.services.mail.list().first?.recipient == "Ann@Example.com")
    }

    @Test func withConfirmationRequiredATakenAddressLooksTheSameAndMailsItsOwner() throws {
        // Given an account for ann@example.com, with confirmation required
        let fixture = try TestFixture(confirmationRequired: true)
        _ = try fixture.services.registration.signUp(TestFixture.form(email: "ann@example.com"), client: ClientInfo())
        fixture.clock.advance(by: 120)
        // When someone signs up with that address again
        let outcome = try fixture.services.registration.signUp(TestFixture.form(email: "ANN@example.com", password: "other password"),
                                                               client: ClientInfo())
        // Then the answer is the same, nothing is created, and the owner hears about it
        guard case .confirmationSent = outcome else { Issue.record("expected .confirmationSent"); return }
        #expect(try [fixture.count("account"), fixture.count("emailAddress"), fixture.count("accountToken")] == [1, 1, 1])
        let mails = try fixture.services.mail.list()
        #expect(Set(mails.map(\.kind)) == ["confirmation", "sign_up_attempt"])
        #expect(mails.allSatisfy { $0.recipient == "ann@example.com" })
    }

    // MARK: - The request's language

    private func storedLanguages(_ fixture: TestFixture) throws -> [String?] {
        try fixture.database.read { tx in try tx.rows("SELECT language FROM account ORDER BY id").map { $0["language"] as String? } }
    }

    @Test func theNewAccountKeepsTheLanguageOfTheRequestThatCreatedIt() throws {
        let fixture = try TestFixture()
        try fixture.signUp("ann@example.com", client: ClientInfo(language: "fr"))
        try fixture.signUp("bob@example.com", client: ClientInfo())
        #expect(try storedLanguages(fixture) == ["fr", nil], "without a language, the account follows the browser")
    }

    @Test func withConfirmationRequiredTheAccountAndItsMailAreInTheRequestsLanguage() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        _ = try fixture.services.registration.signUp(TestFixture.form(email: "ann@example.com"), client: ClientInfo(language: "de"))
        #expect(try storedLanguages(fixture) == ["de"])
        let message = try fixture.database.read { tx in try tx.value(String.self, "SELECT message FROM mailQueue") }
        #expect(try message.map { try ReadMail($0).readable }?.contains("lang=de") == true, "LineComposer writes the language it was asked for")
    }

    @Test func anInvitedAccountKeepsTheRequestsLanguageToo() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(mode: .invite))
        let issued = try fixture.services.invitations.create(email: "ann@example.com", client: ClientInfo())
        var form = TestFixture.form(email: "ann@example.com")
        form["invite"] = issued.token
        guard case .signedIn = try fixture.services.registration.signUp(form, client: ClientInfo(language: "fr")) else {
            Issue.record("an invited sign-up signs in"); return
        }
        #expect(try storedLanguages(fixture) == ["fr"])
    }
}
