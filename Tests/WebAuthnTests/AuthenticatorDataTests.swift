// AuthenticatorDataTests.swift: the byte layout of authenticator data: flags, counter, attested credential data (the
// COSE key's end found by the CBOR decoder), extensions, and every way the layout can be broken.
import Crypto
import Testing
@testable @_spi(Testing) import WebAuthn

struct AuthenticatorDataTests {
    let authenticator = TestAuthenticator(.es256)

    func parse(_ bytes: [UInt8]) -> WebAuthnError? {
        do { _ = try AuthenticatorData(bytes); return nil } catch { return error }
    }

    func attested(credentialIdLength: Int) -> [UInt8] {
        authenticator.aaguid + CBORValue.bigEndian(UInt64(credentialIdLength), 2)
            + Array(repeating: 0x42, count: credentialIdLength) + authenticator.coseKey.encoded
    }

    @Test func readsFlagsCounterCredentialAndExtensions() throws {
        let extensions = CBORValue.map([(.text("credProtect"), .int(2))]).encoded
        let bytes = TestAuthenticator.authenticatorData(flags: 0xDD, signCount: 0x0102_0304,
                                                        attested: authenticator.attestedCredentialData, extensions: extensions)
        let data = try AuthenticatorData(bytes)
        #expect(data.rpIdHash == Array(SHA256.hash(data: Array(TestAuthenticator.rpId.utf8))))
        #expect(data.flags == [.userPresent, .userVerified, .backupEligible, .backedUp, .attestedCredential, .extensions])
        #expect(data.signCount == 0x0102_0304)
        #expect(data.attestedCredential?.aaguid == authenticator.aaguid)
        #expect(data.attestedCredential?.credentialId == authenticator.credentialId)
        #expect(data.attestedCredential?.publicKeyBytes == authenticator.coseKey.encoded)
        #expect(data.attestedCredential?.publicKey.algorithm == .es256)
        #expect(data.extensions?["credProtect"] == .unsigned(2))
    }

    @Test func theReservedFlagBitsAreIgnored() throws {
        #expect(try AuthenticatorData(TestAuthenticator.authenticatorData(flags: 0x23, signCount: 0)).flags.contains(.userPresent))
    }

    @Test func refusesTooShortTrailingAndContradictoryData() {
        let plain = TestAuthenticator.authenticatorData(flags: 0x05, signCount: 1)
        #expect(parse(plain) == nil)
        #expect(parse(Array(plain.dropLast())) == .malformed(.authenticatorData))
        #expect(parse([]) == .malformed(.authenticatorData))
        #expect(parse(plain + [0]) == .malformed(.authenticatorData), "bytes after the counter without AT or ED")
        #expect(parse(TestAuthenticator.authenticatorData(flags: 0x15, signCount: 1)) == .malformed(.authenticatorData),
                "BS without BE")
        let full = TestAuthenticator.authenticatorData(flags: 0x45, signCount: 0, attested: authenticator.attestedCredentialData)
        #expect(parse(full) == nil)
        #expect(parse(full + [0xA0]) == .malformed(.authenticatorData), "a map after the key without ED")
        #expect(parse(Array(full.dropLast())) == .malformed(.authenticatorData), "the key cut short")
        #expect(parse(TestAuthenticator.authenticatorData(flags: 0x45, signCount: 0)) == .malformed(.authenticatorData), "AT, nothing")
        #expect(parse(TestAuthenticator.authenticatorData(flags: 0x85, signCount: 0)) == .malformed(.authenticatorData), "ED, nothing")
        let withExtensions = TestAuthenticator.authenticatorData(flags: 0x85, signCount: 0, extensions: [0xA0])
        #expect(parse(withExtensions) == nil)
        #expect(parse(withExtensions + [0x00]) == .malformed(.authenticatorData), "bytes after the extensions")
        #expect(parse(TestAuthenticator.authenticatorData(flags: 0x85, signCount: 0, extensions: [0x80])) == .malformed(.authenticatorData),
                "extensions that are not a map")
    }

    @Test func credentialIdLengthIsOneTo1023AndWithinTheData() {
        #expect(parse(TestAuthenticator.authenticatorData(flags: 0x45, signCount: 0, attested: attested(credentialIdLength: 1023))) == nil)
        #expect(parse(TestAuthenticator.authenticatorData(flags: 0x45, signCount: 0, attested: attested(credentialIdLength: 1))) == nil)
        #expect(parse(TestAuthenticator.authenticatorData(flags: 0x45, signCount: 0, attested: attested(credentialIdLength: 1024)))
                == .malformed(.authenticatorData))
        #expect(parse(TestAuthenticator.authenticatorData(flags: 0x45, signCount: 0, attested: attested(credentialIdLength: 0)))
                == .malformed(.authenticatorData))
        let cut = authenticator.aaguid + [0x00, 0x40] + Array(repeating: 0x42, count: 0x3F)
        #expect(parse(TestAuthenticator.authenticatorData(flags: 0x45, signCount: 0, attested: cut)) == .malformed(.authenticatorData))
    }

    @Test func anAttestedKeyOfAnotherAlgorithmIsUnsupported() {
        let es384 = CBORValue.map([(.int(1), .int(2)), (.int(3), .int(-35)), (.int(-1), .int(2)),
                                   (.int(-2), .bytes(Array(repeating: 1, count: 48))), (.int(-3), .bytes(Array(repeating: 1, count: 48)))])
        let attested = authenticator.aaguid + [0x00, 0x01, 0x42] + es384.encoded
        #expect(parse(TestAuthenticator.authenticatorData(flags: 0x45, signCount: 0, attested: attested)) == .unsupportedAlgorithm)
    }
}
