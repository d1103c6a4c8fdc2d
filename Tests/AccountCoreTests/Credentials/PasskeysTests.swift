// PasskeysTests.swift: passkeys on the configured backend (SQLite by default; FRONTDOOR_TEST_BACKEND=postgresql runs
// them on PostgreSQL): real registrations and assertions made by SoftAuthenticator with swift-crypto keys, checked by
// the WebAuthn target, stored through the seam.
import Foundation
import Testing
@testable import AccountCore

struct PasskeysTests {
    let binding = [UInt8](repeating: 0xA5, count: 32)
    let otherBinding = [UInt8](repeating: 0x5A, count: 32)
    let client = ClientInfo()

    func refusal(_ body: () throws -> Void) -> String? {
        do { try body() } catch AccountError.refused(let key) { return key } catch { return "unexpected \(error)" }
        return nil
    }

    /// An account (signed up with a password) and a passkey registered for it.
    func withPasskey(_ fixture: TestFixture, email: String = "ann@example.com", name: String = "Laptop") throws -> (Int64, SoftAuthenticator) {
        try withPasskeyAndSession(fixture, email: email, name: name).map { ($0.0, $0.1) }!
    }

    /// As `withPasskey`, with the session the sign-up started (a password sign-in now asks for the passkey too).
    func withPasskeyAndSession(_ fixture: TestFixture, email: String = "ann@example.com", name: String = "Laptop") throws -> (Int64, SoftAuthenticator, SessionGrant)? {
        let grant = try fixture.signUp(email)
        let accountId = grant.session.accountId
        var authenticator = SoftAuthenticator()
        let passkeys = fixture.services.passkeys
        let options = try passkeys.beginRegistration(accountId: accountId, userName: email, displayName: "", binding: binding)
        try passkeys.finishRegistration(accountId: accountId, attestation: authenticator.create(options), name: name,
                                        defaultName: "Passkey", binding: binding, client: client)
        return (accountId, authenticator, grant)
    }

    func events(_ fixture: TestFixture, _ accountId: Int64) throws -> [String] {
        try fixture.database.read { tx in try tx.values(String.self, "SELECT event FROM audit WHERE accountId = ? ORDER BY id", [accountId]) }
    }

    @Test func aPasskeyIsAddedListedAndMailed() throws {
        let fixture = try TestFixture()
        let (accountId, authenticator) = try withPasskey(fixture)
        let listed = try fixture.services.passkeys.list(accountId: accountId)
        #expect(listed.map(\.name) == ["Laptop"])
        #expect(listed.first?.credentialId == Data(authenticator.credentialId))
        #expect(listed.first?.algorithm == -7 && listed.first?.lastUsedAt == nil)
        #expect(try events(fixture, accountId).contains("passkey_added"))
        #expect(try fixture.database.read { tx in try tx.values(String.self, "SELECT kind FROM mailQueue") }.contains("passkey_added"))
    }

    @Test func theRegistrationOptionsAskForADiscoverableVerifiedCredentialAndExcludeTheAccountsOwn() throws {
        let fixture = try TestFixture()
        let (accountId, authenticator) = try withPasskey(fixture)
        let options = try fixture.services.passkeys.beginRegistration(accountId: accountId, userName: "ann@example.com", displayName: "Ann",
                                                                        binding: binding)
        #expect(options.credentialIds == [authenticator.credentialId])
        #expect(options.userHandle == authenticator.userHandle && options.userHandle.count == 32, "the same derived handle each time")
        #expect(options.challenge.count == 32 && options.relyingPartyId == "127.0.0.1")
        let json = options.jsonObject
        #expect((json["authenticatorSelection"] as? [String: Any])?["residentKey"] as? String == "required")
        #expect((json["authenticatorSelection"] as? [String: Any])?["userVerification"] as? String == "required")
        #expect(json["attestation"] as? String == "none")
        #expect((json["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int } == [-7, -8, -257])
        let other = try fixture.signUp("bob@example.com").session.accountId
        let otherOptions = try fixture.services.passkeys.beginRegistration(accountId: other, userName: "bob", displayName: "", binding: binding)
        #expect(otherOptions.userHandle != options.userHandle)
    }

