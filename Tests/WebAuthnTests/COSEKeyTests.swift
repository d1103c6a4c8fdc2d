// COSEKeyTests.swift: which COSE keys are read, which are unsupported and which are no key at all.
import Crypto
import Testing
import _CryptoExtras
@testable @_spi(Testing) import WebAuthn

struct COSEKeyTests {
    func read(_ key: CBORValue) -> WebAuthnError? {
        do { _ = try COSEKey(key.encoded); return nil } catch { return error }
    }

    func replacing(_ key: CBORValue, _ label: Int, with value: CBORValue?) -> CBORValue {
        guard case .map(let pairs) = key else { return key }
        var result = pairs.filter { if case .int(let l) = $0.0 { l != label } else { true } }
        if let value { result.append((.int(label), value)) }
        return .map(result)
    }

    @Test(arguments: TestAuthenticator.Kind.allCases)
    func readsEachSupportedKey(kind: TestAuthenticator.Kind) throws {
        #expect(try COSEKey(TestAuthenticator(kind).coseKey.encoded).algorithm.rawValue == kind.algorithm)
    }

    @Test func theAlgorithmMustBeNamedAndFitTheKeyTypeAndCurve() {
        let p256 = TestAuthenticator(.es256).coseKey, ed = TestAuthenticator(.edDSA).coseKey
        #expect(read(replacing(p256, 3, with: nil)) == .malformed(.publicKey), "no alg")
        #expect(read(replacing(p256, 1, with: nil)) == .malformed(.publicKey), "no kty")
        #expect(read(replacing(p256, 3, with: .int(-8))) == .unsupportedAlgorithm, "a P-256 key labelled EdDSA")
        #expect(read(replacing(ed, 3, with: .int(-7))) == .unsupportedAlgorithm, "an OKP key labelled ES256")
        #expect(read(replacing(p256, 3, with: .int(-35))) == .unsupportedAlgorithm, "ES384")
        #expect(read(replacing(p256, -1, with: .int(2))) == .unsupportedAlgorithm, "P-384 as ES256")
        #expect(read(replacing(ed, -1, with: .int(7))) == .unsupportedAlgorithm, "Ed448 as EdDSA")
        #expect(read(replacing(ed, 3, with: .text("EdDSA"))) == .malformed(.publicKey))
    }

    @Test func parametersOfTheWrongSizeOrOffTheCurveAreNoKey() {
        let p256 = TestAuthenticator(.es256).coseKey, ed = TestAuthenticator(.edDSA).coseKey
        #expect(read(replacing(p256, -2, with: .bytes(Array(repeating: 1, count: 31)))) == .malformed(.publicKey))
        #expect(read(replacing(p256, -3, with: nil)) == .malformed(.publicKey), "compressed points are not used by WebAuthn")
        #expect(read(replacing(p256, -3, with: .bytes(Array(repeating: 1, count: 32)))) == .malformed(.publicKey), "off the curve")
        #expect(read(replacing(ed, -2, with: .bytes(Array(repeating: 1, count: 33)))) == .malformed(.publicKey))
        #expect(read(.array([])) == .malformed(.publicKey))
        #expect(throws: WebAuthnError.malformed(.publicKey)) { try COSEKey(TestAuthenticator(.edDSA).coseKey.encoded + [0]) }
    }

    @Test func rsaModuliFrom2048To8192BitsOnly() {
        let rsa = TestAuthenticator(.rs256).coseKey
        var short = Array(repeating: UInt8(0xC5), count: 255)
        short[254] = 0x01
        #expect(read(replacing(rsa, -1, with: .bytes(short))) == .unsupportedAlgorithm, "2040 bits")
        #expect(read(replacing(rsa, -1, with: .bytes([0, 0] + short))) == .unsupportedAlgorithm, "leading zeros do not count")
        #expect(read(replacing(rsa, -1, with: .bytes([0x01] + Array(repeating: 0xFF, count: 1024)))) == .unsupportedAlgorithm, "8193 bits")
        #expect(read(replacing(rsa, -2, with: .bytes([]))) == .malformed(.publicKey), "no exponent")
        let (n, _) = TestAuthenticator.rsaParameters(TestAuthenticator.rsaKey.publicKey)
        #expect(read(replacing(rsa, -1, with: .bytes([0] + n))) == nil, "a leading zero byte, as some encoders write")
    }

    @Test func aSignatureOfTheWrongShapeIsMalformedAndAWrongOneBad() throws {
        let ed = try COSEKey(TestAuthenticator(.edDSA).coseKey.encoded)
        #expect(throws: WebAuthnError.malformed(.signature)) { try ed.verify(signature: Array(repeating: 0, count: 63), over: [1]) }
        #expect(throws: WebAuthnError.badSignature) { try ed.verify(signature: Array(repeating: 0, count: 64), over: [1]) }
        let rsa = try COSEKey(TestAuthenticator(.rs256).coseKey.encoded)
        #expect(throws: WebAuthnError.badSignature) { try rsa.verify(signature: [1, 2, 3], over: [1]) }
        let p256 = try COSEKey(TestAuthenticator(.es256).coseKey.encoded)
        #expect(throws: WebAuthnError.malformed(.signature)) { try p256.verify(signature: [0x30, 0x00], over: [1]) }
    }
}
