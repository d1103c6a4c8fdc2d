// OneTimeCodesTests.swift: RFC 6238 codes and recovery codes on the run's backend: the RFC's vectors, enrolment and its
// first code, drift (±1 accepted, ±2 refused), no replay, recovery codes once, renewal, turning off, and the URI.
// Racing hosts are in OneTimeCodesTests+Hosts.swift.
import AccountRules
import Encodings
import Foundation
import Testing
@testable import AccountCore

@Suite struct OneTimeCodesTests {
    let client = ClientInfo(userAgent: "Test/1", remoteAddress: "192.0.2.5")

    /// An account with codes on: its id, session digest, secret and recovery codes. The clock is then one step past the
    /// confirming code's step (whose code is used up).
    static func enrolled(_ fixture: TestFixture, _ email: String = "ann@example.com") throws -> (id: Int64, session: Data, secret: [UInt8], codes: [String]) {
        let grant = try fixture.signUp(email)
        let enrolment = try fixture.services.oneTimeCodes.begin(session: grant.token.digest)
        let code = TOTP.code(secret: enrolment.secret, step: TOTP.step(at: fixture.clock.now()))
        let codes = try fixture.services.oneTimeCodes.confirm(session: grant.token.digest, code: code, client: ClientInfo())
        fixture.clock.advance(by: 30)
        return (grant.session.accountId, grant.token.digest, enrolment.secret, codes)
    }

    /// Runs `accept` in a write of its own.
    static func accept(_ fixture: TestFixture, _ accountId: Int64, _ code: String) throws -> Bool {
        try fixture.database.write { tx in try fixture.services.oneTimeCodes.accept(accountId: accountId, code: code, in: tx) }
    }

    func now(_ fixture: TestFixture) -> Int64 { TOTP.step(at: fixture.clock.now()) }

    // MARK: The generator