    @Test func aPasskeySignsInWithoutAnAddressAndStartsASession() throws {
        let fixture = try TestFixture()
        var (accountId, authenticator) = try withPasskey(fixture)
        let passkeys = fixture.services.passkeys
        let options = try passkeys.beginAssertion(.signIn, binding: binding)
        #expect(options.credentialIds.isEmpty, "a sign-in names no credential: the authenticator offers its own")
        let grant = try passkeys.signIn(assertion: authenticator.get(options), binding: binding, rememberMe: false, client: client)
        #expect(grant.session.accountId == accountId)
        let found = try fixture.services.sessions.find(token: grant.token.encoded)
        #expect(grant.session.factors == 2 && found?.factors == 2, "a passkey is two factors: the device and its user verification")
        #expect(try fixture.services.sessions.find(token: grant.token.encoded)?.accountId == accountId)
        let detail = try fixture.database.read { tx in
            try tx.value(String.self, "SELECT detail FROM audit WHERE accountId = ? AND event = 'sign_in' ORDER BY id DESC LIMIT 1", [accountId])
        }
        #expect(detail == "passkey")
        let stored = try #require(try passkeys.list(accountId: accountId).first)
        #expect(stored.signCount == 1 && stored.lastUsedAt == fixture.clock.now())
    }

