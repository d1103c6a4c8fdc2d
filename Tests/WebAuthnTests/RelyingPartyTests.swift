// RelyingPartyTests.swift: the two ceremonies end to end with real keys (TestAuthenticator): each algorithm registers
// and signs in; each check refuses what it exists to refuse, with its own error; the counter is reported, not thrown.
import Crypto
import Testing
@testable @_spi(Testing) import WebAuthn

struct RelyingPartyTests {
    let party = TestAuthenticator.party
    let challenge: [UInt8] = Array(repeating: 0xA5, count: 16) + Array(0..<16)

    @Test(arguments: TestAuthenticator.Kind.allCases)
    func eachAlgorithmRegistersAndItsAssertionVerifies(kind: TestAuthenticator.Kind) throws {
        let authenticator = TestAuthenticator(kind)
        let (clientData, object) = authenticator.register(challenge: challenge)
        let credential = try party.verifyRegistration(clientDataJSON: clientData, attestationObject: object, challenge: challenge)
        #expect(credential.credentialId == authenticator.credentialId)
        #expect(credential.publicKey == authenticator.coseKey.encoded)
        #expect(credential.algorithm == kind.algorithm)
        #expect(credential.aaguid == authenticator.aaguid)
        #expect(credential.signCount == 0 && credential.userVerified && !credential.backupEligible && !credential.backedUp)
        #expect(credential.attestationFormat == "none")

        let (assertionData, authData, signature) = try authenticator.assert(challenge: challenge, signCount: 3)
        let verified = try party.verifyAssertion(clientDataJSON: assertionData, authenticatorData: authData, signature: signature,
                                                 publicKey: credential.publicKey, storedSignCount: 2, challenge: challenge)
        #expect(verified == VerifiedAssertion(signCount: 3, userVerified: true, backedUp: false, counterWentBack: false))
    }

    @Test func backupFlagsAreReportedAndAnyAttestationFormatIsAcceptedWithItsStatementIgnored() throws {
        let authenticator = TestAuthenticator(.es256)
        // A "packed" statement whose signature is garbage: not checked, by design (RelyingParty.swift says why).
        let statement = CBORValue.map([(.text("alg"), .int(-7)), (.text("sig"), .bytes([1, 2, 3]))])
        let (clientData, object) = authenticator.register(challenge: challenge, flags: 0x5D, format: "packed", statement: statement)
        let credential = try party.verifyRegistration(clientDataJSON: clientData, attestationObject: object, challenge: challenge)
        #expect(credential.attestationFormat == "packed" && credential.backupEligible && credential.backedUp)
        let (data, authData, signature) = try authenticator.assert(challenge: challenge, flags: 0x1D, signCount: 0)
        let verified = try party.verifyAssertion(clientDataJSON: data, authenticatorData: authData, signature: signature,
                                                 publicKey: credential.publicKey, storedSignCount: 0, challenge: challenge)
        #expect(verified.backedUp && verified.userVerified)
    }

    // MARK: registration refusals

    func register(expected: [UInt8]? = nil,
                  requireUserVerification: Bool = true, party: RelyingParty = TestAuthenticator.party,
                  _ response: (clientData: [UInt8], object: [UInt8])) -> WebAuthnError? {
        do {
            _ = try party.verifyRegistration(clientDataJSON: response.clientData, attestationObject: response.object,
                                             challenge: expected ?? challenge, requireUserVerification: requireUserVerification)
            return nil
        } catch { return error }
    }

    @Test func registrationRefusesEachBrokenCheckWithItsError() {
        let a = TestAuthenticator(.es256)
        #expect(register(expected: Array(challenge.dropLast()) + [0], a.register(challenge: challenge)) == .challengeMismatch)
        #expect(register(expected: Array(challenge.dropLast()), a.register(challenge: challenge)) == .challengeMismatch)
        #expect(register(a.register(challenge: challenge, type: "webauthn.get")) == .wrongType)
        #expect(register(a.register(challenge: challenge, origin: "https://id.example.com:8443")) == .originNotAllowed)
        #expect(register(a.register(challenge: challenge, origin: "https://evil.example")) == .originNotAllowed)
        #expect(register(a.register(challenge: challenge, rpId: "example.com")) == .relyingPartyMismatch)
        #expect(register(a.register(challenge: challenge, flags: 0x44)) == .userNotPresent)
        #expect(register(a.register(challenge: challenge, flags: 0x41)) == .userNotVerified)
        #expect(register(requireUserVerification: false, a.register(challenge: challenge, flags: 0x41)) == nil)
        #expect(register(a.register(challenge: challenge, flags: 0x05)) == .attestedCredentialMissing)
        let crossOrigin = TestAuthenticator.clientData(type: "webauthn.create", challenge: challenge, crossOrigin: true)
        #expect(register((crossOrigin, a.register(challenge: challenge).1)) == .crossOrigin)
        let noCrossOrigin = TestAuthenticator.clientData(type: "webauthn.create", challenge: challenge, crossOrigin: nil)
        #expect(register((noCrossOrigin, a.register(challenge: challenge).1)) == nil)
    }

