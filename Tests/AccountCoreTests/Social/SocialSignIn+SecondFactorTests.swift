// SocialSignIn+SecondFactorTests.swift: a provider is one factor. An account with one-time codes that a linked identity
// signs in to gets the second step's challenge and no session; the challenge finishes in the same browser with a code
// (two factors); linking a pending identity after the password or after another linked provider asks it too and links
// nothing; an app's provider token gets an unbound challenge.
import Foundation
import Testing
@testable import AccountCore

@Suite struct SocialSignInSecondFactorTests {
    /// Turns codes on for the account of `grant` (a fresh sign-in is recent); returns the key.
    private func enrol(_ fixture: TestFixture, _ grant: SessionGrant) throws -> [UInt8] {
        let enrolment = try fixture.services.oneTimeCodes.begin(session: grant.session.digest)
        _ = try fixture.services.oneTimeCodes.confirm(session: grant.session.digest, code: code(fixture, enrolment.secret), client: ClientInfo())
        fixture.clock.advance(by: 30)   // the enrolment's code is spent: the next ones are the next step's
        return enrolment.secret
    }

    private func code(_ fixture: TestFixture, _ secret: [UInt8]) -> String {
        TOTP.code(secret: secret, step: TOTP.step(at: fixture.clock.now()))
    }

    /// The challenge of a `.secondFactorRequired` thrown by `body`, or nil.
    private func challenge(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
        } catch AccountError.secondFactorRequired(let challenge) {
            return challenge
        } catch {
            Issue.record("expected secondFactorRequired, got \(error)")
        }
        return nil
    }

    private func sessions(_ fixture: TestFixture) throws -> Int {
        try fixture.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM session") ?? 0 }
    }

    @Test func aLinkedIdentityGetsTheSecondStepThenTwoFactors() throws {
        let fixture = try TestFixture()
        let (grant, _) = try fixture.socialSignIn(identity("corp-1", email: "ann@example.com"))
        let secret = try enrol(fixture, grant)
        let before = try sessions(fixture)
        let asked = try #require(challenge { try fixture.social(identity("corp-1", email: "ann@example.com")) })
        #expect(try sessions(fixture) == before, "no session on the provider alone")
        // Bound to the browser the flow ran in.
        #expect(throws: AccountError.refused("second_factor_expired")) {
            try fixture.services.secondFactor.complete(challenge: asked, proof: .code(code(fixture, secret)), client: ClientInfo(),
                                                       here: nil, keepPrevious: false, binding: otherBrowser)
        }
        let signedIn = try fixture.services.secondFactor.complete(challenge: asked, proof: .code(code(fixture, secret)), client: ClientInfo(),
                                                                  here: nil, keepPrevious: false, binding: browser)
        #expect(signedIn.session.accountId == grant.session.accountId)
        let factors = try fixture.database.read { tx in
            try tx.value(Int.self, "SELECT factors FROM session WHERE digest = ?", [signedIn.session.digest])
        }
        #expect(factors == 2)
    }

    @Test func linkingAfterThePasswordAsksTheCodeAndLinksNothing() throws {
        let fixture = try TestFixture()
        let secret = try enrol(fixture, try fixture.signUp("ann@example.com"))
        let pending = try fixture.socialPending(identity("corp-2", email: "ann@example.com"))
        #expect(throws: AccountError.invalidCredentials) {
            try fixture.services.social.linkWithPassword(pendingToken: pending, binding: browser, password: "wrong horse", client: ClientInfo(),
                                                        here: nil)
        }
        let asked = try #require(challenge {
            try fixture.services.social.linkWithPassword(pendingToken: pending, binding: browser, password: "correct horse", client: ClientInfo(),
                                                        here: nil)
        })
        #expect(try fixture.linkedIdentities().isEmpty, "nothing linked on one factor")
        _ = try fixture.services.secondFactor.complete(challenge: asked, proof: .code(code(fixture, secret)), client: ClientInfo(), here: nil,
                                                       keepPrevious: false, binding: browser)
        #expect(try fixture.linkedIdentities().isEmpty)
    }

    @Test func linkingAfterAnotherLinkedProviderAsksTheCodeToo() throws {
        let fixture = try TestFixture()
        let (grant, _) = try fixture.socialSignIn(identity("corp-home", email: "ann@example.com"))
        _ = try enrol(fixture, grant)
        let pending = try fixture.socialPending(identity("gh-1", provider: "github", email: "ann@example.com"))
        _ = try #require(challenge {
            try fixture.social(identity("corp-home", email: "ann@example.com"), purpose: .linkPending, pendingToken: pending)
        })
        #expect(try fixture.linkedIdentities() == ["corp/corp-home→\(grant.session.accountId)"])
    }

    @Test func anAppsProviderTokenGetsAnUnboundChallenge() throws {
        let fixture = try TestFixture()
        let (grant, _) = try fixture.socialSignIn(identity("corp-3", email: "ann@example.com"))
        let secret = try enrol(fixture, grant)
        let asked = try #require(challenge { try fixture.services.social.signInWithProviderToken(identity("corp-3", email: "ann@example.com"),
                                                                                                  client: ClientInfo()) })
        let signedIn = try fixture.services.secondFactor.complete(challenge: asked, proof: .code(code(fixture, secret)), client: ClientInfo(),
                                                                  here: nil, keepPrevious: false)
        #expect(signedIn.session.kind == .api)
    }
}
