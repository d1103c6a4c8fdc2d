// ConcurrencyRulesTests.swift: every rule that needs one winner, under real racing threads, on the run's backend
// (`make unit` runs this on SQLite and on PostgreSQL at READ COMMITTED, where a plain count-then-insert would let
// several racers through).
import AccountRules
import Foundation
import StorageTestKit
import Testing
@testable import AccountCore

@Suite struct ConcurrencyRulesTests {
    let client = ClientInfo(userAgent: "Racer/1", remoteAddress: "198.51.100.7")

    /// Runs `body` on `count` threads at once; returns how many returned without throwing.
    func race(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> Int {
        outcomes(count, body).filter { $0 == nil }.count
    }

    /// Runs `body` on `count` threads released together; returns each racer's error, nil for those that returned.
    func outcomes(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> [(any Error)?] {
        Racers.outcomes(count, body)
    }

    @Test func exactlyTheLimitsFailuresLockTheAccountOnce() throws {
        let fixture = try TestFixture(lockout: LockoutPolicy(maxFailures: 6))
        let accountId = try fixture.signUp("ann@example.com").session.accountId
        let client = client
        _ = race(6) { _ in _ = try fixture.signIn("ann@example.com", password: "wrong password!", client: client) }
        #expect(try fixture.services.lockout.lockedUntil(accountId: accountId) != nil, "six failures at once still count six")
        #expect(try fixture.audits(.lockout).count == 1)
    }

    @Test func theSignUpLimitLetsExactlyItsNumberThrough() throws {
        let fixture = try TestFixture(signUp: SignUpPolicy(maxPerAddress: 3))
        let client = client
        let created = race(8) { index in
            _ = try fixture.services.registration.signUp(TestFixture.form(email: "racer\(index)@example.com"), client: client)
        }
        #expect(created == 3)
        #expect(try fixture.count("account") == 3)
    }

    @Test func twoSignUpsWithOneAddressMakeOneAccount() throws {
        let fixture = try TestFixture()
        let client = client
        let created = race(6) { _ in _ = try fixture.services.registration.signUp(TestFixture.form(email: "Same@Example.com"), client: client) }
        #expect(created == 1)
        #expect(try fixture.count("account") == 1 && fixture.count("emailAddress") == 1)
    }

    @Test func aResetLinkWorksOnceWhenUsedTwiceAtOnce() throws {
        let fixture = try TestFixture()
        try fixture.signUp("ann@example.com")
        _ = try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        try fixture.services.reminder.sendReminder(email: "ann@example.com")
        let message = try #require(try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'password_reset'")
        })
        let token = String(try #require(message.firstMatch(of: /passwordReset\(token: "([A-Za-z0-9_-]+)"\)/)).1)
        let client = client
        let resets = race(4) { index in
            let password = "battery staple \(index)"
            _ = try fixture.services.reminder.reset(token: token, form: ["password": password, "password_confirmation": password], client: client)
        }
        #expect(resets == 1)
        #expect(try fixture.audits(.passwordReset).count == 1)
    }

    @Test func aConfirmationLinkWorksOnceWhenUsedTwiceAtOnce() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        _ = try fixture.services.registration.signUp(TestFixture.form(email: "ann@example.com"), client: client)
        let message = try #require(try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'confirmation'")
        })
        let token = String(try #require(message.firstMatch(of: /confirmation\(token: "([A-Za-z0-9_-]+)"\)/)).1)
        let confirmed = race(4) { _ in _ = try fixture.services.confirmation.confirm(token: token) }
        #expect(confirmed == 1)
        #expect(try fixture.audits(.emailConfirmed).count == 1)
    }

    @Test func aThrottledMailGoesOutOnceWhenAskedForTwiceAtOnce() throws {
        let fixture = try TestFixture()
        try fixture.signUp("ann@example.com")
        _ = try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        _ = race(4) { _ in try fixture.services.reminder.sendReminder(email: "ann@example.com") }
        #expect(try fixture.mailKinds(to: "ann@example.com").filter { $0 == "password_reset" }.count == 1)
    }
}