    @Test func registrationRefusesAnAttestationObjectThatIsNotTheThreeMemberMap() {
        let (clientData, good) = TestAuthenticator(.es256).register(challenge: challenge)
        #expect(register((clientData, good + [0])) == .malformed(.attestationObject))
        #expect(register((clientData, CBORValue.array([]).encoded)) == .malformed(.attestationObject))
        let noFormat = CBORValue.map([(.text("attStmt"), .map([])), (.text("authData"), .bytes([]))]).encoded
        #expect(register((clientData, noFormat)) == .malformed(.attestationObject))
        let textAuthData = CBORValue.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])),
                                          (.text("authData"), .text("x"))]).encoded
        #expect(register((clientData, textAuthData)) == .malformed(.attestationObject))
        #expect(register((Array("not json".utf8), good)) == .malformed(.clientData))
    }

    // MARK: assertion refusals

    func assert(_ authenticator: TestAuthenticator, expected: [UInt8]? = nil, requireUserVerification: Bool = true,
                stored: UInt32 = 0, _ response: ([UInt8], [UInt8], [UInt8])) -> Result<VerifiedAssertion, WebAuthnError> {
        Result { () throws(WebAuthnError) in
            try party.verifyAssertion(clientDataJSON: response.0, authenticatorData: response.1, signature: response.2,
                                      publicKey: authenticator.coseKey.encoded, storedSignCount: stored,
                                      challenge: expected ?? challenge, requireUserVerification: requireUserVerification)
        }
    }

    func error(_ result: Result<VerifiedAssertion, WebAuthnError>) -> WebAuthnError? {
        if case .failure(let error) = result { error } else { nil }
    }

    @Test(arguments: TestAuthenticator.Kind.allCases)
    func assertionRefusesEachBrokenCheckWithItsError(kind: TestAuthenticator.Kind) throws {
        let a = TestAuthenticator(kind)
        #expect(error(assert(a, expected: [1, 2, 3], try a.assert(challenge: challenge))) == .challengeMismatch)
        #expect(error(assert(a, try a.assert(challenge: challenge, type: "webauthn.create"))) == .wrongType)
        #expect(error(assert(a, try a.assert(challenge: challenge, origin: "http://id.example.com"))) == .originNotAllowed)
        #expect(error(assert(a, try a.assert(challenge: challenge, rpId: "other.example.com"))) == .relyingPartyMismatch)
        #expect(error(assert(a, try a.assert(challenge: challenge, flags: 0x04))) == .userNotPresent)
        #expect(error(assert(a, try a.assert(challenge: challenge, flags: 0x01))) == .userNotVerified)
        #expect(error(assert(a, requireUserVerification: false, try a.assert(challenge: challenge, flags: 0x01))) == nil)

        let (clientData, authData, signature) = try a.assert(challenge: challenge)
        var tampered = signature
        tampered[tampered.count - 1] ^= 0x01   // the last byte of DER's s, Ed25519's S, RSA's block: still well-formed
        #expect(error(assert(a, (clientData, authData, tampered))) == .badSignature)
        var counted = authData
        counted[36] ^= 0x01                     // the counter: a signed byte the verifier does not otherwise check
        #expect(error(assert(a, (clientData, counted, signature))) == .badSignature)
        var otherClientData = clientData
        otherClientData.insert(0x20, at: 1)     // white space: the same JSON, other bytes, another hash
        #expect(error(assert(a, (otherClientData, authData, signature))) == .badSignature)
        let other = TestAuthenticator(kind == .rs256 ? .es256 : kind)
        if kind != .rs256 {
            #expect(error(assert(other, (clientData, authData, signature))) == .badSignature, "another key of the same kind")
        }
    }

    @Test func anES256SignatureMustBeDERNotRawRAndS() throws {
        let a = TestAuthenticator(.es256)
        let (clientData, authData, _) = try a.assert(challenge: challenge)
        guard case .p256(let key) = a.key else { return }
        let raw = Array(try key.signature(for: authData + Array(SHA256.hash(data: clientData))).rawRepresentation)
        #expect(error(assert(a, (clientData, authData, raw))) == .malformed(.signature))
    }

    @Test func aCounterThatWentBackIsReportedNotThrownAndTwoZerosAreNotGoingBack() throws {
        let a = TestAuthenticator(.edDSA)
        func wentBack(stored: UInt32, now: UInt32) throws -> Bool {
            try assert(a, stored: stored, try a.assert(challenge: challenge, signCount: now)).get().counterWentBack
        }
        #expect(try wentBack(stored: 0, now: 0) == false)
        #expect(try wentBack(stored: 0, now: 1) == false)
        #expect(try wentBack(stored: 7, now: 8) == false)
        #expect(try wentBack(stored: 7, now: 7) == true)
        #expect(try wentBack(stored: 7, now: 3) == true)
        #expect(try wentBack(stored: 7, now: 0) == true)
        #expect(try assert(a, stored: 7, try a.assert(challenge: challenge, signCount: 3)).get().signCount == 3)
    }

    @Test func aStoredKeyThatIsNoKeyIsRefusedAsMalformed() throws {
        let a = TestAuthenticator(.es256)
        let (clientData, authData, signature) = try a.assert(challenge: challenge)
        #expect(throws: WebAuthnError.malformed(.publicKey)) {
            try party.verifyAssertion(clientDataJSON: clientData, authenticatorData: authData, signature: signature,
                                      publicKey: [0xA0], storedSignCount: 0, challenge: challenge)
        }
    }
}