    /// RFC 6238 appendix B, SHA-1 rows: secret "12345678901234567890", 8 digits.
    @Test func theGeneratorGivesRFC6238sSHA1Vectors() {
        let secret = Array("12345678901234567890".utf8)
        let vectors: [(Double, String)] = [(59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
                                           (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130")]
        for (time, expected) in vectors {
            #expect(TOTP.code(secret: secret, step: TOTP.step(at: Date(timeIntervalSince1970: time)), digits: 8) == expected, "T = \(time)")
        }
        #expect(TOTP.code(secret: secret, step: 1).count == 6, "six digits by default")
        #expect(TOTP.code(secret: secret, step: 1) == "287082", "the 8-digit code's last six digits")
    }

    @Test func theURINamesIssuerAndAddressPercentEncoded() {
        let enrolment = Enrolment(secret: Array("12345678901234567890".utf8))
        #expect(enrolment.secretText == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(enrolment.groupedSecret == "GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ")
        #expect(enrolment.uri(issuer: "Acme Sign-in", label: "ann+x@example.com")
                == "otpauth://totp/Acme%20Sign-in:ann%2Bx%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Acme%20Sign-in"
                   + "&algorithm=SHA1&digits=6&period=30")
        #expect(enrolment.uri(issuer: "Zoë:1", label: "a@b.c").hasPrefix("otpauth://totp/Zo%C3%AB%3A1:a%40b.c?"))
    }

    // MARK: Enrolment

    @Test func aFirstCodeConfirmsTheEnrolmentAndGivesTenRecoveryCodesOnce() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("ann@example.com")
        let codes = fixture.services.oneTimeCodes
        let enrolment = try codes.begin(session: grant.token.digest)
        #expect(enrolment.secret.count == 20, "160 bits")
        #expect(try codes.state(accountId: grant.session.accountId) == TwoStepState(enabled: false, recoveryCodesLeft: 0, enrolling: true))
        #expect(try fixture.database.read { tx in try codes.isEnrolled(accountId: grant.session.accountId, in: tx) } == false)
        let stored = try #require(try fixture.database.read { tx in try tx.value(Data.self, "SELECT sealedSecret FROM oneTimeCode") })
        #expect(stored.range(of: Data(enrolment.secret)) == nil, "the secret is stored sealed")

        #expect(invalidKeys { _ = try codes.confirm(session: grant.token.digest, code: "000000", client: client) } == ["code:wrong_code"]
                || TOTP.code(secret: enrolment.secret, step: now(fixture)) == "000000")
        #expect(invalidKeys { _ = try codes.confirm(session: grant.token.digest, code: "12ab", client: client) } == ["code:wrong_code"])
        let recovery = try codes.confirm(session: grant.token.digest, code: TOTP.code(secret: enrolment.secret, step: now(fixture)), client: client)
        #expect(recovery.count == 10 && Set(recovery).count == 10)
        #expect(recovery.allSatisfy { $0.wholeMatch(of: /[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}/) != nil && !$0.contains(where: { "01ilo".contains($0) }) })
        #expect(try codes.state(accountId: grant.session.accountId) == TwoStepState(enabled: true, recoveryCodesLeft: 10, enrolling: false))
        #expect(try fixture.database.read { tx in try tx.sessionFactors(digest: grant.token.digest)?.factors } == 2,
                "the session that confirmed proved both factors")
        #expect(try fixture.audits(.secondFactorEnabled).count == 1)
        #expect(try fixture.mailKinds(to: "ann@example.com").contains("second_factor_enabled"))
        let digests = try fixture.database.read { tx in try tx.values(Data.self, "SELECT digest FROM recoveryCode") }
        #expect(digests.count == 10 && digests.allSatisfy { $0.count == 32 }, "digests only")
        #expect(throws: AccountError.refused("two_step_already_on")) { try codes.begin(session: grant.token.digest) }
        #expect(throws: AccountError.refused("two_step_not_begun")) {
            try codes.confirm(session: grant.token.digest, code: TOTP.code(secret: enrolment.secret, step: now(fixture)), client: client)
        }
    }

    @Test func aNewBeginReplacesTheSecretAndTheOldOnesCodesNoLongerConfirm() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("ann@example.com")
        let codes = fixture.services.oneTimeCodes
        let first = try codes.begin(session: grant.token.digest)
        let second = try codes.begin(session: grant.token.digest)
        #expect(first.secret != second.secret)
        #expect(try codes.pending(accountId: grant.session.accountId) == second)
        #expect(invalidKeys { _ = try codes.confirm(session: grant.token.digest, code: TOTP.code(secret: first.secret, step: now(fixture)), client: client) }
                == ["code:wrong_code"])
        _ = try codes.confirm(session: grant.token.digest, code: TOTP.code(secret: second.secret, step: now(fixture)), client: client)
    }

    @Test func enrolmentNeedsARecentSignIn() throws {
        let fixture = try TestFixture(session: SessionPolicy(reauthenticateAfter: 600))
        let grant = try fixture.signUp("ann@example.com")
        fixture.clock.advance(by: 601)
        #expect(throws: AccountError.reauthenticationRequired) { try fixture.services.oneTimeCodes.begin(session: grant.token.digest) }
    }

    // MARK: Accepting codes

    @Test func theCurrentCodeIsAcceptedOnceAndTheConfirmingCodeNever() throws {
        let fixture = try TestFixture()
        let account = try Self.enrolled(fixture)
        #expect(try !Self.accept(fixture, account.id, TOTP.code(secret: account.secret, step: now(fixture) - 1)),
                "the code that confirmed the enrolment is used")
        let code = TOTP.code(secret: account.secret, step: now(fixture))
        #expect(try Self.accept(fixture, account.id, code))
        #expect(try !Self.accept(fixture, account.id, code), "the same code twice")
        fixture.clock.advance(by: 29)
        #expect(try !Self.accept(fixture, account.id, code), "nor later in its window of drift")
        #expect(try fixture.database.read { tx in try fixture.services.oneTimeCodes.isEnrolled(accountId: account.id, in: tx) })
    }

    @Test func oneStepOfDriftEitherWayIsAcceptedTwoAreNot() throws {
        let fixture = try TestFixture()
        let account = try Self.enrolled(fixture)
        fixture.clock.advance(by: 300)
        let step = now(fixture)
        #expect(try !Self.accept(fixture, account.id, TOTP.code(secret: account.secret, step: step - 2)), "two steps behind")
        #expect(try !Self.accept(fixture, account.id, TOTP.code(secret: account.secret, step: step + 2)), "two steps ahead")
        #expect(try Self.accept(fixture, account.id, TOTP.code(secret: account.secret, step: step - 1)), "one step behind")
        #expect(try Self.accept(fixture, account.id, TOTP.code(secret: account.secret, step: step)))
        #expect(try Self.accept(fixture, account.id, TOTP.code(secret: account.secret, step: step + 1)), "one step ahead")
        #expect(try !Self.accept(fixture, account.id, TOTP.code(secret: account.secret, step: step)), "a step before the last used")
        #expect(try fixture.database.read { tx in try tx.value(Int64.self, "SELECT lastUsedStep FROM oneTimeCode") } == step + 1)
    }

    @Test func anUnconfirmedEnrolmentOrAnotherAccountsCodeIsRefused() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("bob@example.com")
        let enrolment = try fixture.services.oneTimeCodes.begin(session: grant.token.digest)
        #expect(try !Self.accept(fixture, grant.session.accountId, TOTP.code(secret: enrolment.secret, step: now(fixture))))
        let ann = try Self.enrolled(fixture)
        #expect(try !Self.accept(fixture, grant.session.accountId, TOTP.code(secret: ann.secret, step: now(fixture))))
        #expect(try !Self.accept(fixture, grant.session.accountId, ann.codes[0]), "another account's recovery code")
        #expect(try !Self.accept(fixture, ann.id, ""), "nothing")
        #expect(try !Self.accept(fixture, ann.id, "abcd-efgh-jkm"), "too short")
    }

    @Test func aRecoveryCodeWorksOnceWhateverItsCaseAndDashes() throws {
        let fixture = try TestFixture()
        let account = try Self.enrolled(fixture)
        let typed = " " + account.codes[3].uppercased().replacingOccurrences(of: "-", with: " ") + " "
        #expect(try fixture.database.write { tx in try fixture.services.oneTimeCodes.check(accountId: account.id, code: typed, in: tx) } == .recoveryCode)
        #expect(try !Self.accept(fixture, account.id, account.codes[3]), "used up")
        #expect(try fixture.services.oneTimeCodes.recoveryCodesLeft(accountId: account.id) == 9)
        #expect(try Self.accept(fixture, account.id, account.codes[4]))
        #expect(try fixture.services.oneTimeCodes.recoveryCodesLeft(accountId: account.id) == 8)
    }

    // MARK: Renewing and turning off

    @Test func newRecoveryCodesReplaceAllTheOldOnes() throws {
        let fixture = try TestFixture()
        let account = try Self.enrolled(fixture)
        #expect(try Self.accept(fixture, account.id, account.codes[0]))
        let fresh = try fixture.services.oneTimeCodes.renewRecoveryCodes(session: account.session, client: client)
        #expect(fresh.count == 10 && Set(fresh).isDisjoint(with: account.codes))
        #expect(try fixture.services.oneTimeCodes.recoveryCodesLeft(accountId: account.id) == 10)
        #expect(try !Self.accept(fixture, account.id, account.codes[1]), "an old code")
        #expect(try Self.accept(fixture, account.id, fresh[1]))
        #expect(try fixture.audits(.recoveryCodesRenewed).count == 1)
    }

    @Test func turningOffNeedsARecentSignInAndRemovesEverything() throws {
        let fixture = try TestFixture(session: SessionPolicy(reauthenticateAfter: 600))
        let account = try Self.enrolled(fixture)
        fixture.clock.advance(by: 601)
        #expect(throws: AccountError.reauthenticationRequired) { try fixture.services.oneTimeCodes.turnOff(session: account.session, client: client) }
        #expect(throws: AccountError.reauthenticationRequired) { _ = try fixture.services.oneTimeCodes.renewRecoveryCodes(session: account.session, client: client) }
        try fixture.services.reauthentication.confirm(session: account.session, password: "correct horse", client: client)
        try fixture.services.oneTimeCodes.turnOff(session: account.session, client: client)
        #expect(try fixture.database.read { tx in try fixture.services.oneTimeCodes.isEnrolled(accountId: account.id, in: tx) } == false)
        #expect(try fixture.count("oneTimeCode") == 0 && fixture.count("recoveryCode") == 0)
        #expect(try !Self.accept(fixture, account.id, account.codes[0]))
        #expect(try fixture.audits(.secondFactorRemoved).count == 1)
        #expect(try fixture.mailKinds(to: "ann@example.com").last == "second_factor_removed")
        #expect(throws: AccountError.refused("two_step_off")) { try fixture.services.oneTimeCodes.turnOff(session: account.session, client: client) }
        #expect(try fixture.database.write { tx in try fixture.services.oneTimeCodes.remove(accountId: account.id, client: client, in: tx) } == false,
                "removing nothing is no event")
        #expect(try fixture.audits(.secondFactorRemoved).count == 1)
    }

    @Test func aSecretTheTokenKeyNoLongerOpensTakesNoCodeButRecoveryCodesStillWork() throws {
        let fixture = try TestFixture()
        let account = try Self.enrolled(fixture)
        let foreign = try TokenVault.ephemeral(random: SeededRandomSource(seed: 99))
            .seal(Data(account.secret), context: OneTimeCodes.context(accountId: account.id))
        _ = try fixture.database.write { tx in try tx.execute("UPDATE oneTimeCode SET sealedSecret = ?", [foreign]) }
        #expect(try !Self.accept(fixture, account.id, TOTP.code(secret: account.secret, step: now(fixture))), "refused, not an error")
        #expect(try Self.accept(fixture, account.id, account.codes[0]))
        try fixture.services.oneTimeCodes.turnOff(session: account.session, client: client)
        _ = try fixture.services.oneTimeCodes.begin(session: account.session)
    }

    @Test func deletingTheAccountTakesItsCodes() throws {
        let fixture = try TestFixture()
        let account = try Self.enrolled(fixture)
        _ = try fixture.database.write { tx in try tx.execute("DELETE FROM account WHERE id = ?", [account.id]) }
        #expect(try fixture.count("oneTimeCode") == 0 && fixture.count("recoveryCode") == 0)
    }
}
