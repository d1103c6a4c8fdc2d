// SecondFactorSignInTests.swift: the second step of a sign-in and the step-up, on the run's backend, with real one-time
// codes (enrolled through OneTimeCodes, computed from the enrolment's secret): the password alone gives a challenge and
// no session; the right code gives a two-factor session, the lookup and the cache say so; a challenge is used once,
// expires, and belongs to its browser; wrong codes lock the account like wrong passwords, and a locked account is
// refused with the right code; a recovery code works once; a step-up raises a session; a password reset keeps codes.
import Foundation
import Testing
@testable import AccountCore

@Suite struct SecondFactorSignInTests {
    let client = ClientInfo(userAgent: "Test/1", remoteAddress: "192.0.2.5")
    let binding: [UInt8] = Array(repeating: 7, count: 32)

    /// The code of the fixture's current step.
    func code(_ fixture: TestFixture, _ secret: [UInt8], steps: Int64 = 0) -> String {
        TOTP.code(secret: secret, step: TOTP.step(at: fixture.clock.now()) + steps)
    }

    /// The password step for `email`: the challenge it leaves (the test fails when it signs in instead).
    func challenge(_ fixture: TestFixture, _ email: String = "ann@example.com", rememberMe: Bool = false,
                   kind: SessionKind = .browser, binding: [UInt8]? = nil) throws -> String {
        do {
            _ = try fixture.services.authentication.signIn(email: email, password: "correct horse", rememberMe: rememberMe, client: client,
                                                           kind: kind, binding: binding ?? self.binding)
        } catch AccountError.secondFactorRequired(let challenge) {
            return challenge
        }
        throw FixtureError("the password alone signed in")
    }

