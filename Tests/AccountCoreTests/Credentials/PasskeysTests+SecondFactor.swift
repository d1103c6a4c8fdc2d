// PasskeysTests+SecondFactor.swift: a passkey as the account's second factor. An app (the JSON API) cannot present
// one, so an account whose only second factor is a passkey is told to use a browser — never given a one-factor token,
// never left a challenge no app can finish. The session that adds a passkey counts as two factors from then on.
import Foundation
import Testing
@testable import AccountCore

extension PasskeysTests {
    @Test func anAppIsToldToUseABrowserWhenThePasskeyIsTheOnlySecondFactor() throws {
        let fixture = try TestFixture()
        _ = try withPasskey(fixture)
        let challenges = { try fixture.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM secondFactorChallenge") ?? 0 } }
        let before = try challenges()
        #expect(refusal {
            _ = try fixture.services.authentication.signIn(email: "ann@example.com", password: "correct horse", rememberMe: false,
                                                           client: client, kind: .api)
        } == "second_factor_browser_only")
        #expect(try challenges() == before, "no challenge an app could not finish")
        // In a browser the same password goes on to the passkey.
        #expect(throws: AccountError.self) {
            _ = try fixture.services.authentication.signIn(email: "ann@example.com", password: "correct horse", rememberMe: false,
                                                           client: client, binding: binding)
        }
        #expect(try challenges() == before + 1)
    }

    @Test func theSessionThatAddsAPasskeyCountsAsTwoFactors() throws {
        let fixture = try TestFixture()
        let grant = try fixture.signUp("ann@example.com")
        #expect(grant.session.factors == 1)
        var authenticator = SoftAuthenticator()
        let passkeys = fixture.services.passkeys
        let options = try passkeys.beginRegistration(accountId: grant.session.accountId, userName: "ann@example.com", displayName: "",
                                                     binding: binding)
        try passkeys.finishRegistration(accountId: grant.session.accountId, attestation: authenticator.create(options), name: "Laptop",
                                        defaultName: "Passkey", binding: binding, client: client, session: grant.session.digest)
        let factors = try fixture.database.read { tx in
            try tx.value(Int.self, "SELECT factors FROM session WHERE digest = ?", [grant.session.digest])
        }
        #expect(factors == 2)
    }

    @Test func theOperatorsResetRemovesThePasskeysAuditedAndMailed() throws {
        let fixture = try TestFixture()
        let (accountId, _) = try withPasskey(fixture)
        let operatorClient = ClientInfo(userAgent: "frontdoor-cli", remoteAddress: "local")
        #expect(try fixture.services.secondFactor.reset(accountId: accountId, client: operatorClient).count == 1)
        #expect(try fixture.count("passkey") == 0)
        #expect(try !fixture.services.signInMethods.hasSecondFactor(accountId: accountId))
        let details = try fixture.database.read { tx in
            try tx.values(String.self, "SELECT detail FROM audit WHERE event = 'passkey_removed' AND accountId = ?", [accountId])
        }
        #expect(details == ["operator reset: Laptop"])
        #expect(try fixture.database.read { tx in try tx.value(Int.self, "SELECT COUNT(*) FROM mailQueue WHERE kind = 'passkey_removed'") } == 1)
        #expect(try fixture.signIn("ann@example.com").session.factors == 1, "the password alone signs in again")
    }
}
