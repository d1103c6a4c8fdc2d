// ReauthenticationTests.swift: the recency of a session's password entry, and entering it again.
import AccountRules
import Foundation
import Testing
@testable import AccountCore

struct ReauthenticationTests {
    @Test func aSignInIsRecentForTheConfiguredTime() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp()
        #expect(try fixture.services.reauthentication.isRecent(grant.token.digest))
        fixture.clock.advance(by: 599)
        #expect(try fixture.services.reauthentication.isRecent(grant.token.digest))
        fixture.clock.advance(by: 2)
        #expect(try !fixture.services.reauthentication.isRecent(grant.token.digest))
        #expect(try !fixture.services.reauthentication.isRecent(Data(repeating: 1, count: 32)), "an unknown session is never recent")
    }

    @Test func theRightPasswordRenewsItAndIsAudited() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp()
        fixture.clock.advance(by: 900)
        try fixture.services.reauthentication.confirm(session: grant.token.digest, password: "correct horse", client: ClientInfo())
        #expect(try fixture.services.reauthentication.isRecent(grant.token.digest))
        #expect(try fixture.services.audit.list(AuditFilter(event: .reauthenticated)).count == 1)
    }

    @Test func withoutAPasswordOnlyARecentSignInPassesAndWithOneItIsChecked() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp()
        let reauthentication = fixture.services.reauthentication
        try reauthentication.confirmOrRequireRecent(session: grant.token.digest, password: "", client: ClientInfo())
        fixture.clock.advance(by: 900)
        #expect(throws: AccountError.reauthenticationRequired) {
            try reauthentication.confirmOrRequireRecent(session: grant.token.digest, password: "", client: ClientInfo())
        }
        #expect(throws: AccountError.self) {
            try reauthentication.confirmOrRequireRecent(session: grant.token.digest, password: "wrong horse", client: ClientInfo())
        }
        try reauthentication.confirmOrRequireRecent(session: grant.token.digest, password: "correct horse", client: ClientInfo())
        #expect(try reauthentication.isRecent(grant.token.digest))
    }

    @Test func aWrongPasswordIsAFieldErrorAndCountsTowardsTheLock() throws {
        let fixture = try TestFixture(lockout: LockoutPolicy(maxFailures: 2))
        let grant = try fixture.signUp()
        fixture.clock.advance(by: 900)
        #expect(throws: AccountError.self) {
            try fixture.services.reauthentication.confirm(session: grant.token.digest, password: "wrong horse", client: ClientInfo())
        }
        do {
            try fixture.services.reauthentication.confirm(session: grant.token.digest, password: "wrong horse", client: ClientInfo())
            Issue.record("a wrong password was accepted")
        } catch AccountError.invalid(let errors) {
            #expect(errors.keys(for: "password") == ["wrong_password"])
        }
        #expect(try fixture.services.lockout.lockedUntil(accountId: grant.session.accountId) != nil, "two failures lock with this policy")
        // Locked: even the right password is refused, and the session stays stale.
        #expect(throws: AccountError.self) {
            try fixture.services.reauthentication.confirm(session: grant.token.digest, password: "correct horse", client: ClientInfo())
        }
        #expect(try !fixture.services.reauthentication.isRecent(grant.token.digest))
    }

    @Test func aSessionThatIsGoneIsNotFound() throws {
        let fixture = try TestFixture()
        #expect(throws: AccountError.notFound) {
            try fixture.services.reauthentication.confirm(session: Data(repeating: 2, count: 32), password: "x", client: ClientInfo())
        }
    }

    @Test func anAccountWithoutAPasswordGetsTheWrongPasswordAnswer() throws {
        let fixture = try TestFixture()
        let grant = try fixture.socialSignIn(identity()).grant
        fixture.clock.advance(by: 900)
        for password in ["", "anything"] {
            do {
                try fixture.services.reauthentication.confirm(session: grant.token.digest, password: password, client: ClientInfo())
                Issue.record("an account without a password was re-authenticated by password")
            } catch AccountError.invalid(let errors) {
                #expect(errors.keys(for: "password") == ["wrong_password"])
            }
        }
        #expect(try !fixture.services.reauthentication.isRecent(grant.token.digest))
        #expect(try fixture.count("signInFailure") == 2)
    }
}