    @Test func aPasswordSignInAsksForThePasskeyAsTheSecondFactor() throws {
        let fixture = try TestFixture()
        var (accountId, authenticator) = try withPasskey(fixture)
        var challenge = ""
        do {
            _ = try fixture.services.authentication.signIn(email: "ann@example.com", password: "correct horse", rememberMe: false,
                                                           client: client, binding: binding)
            Issue.record("the password alone signed in")
        } catch AccountError.secondFactorRequired(let made) {
            challenge = made
        }
        let passkeys = fixture.services.passkeys
        let options = try passkeys.beginAssertion(.secondFactor, accountId: accountId, binding: binding)
        #expect(options.credentialIds == [authenticator.credentialId])
        // Another account's challenge is not this one's.
        let bob = try fixture.signUp("bob@example.com").session.accountId
        let wrong = authenticator.get(try passkeys.beginAssertion(.secondFactor, accountId: bob, binding: binding))
        #expect(throws: AccountError.invalidCredentials) {
            _ = try fixture.services.secondFactor.complete(challenge: challenge, proof: .passkey(wrong), client: client, here: nil,
                                                           keepPrevious: false, binding: binding)
        }
        let grant = try fixture.services.secondFactor.complete(challenge: challenge, proof: .passkey(authenticator.get(options)), client: client,
                                                               here: nil, keepPrevious: false, binding: binding)
        #expect(grant.session.accountId == accountId && grant.session.factors == 2)
    }

    @Test func anAnswerIsUsedOnce() throws {
        let fixture = try TestFixture()
        var (_, authenticator) = try withPasskey(fixture)
        let passkeys = fixture.services.passkeys
        let answer = authenticator.get(try passkeys.beginAssertion(.signIn, binding: binding))
        _ = try passkeys.signIn(assertion: answer, binding: binding, rememberMe: false, client: client)
        #expect(refusal { _ = try passkeys.signIn(assertion: answer, binding: binding, rememberMe: false, client: client) }
                == "passkey_challenge_invalid")
    }

    @Test func aChallengeIsForOneBrowserOnePurposeAndFiveMinutes() throws {
        let fixture = try TestFixture()
        var (accountId, authenticator, session) = try #require(try withPasskeyAndSession(fixture))
        let passkeys = fixture.services.passkeys
        let answer = authenticator.get(try passkeys.beginAssertion(.signIn, binding: binding))
        #expect(refusal { _ = try passkeys.signIn(assertion: answer, binding: otherBinding, rememberMe: false, client: client) }
                == "passkey_challenge_invalid")
        #expect(refusal {
            try passkeys.reauthenticate(session: session.token.digest, accountId: accountId, assertion: answer, binding: binding, client: client)
        } == "passkey_challenge_invalid")
        #expect(refusal { try passkeys.verifySecondFactor(accountId: accountId, assertion: answer, binding: binding, client: client) }
                == "passkey_challenge_invalid")
        // Neither refusal used it up: the right browser still signs in with it.
        _ = try passkeys.signIn(assertion: answer, binding: binding, rememberMe: false, client: client)

        let late = authenticator.get(try passkeys.beginAssertion(.signIn, binding: binding))
        fixture.clock.advance(by: 301)
        #expect(refusal { _ = try passkeys.signIn(assertion: late, binding: binding, rememberMe: false, client: client) }
                == "passkey_challenge_invalid")
    }

    @Test(arguments: [("rp", 0x05), ("origin", 0x05), ("uv", 0x01)])
    func anAnswerThatLiesIsRefusedAndAudited(lie: String, flags: Int) throws {
        let fixture = try TestFixture()
        var (accountId, authenticator) = try withPasskey(fixture)
        let passkeys = fixture.services.passkeys
        let options = try passkeys.beginAssertion(.signIn, binding: binding)
        let answer = authenticator.get(options, rpId: lie == "rp" ? "example.com" : nil, origin: lie == "origin" ? "https://evil.test" : nil,
                                       flags: UInt8(flags))
        #expect(refusal { _ = try passkeys.signIn(assertion: answer, binding: binding, rememberMe: false, client: client) } == "passkey_invalid")
        #expect(try events(fixture, accountId).last == "sign_in_failed")
    }

    @Test func aForgedSignatureIsRefused() throws {
        let fixture = try TestFixture()
        var (_, authenticator) = try withPasskey(fixture)
        let passkeys = fixture.services.passkeys
        var answer = authenticator.get(try passkeys.beginAssertion(.signIn, binding: binding))
        answer.signature = [UInt8](try SoftAuthenticator().key.signature(for: answer.authenticatorData).derRepresentation)
        #expect(refusal { _ = try passkeys.signIn(assertion: answer, binding: binding, rememberMe: false, client: client) } == "passkey_invalid")
    }

    @Test func aRegistrationForAnotherRelyingPartyOrWithoutVerificationIsRefused() throws {
        let fixture = try TestFixture()
        let accountId = try fixture.signUp().session.accountId
        let passkeys = fixture.services.passkeys
        for (rpId, flags) in [("example.com", UInt8(0x05)), ("localhost", UInt8(0x01))] {
            var authenticator = SoftAuthenticator()
            let options = try passkeys.beginRegistration(accountId: accountId, userName: "ann", displayName: "", binding: binding)
            #expect(refusal {
                try passkeys.finishRegistration(accountId: accountId, attestation: authenticator.create(options, rpId: rpId, flags: flags),
                                                name: "", defaultName: "Passkey", binding: binding, client: client)
            } == "passkey_invalid")
        }
        #expect(try passkeys.list(accountId: accountId).isEmpty)
    }

    @Test func aCredentialBelongsToOneAccount() throws {
        let fixture = try TestFixture()
        var (_, authenticator) = try withPasskey(fixture)
        let bob = try fixture.signUp("bob@example.com").session.accountId
        let passkeys = fixture.services.passkeys
        let options = try passkeys.beginRegistration(accountId: bob, userName: "bob", displayName: "", binding: binding)
        #expect(refusal {
            try passkeys.finishRegistration(accountId: bob, attestation: authenticator.create(options), name: "", defaultName: "Passkey",
                                            binding: binding, client: client)
        } == "passkey_exists")
        // Nor does Ann's passkey prove Bob's second factor.
        var again = authenticator
        again.userHandle = []
        let challenge = try passkeys.beginAssertion(.secondFactor, accountId: bob, binding: binding)
        #expect(refusal { try passkeys.verifySecondFactor(accountId: bob, assertion: again.get(challenge), binding: binding, client: client) }
                == "passkey_invalid")
    }

    @Test func aCounterThatWentBackIsRecordedNotRefused() throws {
        let fixture = try TestFixture()
        var (accountId, authenticator) = try withPasskey(fixture)
        let passkeys = fixture.services.passkeys
        authenticator.signCount = 9
        _ = try passkeys.signIn(assertion: authenticator.get(try passkeys.beginAssertion(.signIn, binding: binding)), binding: binding,
                                rememberMe: false, client: client)
        authenticator.signCount = 2
        _ = try passkeys.signIn(assertion: authenticator.get(try passkeys.beginAssertion(.signIn, binding: binding)), binding: binding,
                                rememberMe: false, client: client)
        let stored = try #require(try passkeys.list(accountId: accountId).first)
        #expect(stored.counterWentBackAt == fixture.clock.now())
        #expect(stored.signCount == 10, "the higher counter is kept")
        #expect(try events(fixture, accountId).contains("passkey_sign_count_went_back"))
    }

    @Test func aLockedAccountIsRefused() throws {
        let fixture = try TestFixture()
        var (accountId, authenticator) = try withPasskey(fixture)
        try fixture.database.write { tx in
            try tx.execute("UPDATE account SET lockedUntil = ? WHERE id = ?", [fixture.clock.now().timeIntervalSince1970 + 600, accountId])
        }
        let passkeys = fixture.services.passkeys
        let answer = authenticator.get(try passkeys.beginAssertion(.signIn, binding: binding))
        #expect(throws: AccountError.invalidCredentials) {
            _ = try passkeys.signIn(assertion: answer, binding: binding, rememberMe: false, client: client)
        }
    }

    @Test func reauthenticationRecordsARecentSignIn() throws {
        let fixture = try TestFixture()
        var (accountId, authenticator, session) = try #require(try withPasskeyAndSession(fixture))
        fixture.clock.advance(by: SessionPolicy.default.reauthenticateAfter + 1)
        #expect(try !fixture.services.reauthentication.isRecent(session.token.digest))
        let passkeys = fixture.services.passkeys
        let options = try passkeys.beginAssertion(.reauthenticate, accountId: accountId, binding: binding)
        #expect(options.credentialIds == [authenticator.credentialId])
        try passkeys.reauthenticate(session: session.token.digest, accountId: accountId, assertion: authenticator.get(options),
                                    binding: binding, client: client)
        #expect(try fixture.services.reauthentication.isRecent(session.token.digest))
    }

    @Test func renameAndRemoveButNeverTheLastWayToSignIn() throws {
        let fixture = try TestFixture()
        let (accountId, _) = try withPasskey(fixture)
        let passkeys = fixture.services.passkeys
        let id = try #require(try passkeys.list(accountId: accountId).first?.id)
        try passkeys.rename(accountId: accountId, id: id, name: "  Old laptop ", client: client)
        #expect(try passkeys.list(accountId: accountId).map(\.name) == ["Old laptop"])
        #expect(refusal { try passkeys.rename(accountId: accountId, id: id, name: " ", client: client) } == "passkey_name_missing")
        // Without a password the passkey is the only way in.
        try fixture.database.write { tx in try tx.execute("UPDATE account SET passwordHash = '' WHERE id = ?", [accountId]) }
        #expect(refusal { try passkeys.remove(accountId: accountId, id: id, client: client) } == "passkey_last_method")
        // Another account cannot remove it.
        let bob = try fixture.signUp("bob@example.com").session.accountId
        #expect(throws: AccountError.notFound) { try passkeys.remove(accountId: bob, id: id, client: client) }
        // With the password back it goes, mailed and audited.
        try fixture.database.write { tx in try tx.execute("UPDATE account SET passwordHash = 'x' WHERE id = ?", [accountId]) }
        try passkeys.remove(accountId: accountId, id: id, client: client)
        #expect(try passkeys.list(accountId: accountId).isEmpty)
        #expect(try events(fixture, accountId).suffix(2) == ["passkey_renamed", "passkey_removed"])
        #expect(try fixture.database.read { tx in try tx.values(String.self, "SELECT kind FROM mailQueue") }.contains("passkey_removed"))
    }

    @Test func anUnnamedPasskeyTakesItsAuthenticatorsName() throws {
        let fixture = try TestFixture()
        let accountId = try fixture.signUp().session.accountId
        let services = fixture.services
        let aaguid: [UInt8] = [0xea, 0x9b, 0x8d, 0x66, 0x4d, 0x01, 0x1d, 0x21, 0x3c, 0xe4, 0xb6, 0xb4, 0x8c, 0xb5, 0x75, 0xd4]
        let policy = PasskeyPolicy(authenticatorNames: ["ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager"])
        let passkeys = Passkeys(database: services.database, policy: policy, sessions: services.sessions, lockout: services.lockout,
                                mail: services.mail, audit: services.audit, clock: fixture.clock, random: fixture.random, logger: .init(label: "test"))
        for (known, expected) in [(true, "Google Password Manager"), (false, "Passkey")] {
            var authenticator = SoftAuthenticator()
            if known { authenticator.aaguid = aaguid }
            let options = try passkeys.beginRegistration(accountId: accountId, userName: "ann", displayName: "", binding: binding)
            #expect(try passkeys.finishRegistration(accountId: accountId, attestation: authenticator.create(options), name: "",
                                                    defaultName: "Passkey", binding: binding, client: client).name == expected)
        }
    }

    @Test func thePrunerDeletesExpiredChallenges() throws {
        let fixture = try TestFixture()
        _ = try fixture.services.passkeys.beginAssertion(.signIn, binding: binding)
        fixture.clock.advance(by: 301)
        _ = try fixture.services.passkeys.beginAssertion(.signIn, binding: binding)
        let deleted = try fixture.services.retention.deleteEnded()
        #expect(deleted[.passkeyChallenges] == 1)
        #expect(try fixture.count("passkeyChallenge") == 1)
    }

    @Test func theRelyingPartyComesFromThePublicURL() {
        #expect(PasskeyPolicy(publicURL: "https://id.example.com").relyingPartyId == "id.example.com")
        #expect(PasskeyPolicy(publicURL: "https://id.example.com").origin == "https://id.example.com")
        #expect(PasskeyPolicy(publicURL: "https://ID.example.com:443/").origin == "https://id.example.com")
        #expect(PasskeyPolicy(publicURL: "http://localhost:8080").origin == "http://localhost:8080")
        #expect(PasskeyPolicy.aaguidString([UInt8](0..<16)) == "00010203-0405-0607-0809-0a0b0c0d0e0f")
    }
}