    @Test func aRightPasswordGivesAChallengeAndNoSessionUntilTheCode() throws {
        let fixture = try TestFixture()
        let (id, _, secret, _) = try OneTimeCodesTests.enrolled(fixture)
        let sessions = try fixture.count("session")
        let challenge = try challenge(fixture, rememberMe: true)
        #expect(try fixture.count("session") == sessions, "no session before the second factor")
        #expect(SecretToken(encoded: challenge) != nil)
        let stored = try #require(try fixture.database.read { tx in
            try tx.row("SELECT digest, accountId, rememberMe, kind, expiresAt FROM secondFactorChallenge")
        })
        #expect(try stored.decode("digest") as Data == SecretToken(encoded: challenge)!.digest, "only the digest is stored")
        #expect(try stored.decode("accountId") as Int64 == id)
        #expect(try stored.decode("expiresAt") as Double == fixture.clock.now().timeIntervalSince1970 + 300, "five minutes by default")

        let grant = try fixture.services.secondFactor.complete(challenge: challenge, proof: .code(code(fixture, secret)), client: client,
                                                               here: nil, keepPrevious: false, binding: binding)
        #expect(grant.session.accountId == id && grant.session.factors == 2 && grant.session.rememberMe)
        let found = try #require(try fixture.services.sessions.find(token: grant.token.encoded))
        #expect(found.factors == 2, "the lookup reads the factors")
        #expect(try fixture.sessionRow(grant)?.decode("factors") as Int? == 2)
        let signIns = try fixture.database.read { tx in try tx.values(String.self, "SELECT detail FROM audit WHERE event = 'sign_in'") }
        #expect(signIns.last == "second factor; remember me")
    }

    @Test func anAccountWithoutCodesSignsInWithOneFactorAsBefore() throws {
        let fixture = try TestFixture()
        try fixture.signUp("ann@example.com")
        let grant = try fixture.signIn("ann@example.com")
        #expect(grant.session.factors == 1)
        #expect(try fixture.services.sessions.find(token: grant.token.encoded)?.factors == 1)
    }

    @Test func aChallengeIsUsedOnceExpiresAndBelongsToItsBrowser() throws {
        let fixture = try TestFixture()
        let (_, _, secret, _) = try OneTimeCodesTests.enrolled(fixture)
        let second = fixture.services.secondFactor
        let first = try challenge(fixture)
        #expect(throws: AccountError.refused("second_factor_expired"), "another browser") {
            try second.complete(challenge: first, proof: .code(code(fixture, secret)), client: client, here: nil, keepPrevious: false,
                                binding: Array(repeating: 8, count: 32))
        }
        #expect(throws: AccountError.refused("second_factor_expired"), "no browser binding") {
            try second.complete(challenge: first, proof: .code(code(fixture, secret)), client: client, here: nil, keepPrevious: false)
        }
        _ = try second.complete(challenge: first, proof: .code(code(fixture, secret)), client: client, here: nil, keepPrevious: false,
                                binding: binding)
        fixture.clock.advance(by: 30)
        #expect(throws: AccountError.refused("second_factor_expired"), "used once") {
            try second.complete(challenge: first, proof: .code(code(fixture, secret)), client: client, here: nil, keepPrevious: false,
                                binding: binding)
        }
        let late = try challenge(fixture)
        fixture.clock.advance(by: 301)
        #expect(try !second.isPending(challenge: late, binding: binding))
        #expect(throws: AccountError.refused("second_factor_expired"), "expired") {
            try second.complete(challenge: late, proof: .code(code(fixture, secret)), client: client, here: nil, keepPrevious: false,
                                binding: binding)
        }
        #expect(try fixture.services.retention.deleteEnded()[.secondFactorChallenges] == 1, "the pruner takes the expired one (the used one went when the next was made)")
        #expect(try fixture.count("secondFactorChallenge") == 0)
        #expect(throws: AccountError.refused("second_factor_expired"), "not a token") {
            try second.complete(challenge: "nonsense", proof: .code("123456"), client: client, here: nil, keepPrevious: false, binding: binding)
        }
    }

    @Test func anAppsChallengeHasNoBrowserAndMakesAnAPIToken() throws {
        let fixture = try TestFixture()
        let (_, _, secret, _) = try OneTimeCodesTests.enrolled(fixture)
        var challenge = ""
        do {
            _ = try fixture.services.authentication.signIn(email: "ann@example.com", password: "correct horse", rememberMe: false,
                                                           client: client, kind: .api)
        } catch AccountError.secondFactorRequired(let given) { challenge = given }
        let grant = try fixture.services.secondFactor.complete(challenge: challenge, proof: .code(code(fixture, secret)), client: client,
                                                               here: nil, keepPrevious: false)
        #expect(grant.session.kind == .api && grant.session.factors == 2)
    }

    @Test func aReusedCodeAndWrongCodesAreRefusedAndCountTowardTheLock() throws {
        let fixture = try TestFixture(lockout: LockoutPolicy(maxFailures: 3, addressMaxFailures: 0))
        let (id, _, secret, _) = try OneTimeCodesTests.enrolled(fixture)
        let second = fixture.services.secondFactor
        let used = code(fixture, secret)
        _ = try second.complete(challenge: try challenge(fixture), proof: .code(used), client: client, here: nil, keepPrevious: false,
                                binding: binding)
        let challenge = try challenge(fixture)
        #expect(throws: AccountError.invalidCredentials, "a code used already") {
            try second.complete(challenge: challenge, proof: .code(used), client: client, here: nil, keepPrevious: false, binding: binding)
        }
        #expect(throws: AccountError.invalidCredentials, "two steps ahead") {
            try second.complete(challenge: challenge, proof: .code(code(fixture, secret, steps: 2)), client: client, here: nil,
                                keepPrevious: false, binding: binding)
        }
        #expect(throws: AccountError.invalidCredentials, "not even a code") {
            try second.complete(challenge: challenge, proof: .code("letmein"), client: client, here: nil, keepPrevious: false, binding: binding)
        }
        #expect(try fixture.database.read { tx in try fixture.services.lockout.isLocked(accountId: id, in: tx) }, "three wrong codes lock")
        #expect(throws: AccountError.invalidCredentials, "locked: even the right code") {
            try second.complete(challenge: challenge, proof: .code(code(fixture, secret, steps: 1)), client: client, here: nil,
                                keepPrevious: false, binding: binding)
        }
        let failures = try fixture.database.read { tx in try tx.values(String.self, "SELECT detail FROM audit WHERE event = 'sign_in_failed'") }
        #expect(failures.filter { $0 == "second factor: wrong code" }.count == 3)
        #expect(failures.last == "second factor: account locked")
    }

    @Test func aCodeOneStepOffIsAcceptedAndARecoveryCodeWorksOnce() throws {
        let fixture = try TestFixture()
        let (_, _, secret, recovery) = try OneTimeCodesTests.enrolled(fixture)
        let second = fixture.services.secondFactor
        let behind = try second.complete(challenge: try challenge(fixture), proof: .code(code(fixture, secret, steps: 1)), client: client,
                                         here: nil, keepPrevious: false, binding: binding)
        #expect(behind.session.factors == 2, "one step of drift")
        let withRecovery = try second.complete(challenge: try challenge(fixture), proof: .code(recovery[0].uppercased()), client: client,
                                               here: nil, keepPrevious: false, binding: binding)
        #expect(withRecovery.session.factors == 2)
        #expect(throws: AccountError.invalidCredentials, "a recovery code once") {
            try second.complete(challenge: try challenge(fixture), proof: .code(recovery[0]), client: client, here: nil, keepPrevious: false,
                                binding: binding)
        }
    }

    @Test func aStepUpRaisesTheSessionAndCountsAsARecentSignIn() throws {
        let fixture = try TestFixture()
        try fixture.signUp("bob@example.com")
        let plain = try fixture.signIn("bob@example.com")
        #expect(throws: AccountError.refused("second_factor_none"), "no second factor to prove") {
            try fixture.services.secondFactor.stepUp(session: plain.token.digest, proof: .code("123456"), client: client)
        }
        let (_, session, secret, _) = try OneTimeCodesTests.enrolled(fixture)
        #expect(try fixture.database.read { tx in try tx.sessionFactors(digest: session) }?.factors == 2, "confirming the codes raised it")
        // A session from before the codes (or a way in that asked none) has one factor.
        try fixture.database.write { tx in _ = try tx.execute("UPDATE session SET factors = 1 WHERE digest = ?", [session]) }
        #expect(throws: AccountError.invalidCredentials) {
            try fixture.services.secondFactor.stepUp(session: session, proof: .code("000000" == code(fixture, secret) ? "111111" : "000000"),
                                                     client: client)
        }
        fixture.clock.advance(by: 3600)
        #expect(try !fixture.services.reauthentication.isRecent(session))
        try fixture.services.secondFactor.stepUp(session: session, proof: .code(code(fixture, secret)), client: client)
        #expect(try fixture.database.read { tx in try tx.sessionFactors(digest: session) }?.factors == 2)
        #expect(try fixture.services.reauthentication.isRecent(session))
        #expect(throws: AccountError.notFound) {
            try fixture.services.secondFactor.stepUp(session: Data(repeating: 1, count: 32), proof: .code("123456"), client: client)
        }
    }

    @Test func aPasswordResetKeepsTheCodesAndAsksForThemBeforeASession() throws {
        let fixture = try TestFixture()
        let (id, _, secret, _) = try OneTimeCodesTests.enrolled(fixture)
        try fixture.database.write { tx in try tx.execute("UPDATE emailAddress SET verifiedAt = 1") }   // reminders go to confirmed addresses
        try fixture.services.reminder.sendReminder(email: "ann@example.com")
        let message = try #require(try fixture.database.read { tx in
            try tx.value(String.self, "SELECT message FROM mailQueue WHERE kind = 'password_reset'")
        })
        let token = String(try #require(message.firstMatch(of: /passwordReset\(token: "([A-Za-z0-9_-]+)"\)/)).1)
        var challenge = ""
        do {
            _ = try fixture.services.reminder.reset(token: token, form: ["password": "battery staple", "password_confirmation": "battery staple"],
                                                    client: client, binding: binding)
            Issue.record("the reset link alone signed in an account with a second factor")
        } catch AccountError.secondFactorRequired(let given) { challenge = given }
        #expect(try fixture.count("session") == 0, "every session ended, none made")
        #expect(try fixture.database.read { tx in try fixture.services.oneTimeCodes.isEnrolled(accountId: id, in: tx) }, "codes kept")
        #expect(try fixture.services.signInMethods.hasSecondFactor(accountId: id))
        let grant = try fixture.services.secondFactor.complete(challenge: challenge, proof: .code(code(fixture, secret)), client: client,
                                                               here: nil, keepPrevious: false, binding: binding)
        #expect(grant.session.factors == 2)
        #expect(throws: AccountError.invalidCredentials, "the old password is gone") {
            try fixture.signIn("ann@example.com", password: "correct horse")
        }
    }

    @Test func theOperatorsResetRemovesTheCodesAuditedAndMailed() throws {
        let fixture = try TestFixture()
        let (id, _, _, _) = try OneTimeCodesTests.enrolled(fixture)
        let operatorClient = ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local")
        #expect(try fixture.services.secondFactor.reset(accountId: id, client: operatorClient) == [.oneTimeCode])
        #expect(try !fixture.services.signInMethods.hasSecondFactor(accountId: id))
        #expect(try fixture.count("recoveryCode") == 0)
        let rows = try fixture.database.read { tx in
            try tx.rows("SELECT detail, userAgent FROM audit WHERE event = 'second_factor_removed'")
        }
        #expect(rows.count == 1)
        let detail: String = try rows[0].decode("detail"), agent: String = try rows[0].decode("userAgent")
        #expect(detail == "operator reset" && agent == "frontdoor-cli")
        #expect(try fixture.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM mailQueue WHERE kind = 'second_factor_removed'") } == 1)
        #expect(try fixture.signIn("ann@example.com").session.factors == 1, "the password alone signs in again")
        #expect(try fixture.services.secondFactor.reset(accountId: id, client: operatorClient).isEmpty, "nothing left to remove")
        #expect(throws: AccountError.notFound) { try fixture.services.secondFactor.reset(accountId: 999, client: operatorClient) }
    }

    @Test func signInMethodsKnowTheCodesAsASecondFactorOnly() throws {
        let fixture = try TestFixture()
        let (id, _, _, _) = try OneTimeCodesTests.enrolled(fixture)
        let methods = fixture.services.signInMethods
        #expect(try methods.methods(accountId: id) == [.password, .oneTimeCode])
        #expect(try methods.hasSecondFactor(accountId: id))
        #expect(try fixture.database.write { tx in try methods.mayRemove(.password, accountId: id, in: tx) } == false,
                "codes alone sign nobody in")
    }
}
