// PasswordChangeTests.swift: changing the password from the settings: every problem at once, other sessions ended.
import AccountRules
import Foundation
import Testing
@testable import AccountCore

struct PasswordChangeTests {
    let client = ClientInfo(userAgent: "Firefox", remoteAddress: "10.0.0.1")

    static func form(current: String, new: String, confirmation: String? = nil) -> [String: String] {
        ["current_password": current, "password": new, "password_confirmation": confirmation ?? new]
    }

    func invalid(_ body: () throws -> Void) -> ValidationErrors? {
        do { try body() } catch AccountError.invalid(let errors) { return errors } catch { Issue.record("unexpected \(error)") }
        return nil
    }

    func passwordHash(_ fixture: TestFixture) throws -> String? {
        try fixture.database.read { tx in try tx.value(String.self, "SELECT passwordHash FROM account") }
    }

    func mails(_ fixture: TestFixture, kind: String) throws -> [String] {
        try fixture.database.read { tx in
            try tx.values(String.self, "SELECT recipient FROM mailQueue WHERE kind = ? ORDER BY id", [kind])
        }
    }

    @Test func everyProblemIsReportedAtOnceAndNothingChanges() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("ann@example.com")
        let other = try fixture.signIn("ann@example.com")
        let hash = try passwordHash(fixture)
        let errors = try #require(invalid {
            try fixture.services.passwordChange.change(session: grant.token.digest,
                                                       form: Self.form(current: "wrong one", new: "short", confirmation: "shirt"), client: client)
        })
        #expect(errors.fieldNames == ["current_password", "password", "password_confirmation"])
        #expect(errors.messages(for: "current_password", in: .english) == ["Current password is not correct"])
        #expect(errors.keys(for: "password") == ["too_short"])
        #expect(errors.keys(for: "password_confirmation") == ["confirmation"])
        #expect(try passwordHash(fixture) == hash)
        #expect(try fixture.services.sessions.find(token: other.token.encoded) != nil)
        #expect(try mails(fixture, kind: "password_changed").isEmpty)
        #expect(try fixture.services.audit.list(AuditFilter(event: .passwordChanged)).isEmpty)
        #expect(try fixture.count("signInFailure") == 1, "a wrong current password counts towards the lock")
    }

    @Test func aRightCurrentPasswordStillReportsTheNewPasswordsProblems() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("ann@example.com")
        let errors = try #require(invalid {
            try fixture.services.passwordChange.change(session: grant.token.digest,
                                                       form: Self.form(current: "correct horse", new: "long enough now", confirmation: "long enough mow"),
                                                       client: client)
        })
        #expect(errors.fieldNames == ["password_confirmation"])
        #expect(try fixture.count("signInFailure") == 0)
    }

    @Test func aBlankCurrentPasswordIsAFieldErrorButNoFailedAttempt() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("ann@example.com")
        let errors = try #require(invalid {
            try fixture.services.passwordChange.change(session: grant.token.digest, form: Self.form(current: "", new: "new and long enough"),
                                                       client: client)
        })
        #expect(errors.messages(for: "current_password", in: .english) == ["Current password can't be blank"])
        #expect(errors.fieldNames == ["current_password"])
        #expect(try fixture.count("signInFailure") == 0)
    }

    @Test func theNewPasswordMustDifferFromTheCurrentOne() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("ann@example.com")
        let errors = try #require(invalid {
            try fixture.services.passwordChange.change(session: grant.token.digest, form: Self.form(current: "correct horse", new: "correct horse"),
                                                       client: client)
        })
        #expect(errors.keys(for: "password") == ["password_unchanged"])
        #expect(errors.fieldNames == ["password"])
    }

    @Test func aChangeEndsTheOtherSessionsKeepsThisOneAndMailsThePrimaryAddress() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("Ann@Example.com")
        let other = try fixture.signIn("ann@example.com", rememberMe: true)
        let bob = try fixture.signUp("bob@example.com")
        try fixture.database.write { tx in       // an outstanding reset link
            _ = try fixture.services.reminder.tokens.issue(.reset, accountId: grant.session.accountId, emailAddressId: nil, lifetime: 3600, in: tx)
        }
        #expect(try fixture.database.read { tx in
            try tx.value(Int.self, "SELECT COUNT(*) FROM accountToken WHERE purpose = 'reset' AND usedAt IS NULL")
        } == 1)
        fixture.clock.advance(by: 120)

        let ended = try fixture.services.passwordChange.change(session: grant.token.digest,
                                                               form: Self.form(current: "correct horse", new: "battery staple horse"), client: client)
        #expect(ended == 1)
        #expect(try fixture.services.sessions.find(token: grant.token.encoded) != nil, "this browser stays signed in")
        #expect(try fixture.services.sessions.find(token: other.token.encoded) == nil)
        #expect(try fixture.services.sessions.find(token: bob.token.encoded) != nil, "another account's sessions stay")
        let row = try #require(try fixture.sessionRow(grant))
        #expect(row["authenticatedAt"] as Double == fixture.clock.now().timeIntervalSince1970)
        #expect(try fixture.services.reauthentication.isRecent(grant.token.digest))
        #expect(try fixture.database.read { tx in
            try tx.value(Int.self, "SELECT COUNT(*) FROM accountToken WHERE purpose = 'reset' AND usedAt IS NULL")
        } == 0, "outstanding reset links are void")
        #expect(try mails(fixture, kind: "password_changed") == ["Ann@Example.com"])
        let audited = try #require(try fixture.services.audit.list(AuditFilter(event: .passwordChanged)).first)
        #expect(audited.accountId == grant.session.accountId && audited.email == "Ann@Example.com")
        #expect(audited.detail.contains("1 other session(s) ended") && audited.remoteAddress == "10.0.0.1")

        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn("ann@example.com", password: "correct horse") }
        #expect(try fixture.signIn("ann@example.com", password: "battery staple horse").session.accountId == grant.session.accountId)
    }

    @Test func aLockedAccountIsRefusedEvenWithTheRightPassword() throws {
        let fixture = try TestFixture(lockout: LockoutPolicy(maxFailures: 2))
        let grant = try fixture.signUp("ann@example.com")
        for _ in 0..<2 {
            _ = invalid {
                try fixture.services.passwordChange.change(session: grant.token.digest, form: Self.form(current: "guess", new: "new and long enough"),
                                                           client: client)
            }
        }
        #expect(try fixture.services.lockout.lockedUntil(accountId: grant.session.accountId) != nil)
        let hash = try passwordHash(fixture)
        let errors = try #require(invalid {
            try fixture.services.passwordChange.change(session: grant.token.digest, form: Self.form(current: "correct horse", new: "new and long enough"),
                                                       client: client)
        })
        #expect(errors.keys(for: "current_password") == ["wrong_password"])
        #expect(try passwordHash(fixture) == hash)
    }

    @Test func aSessionThatIsGoneChangesNothing() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("ann@example.com")
        let hash = try passwordHash(fixture)
        try fixture.services.sessions.revoke(token: grant.token.encoded)
        #expect(throws: AccountError.notFound) {
            try fixture.services.passwordChange.change(session: grant.token.digest, form: Self.form(current: "correct horse", new: "new and long enough"),
                                                       client: client)
        }
        #expect(try passwordHash(fixture) == hash)
        #expect(try mails(fixture, kind: "password_changed").isEmpty)
    }

    // MARK: Accounts without a password (made through a provider)

    @Test func onlyAnAccountWithAPasswordIsAskedForIt() throws {
        let fixture = try TestFixture()
        let social = try fixture.socialSignIn(identity()).grant.session.accountId
        let classic = try fixture.signUp("bob@example.com").session.accountId
        #expect(try !fixture.services.passwordChange.needsCurrentPassword(accountId: social))
        #expect(try fixture.services.passwordChange.needsCurrentPassword(accountId: classic))
    }

    @Test func anAccountWithoutAPasswordSetsOneAfterARecentSignIn() throws {
        // Given an account made through a provider, signed in just now
        let fixture = try TestFixture()
        let grant = try fixture.socialSignIn(identity(email: "ann@example.com")).grant
        // When it sets a password without a current one
        try fixture.services.passwordChange.change(session: grant.token.digest, form: Self.form(current: "", new: "brand new secret"),
                                                   client: client)
        // Then the password works, the owner is told, and the account now is asked its password next time
        #expect(try fixture.signIn("ann@example.com", password: "brand new secret").session.accountId == grant.session.accountId)
        #expect(try mails(fixture, kind: "password_changed") == ["ann@example.com"])
        #expect(try fixture.audits(.passwordChanged).map { $0["detail"] as String } == ["set by its owner; 0 other session(s) ended"])
        #expect(try fixture.services.passwordChange.needsCurrentPassword(accountId: grant.session.accountId))
    }

    @Test func anAccountWithoutAPasswordNeedsARecentSignInToSetOne() throws {
        let fixture = try TestFixture()
        let grant = try fixture.socialSignIn(identity()).grant
        fixture.clock.advance(by: 601)
        #expect(throws: AccountError.reauthenticationRequired) {
            try fixture.services.passwordChange.change(session: grant.token.digest, form: Self.form(current: "", new: "brand new secret"),
                                                       client: client)
        }
        #expect(try passwordHash(fixture) == "")
        // The new password's rules still apply once it is recent
        _ = try fixture.social(identity(), purpose: .reauthenticate, session: grant.session)
        let errors = invalid {
            try fixture.services.passwordChange.change(session: grant.token.digest, form: Self.form(current: "", new: "short", confirmation: "other"),
                                                       client: client)
        }
        #expect(errors?.fieldNames == ["password", "password_confirmation"])
        #expect(try passwordHash(fixture) == "")
    }
}
