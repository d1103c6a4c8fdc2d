// OneTimeCodesTests+Hosts.swift: one code taken by two hosts at once (one SQLite file, or one PostgreSQL database at
// READ COMMITTED): the conditional UPDATE lets exactly one through, for a one-time code and for a recovery code.
import AccountRules
import Foundation
import Locking
import StorageTestKit
import Testing
@testable import AccountCore

@Suite struct OneTimeCodesHostsTests {
    @Test func twoHostsTakingTheSameCodeAtOnceLetExactlyOneThrough() throws {
        let hosts = try SeveralHostsTests.Hosts()
        defer { hosts.remove() }
        let grant = try hosts.a.services.registration.signUp(TestFixture.form(email: "ann@example.com"), client: ClientInfo())
        guard case .signedIn(let session) = grant else { Issue.record("sign-up did not sign in"); return }
        let enrolment = try hosts.a.services.oneTimeCodes.begin(session: session.token.digest)
        let recovery = try hosts.b.services.oneTimeCodes.confirm(session: session.token.digest,
                                                                 code: TOTP.code(secret: enrolment.secret, step: TOTP.step(at: hosts.clock.now())),
                                                                 client: ClientInfo())
        let accountId = session.session.accountId
        for round in 0..<3 {
            hosts.clock.advance(by: 30)
            let code = TOTP.code(secret: enrolment.secret, step: TOTP.step(at: hosts.clock.now()))
            for candidate in [code, recovery[round]] {
                let accepted = Locked(0)
                let errors = Racers.outcomes(8) { index in
                    let host = index % 2 == 0 ? hosts.a : hosts.b
                    let ok = try host.database.write { tx in try host.services.oneTimeCodes.accept(accountId: accountId, code: candidate, in: tx) }
                    if ok { accepted.change { $0 += 1 } }
                }
                #expect(errors.compactMap { $0.map { "\($0)" } } == [], "round \(round)")
                #expect(accepted.withLock { $0 } == 1, "round \(round): exactly one host takes \(candidate)")
            }
        }
    }
}
