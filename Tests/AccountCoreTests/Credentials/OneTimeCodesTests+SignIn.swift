// OneTimeCodesTests+SignIn.swift: one-time codes as the account's second factor (SignInMethods' `oneTimeCode` case):
// after the password the sign-in asks for a code; a right code completes it once, a replayed one and a used
// recovery code do not; codes turned off, the password alone signs in again.
import AccountRules
import Foundation
import Testing
@testable import AccountCore

@Suite struct OneTimeCodesSignInTests {
    let client = ClientInfo(userAgent: "Test/1", remoteAddress: "192.0.2.6")

    /// The challenge of a right password on an account with a second factor.
    func challenge(_ fixture: TestFixture) throws -> String {
        do {
            _ = try fixture.signIn("ann@example.com", client: client)
        } catch AccountError.secondFactorRequired(let challenge) {
            return challenge
        }
        throw FixtureError("the password alone signed in")
    }

    func complete(_ fixture: TestFixture, _ challenge: String, _ code: String) throws -> SessionGrant {
        try fixture.services.secondFactor.complete(challenge: challenge, proof: .code(code), client: client, here: nil, keepPrevious: false)
    }

    @Test func oneTimeCodesAreASecondFactorThatSignsInOnce() throws {
        let fixture = try TestFixture()
        let account = try OneTimeCodesTests.enrolled(fixture)
        #expect(try fixture.services.signInMethods.methods(accountId: account.id).contains(.oneTimeCode))
        #expect(try fixture.services.signInMethods.hasSecondFactor(accountId: account.id))

        let code = TOTP.code(secret: account.secret, step: TOTP.step(at: fixture.clock.now()))
        let grant = try complete(fixture, try challenge(fixture), code)
        #expect(grant.session.accountId == account.id && grant.session.factors == 2)
        #expect(throws: AccountError.invalidCredentials) { _ = try complete(fixture, try challenge(fixture), code) }

        let recovery = try complete(fixture, try challenge(fixture), account.codes[0].uppercased())
        #expect(recovery.session.factors == 2)
        #expect(throws: AccountError.invalidCredentials) { _ = try complete(fixture, try challenge(fixture), account.codes[0]) }
    }

    @Test func codesTurnedOffThePasswordAloneSignsIn() throws {
        let fixture = try TestFixture()
        let account = try OneTimeCodesTests.enrolled(fixture)
        try fixture.services.oneTimeCodes.turnOff(session: account.session, client: client)
        #expect(try !fixture.services.signInMethods.methods(accountId: account.id).contains(.oneTimeCode))
        #expect(try fixture.signIn("ann@example.com", client: client).session.factors == 1)
    }
}
