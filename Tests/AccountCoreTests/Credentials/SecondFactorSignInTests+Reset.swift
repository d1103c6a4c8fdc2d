// SecondFactorSignInTests+Reset.swift: a password reset of an account with a second factor keeps the account's lock
// and its failure count. The mailed link proves the mailbox, not the second factor: were the lock lifted, whoever reads
// the mail would get a fresh round of code guesses with every reset.
import Foundation
import Testing
@testable import AccountCore

extension SecondFactorSignInTests {
    @Test func aPasswordResetLiftsNoLockWhileASecondFactorIsStillToCome() throws {
        let fixture = try TestFixture(lockout: LockoutPolicy(maxFailures: 3, addressMaxFailures: 0))
        let (id, _, secret, _) = try OneTimeCodesTests.enrolled(fixture)
        _ = try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }
        // The link is asked for first: a locked account gets no reminder.
        try fixture.services.reminder.sendReminder(email: "ann@example.com")
        let message = try #require(try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'password_reset'")
        })
        let token = String(try #require(message.firstMatch(of: /passwordReset\(token: "([A-Za-z0-9_-]+)"\)/)).1)
        let second = fixture.services.secondFactor
        let guessing = try challenge(fixture)
        for guess in ["000000", "111111", "222222"] {
            #expect(throws: AccountError.invalidCredentials) {
                try second.complete(challenge: guessing, proof: .code(guess), client: client, here: nil, keepPrevious: false, binding: binding)
            }
        }
        let locked = { try fixture.database.read { tx in try fixture.services.lockout.isLocked(accountId: id, in: tx) } }
        #expect(try locked())
        var afterReset = ""
        do {
            _ = try fixture.services.reminder.reset(token: token, form: ["password": "battery staple", "password_confirmation": "battery staple"],
                                                    client: client, binding: binding)
        } catch AccountError.secondFactorRequired(let given) { afterReset = given }
        #expect(try locked(), "the reset proved the mailbox, not the second factor")
        #expect(throws: AccountError.invalidCredentials, "no fresh guesses: even the right code waits for the lock to end") {
            try second.complete(challenge: afterReset, proof: .code(code(fixture, secret, steps: 1)), client: client, here: nil,
                                keepPrevious: false, binding: binding)
        }
    }
}
