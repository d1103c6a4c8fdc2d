// LockoutTests.swift: failed sign-ins lock the account and block the client address; locks expire and resets lift them.
import Foundation
import Testing
@testable import AccountCore

struct LockoutTests {
    let attacker = ClientInfo(userAgent: "guesser", remoteAddress: "10.0.0.66")
    let owner = ClientInfo(userAgent: "owner", remoteAddress: "10.0.0.7")

    func failSignIn(_ fixture: TestFixture, _ email: String = "Ann@Example.com", client: ClientInfo) {
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn(email, password: "wrong guess", client: client) }
    }

    func queued(_ fixture: TestFixture, kind: String) throws -> Int {
        try fixture.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM mailQueue WHERE kind = ?", [kind]) ?? 0 }
    }

    @Test func fiveFailuresLockTheAccountEvenAgainstTheRightPasswordUntilTheLockEnds() throws {
        let fixture = try TestFixture()
        try fixture.signUp()
        for _ in 0..<4 { failSignIn(fixture, client: attacker) }
        #expect(try fixture.services.lockout.lockedUntil(accountId: 1) == nil, "four failures do not lock")
        failSignIn(fixture, client: attacker)
        #expect(try fixture.services.lockout.lockedUntil(accountId: 1) == fixture.clock.now() + 900)
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn(client: owner) }
        #expect(try queued(fixture, kind: "account_locked") == 1, "the owner is told, with a reset link")
        fixture.clock.advance(by: 901)
        #expect(try fixture.signIn(client: owner).session.accountId == 1)
    }

    @Test func aSuccessForgetsEarlierFailuresAndOldFailuresStopCounting() throws {
        let fixture = try TestFixture()
        try fixture.signUp()
        for _ in 0..<4 { failSignIn(fixture, client: attacker) }
        try fixture.signIn(client: owner)
        for _ in 0..<4 { failSignIn(fixture, client: attacker) }
        fixture.clock.advance(by: 601)
        failSignIn(fixture, client: attacker)
        #expect(try fixture.services.lockout.lockedUntil(accountId: 1) == nil)
        #expect(try fixture.count("signInFailure") == 5, "a failure purges nothing")
        #expect(try fixture.services.retention.deleteEnded()[.signInFailures] == 4, "the pruner removes those older than every window")
        #expect(try fixture.count("signInFailure") == 1)
    }

    @Test func failuresWhileLockedDoNotExtendTheLockAndTheRightPasswordDoesNotCount() throws {
        let fixture = try TestFixture()
        try fixture.signUp()
        for _ in 0..<5 { failSignIn(fixture, client: attacker) }
        let until = try fixture.services.lockout.lockedUntil(accountId: 1)
        fixture.clock.advance(by: 60)
        failSignIn(fixture, client: attacker)
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn(client: owner) }
        #expect(try fixture.services.lockout.lockedUntil(accountId: 1) == until)
        let reasons = try fixture.services.audit.list(AuditFilter(accountId: 1, event: .signInFailed)).map(\.detail)
        #expect(reasons.first == "account locked" && reasons.dropFirst().first == "account locked, wrong password")
        #expect(try fixture.services.audit.list(AuditFilter(event: .lockout)).count == 1)
    }

    @Test func manyFailuresFromOneAddressBlockItForEveryAccount() throws {
        let fixture = try TestFixture(lockout: LockoutPolicy(addressMaxFailures: 3, addressDuration: 300))
        try fixture.signUp()
        for n in 0..<3 { failSignIn(fixture, "nobody\(n)@example.com", client: attacker) }
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn(client: attacker) }
        #expect(try fixture.signIn(client: owner).session.accountId == 1, "other addresses are not blocked")
        #expect(try fixture.services.lockout.lockedUntil(accountId: 1) == nil)
        #expect(try fixture.services.audit.list(AuditFilter(event: .addressBlocked)).first?.remoteAddress == "10.0.0.66")
        fixture.clock.advance(by: 301)
        #expect(try fixture.signIn(client: attacker).session.accountId == 1)
    }

    /// One IPv6 client holds a whole /64 (issue 22): rotating through it does not reset the count, and the block
    /// covers the network; the next /64 is another client. `ipv6Prefix: 128` counts each address alone.
    @Test func anIPv6ClientCountsByItsSlash64() throws {
        let fixture = try TestFixture(lockout: LockoutPolicy(addressMaxFailures: 3, addressDuration: 300))
        try fixture.signUp()
        for n in 1...3 { failSignIn(fixture, "nobody\(n)@example.com", client: ClientInfo(remoteAddress: "2001:db8:1:2::\(n)")) }
        #expect(throws: AccountError.invalidCredentials, "another address of the /64") {
            try fixture.signIn(client: ClientInfo(remoteAddress: "2001:db8:1:2:ffff:ffff:ffff:ffff"))
        }
        #expect(try fixture.signIn(client: ClientInfo(remoteAddress: "2001:db8:1:3::1")).session.accountId == 1, "the next /64")
        let block = try #require(try fixture.services.audit.list(AuditFilter(event: .addressBlocked)).first)
        #expect(block.remoteAddress == "2001:db8:1:2::3" && block.detail.contains("2001:db8:1:2::/64"))

        let alone = try TestFixture(lockout: LockoutPolicy(addressMaxFailures: 3, addressDuration: 300))
        try alone.signUp()
        for n in 1...3 { failSignIn(alone, "nobody\(n)@example.com", client: ClientInfo(remoteAddress: "2001:db8:1:2::\(n)", ipv6Prefix: 128)) }
        #expect(try alone.signIn(client: ClientInfo(remoteAddress: "2001:db8:1:2::4", ipv6Prefix: 128)).session.accountId == 1)
    }

    @Test func zeroLimitsNeverLock() throws {
        let fixture = try TestFixture(lockout: LockoutPolicy(maxFailures: 0, addressMaxFailures: 0))
        try fixture.signUp()
        for _ in 0..<20 { failSignIn(fixture, client: attacker) }
        #expect(try fixture.signIn(client: attacker).session.accountId == 1)
    }

    @Test func remindersAndResendsWaitWhileLockedAndAResetLiftsTheLock() throws {
        let fixture = try TestFixture(confirmationRequired: true)
        _ = try fixture.services.registration.signUp(TestFixture.form(email: "Ann@Example.com"), client: owner)
        try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        for _ in 0..<5 { failSignIn(fixture, client: attacker) }
        try fixture.services.reminder.sendReminder(email: "ann@example.com", client: owner)
        #expect(try queued(fixture, kind: "password_reset") == 0)
        // The lock mail's token is a reset token: redeeming it sets the password and unlocks.
        let token = try #require(try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'account_locked'")
        }?.firstMatch(of: /accountLocked\(token: "([A-Za-z0-9_-]+)"\)/)).1
        _ = try fixture.services.reminder.reset(token: String(token), form: ["password": "brand new words", "password_confirmation": "brand new words"],
                                                client: owner)
        #expect(try fixture.services.lockout.lockedUntil(accountId: 1) == nil)
        #expect(try fixture.signIn(password: "brand new words", client: owner).session.accountId == 1)
        try fixture.services.reminder.sendReminder(email: "ann@example.com", client: owner)
        #expect(try queued(fixture, kind: "password_reset") == 1)
    }

    @Test func theOperatorLocksAndUnlocks() throws {
        let fixture = try TestFixture()
        try fixture.signUp()
        let operatorClient = ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local")
        let before = try fixture.signIn(client: owner)
        try fixture.services.lockout.lock(accountId: 1, for: 3600, client: operatorClient)
        #expect(try fixture.services.lockout.lockedUntil(accountId: 1) == fixture.clock.now() + 3600)
        #expect(try fixture.services.sessions.find(token: before.token.encoded) == nil, "the operator's lock ends sessions")
        #expect(throws: AccountError.invalidCredentials) { try fixture.signIn(client: owner) }
        try fixture.services.lockout.unlock(accountId: 1, client: operatorClient)
        #expect(try fixture.signIn(client: owner).session.accountId == 1)
        let events = try fixture.services.audit.list(AuditFilter(accountId: 1)).map(\.event)
        #expect(events.contains("unlock") && events.contains("lockout"))
    }
}
