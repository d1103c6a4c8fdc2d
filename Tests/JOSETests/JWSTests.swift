// JWSTests.swift: compact JWS against RFC 7515's examples (RS256 signing is deterministic, so A.2 is matched byte for
// byte; ES256 is not, so A.3 is verified and our signatures checked by the same key), tampering, wrong algorithms,
// "none" and HS256 refused, kid selection, crit refused.
import Encodings
import Foundation
import JOSE
import Testing

@Suite struct JWSTests {
    static func bytes(_ text: String) -> [UInt8] { Base64URL.decode(text)! }

    static func a2Key() throws -> JWSSigningKey {
        try JWSSigningKey(modulus: bytes(RFC7515.A2.n), exponent: bytes(RFC7515.A2.e), privateExponent: bytes(RFC7515.A2.d),
                          p: bytes(RFC7515.A2.p), q: bytes(RFC7515.A2.q))
    }

    static func a3Key() throws -> JWSSigningKey { try JWSSigningKey(p256Scalar: bytes(RFC7515.A3.d)) }

    @Test func rfc7515A2VerifiesAndIsReproducedByteForByte() throws {
        let key = try JSONWebKey(members: RFC7515.A2.jwk)
        let jws = try JWS.verified(RFC7515.A2.token, keys: [key])
        #expect(jws.algorithm == "RS256" && jws.payload["iss"] as? String == "joe")
        #expect((jws.payload["exp"] as? NSNumber)?.int64Value == 1_300_819_380)
        let signer = try Self.a2Key()
        #expect(signer.publicKey == key)
        let input = Array((RFC7515.A2.header + "." + RFC7515.payload).utf8)
        #expect(Base64URL.encode(try signer.sign(input)) == RFC7515.A2.signature)
    }

    @Test func rfc7515A3VerifiesAndOurES256SignaturesAreRawRS() throws {
        let key = try JSONWebKey(members: RFC7515.A3.jwk)
        #expect(try JWS.verified(RFC7515.A3.token, keys: [key]).algorithm == "ES256")
        let signer = try Self.a3Key()
        #expect(signer.publicKey == key)
        let token = try JWS.sign(["sub": "42"], key: signer)
        let jws = try JWS.verified(token, keys: [key])
        #expect(jws.signature.count == 64 && jws.payload["sub"] as? String == "42")
    }

    @Test func aDEREncodedES256SignatureIsRefused() throws {
        // WebAuthn's form of the same signature: SEQUENCE { INTEGER r, INTEGER s }.
        let raw = Self.bytes(RFC7515.A3.signature)
        func integer(_ half: ArraySlice<UInt8>) -> [UInt8] {
            let value = half.first! >= 0x80 ? [0] + Array(half) : Array(half)
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        let der = [0x30, UInt8(body.count)] + body
        let token = RFC7515.A3.header + "." + RFC7515.payload + "." + Base64URL.encode(der)
        #expect(throws: JOSEError.badSignature) { try JWS.verified(token, keys: [try JSONWebKey(members: RFC7515.A3.jwk)]) }
    }

    @Test(arguments: [0, 1, 2])
    func aChangeInAnyPartIsRefused(part: Int) throws {
        var parts = RFC7515.A2.token.split(separator: ".").map(String.init)
        var bytes = Self.bytes(parts[part])
        bytes[bytes.count / 2] ^= 0x01
        parts[part] = Base64URL.encode(bytes)
        let key = try JSONWebKey(members: RFC7515.A2.jwk)
        #expect(throws: (any Error).self) { try JWS.verified(parts.joined(separator: "."), keys: [key]) }
    }

    @Test func aTokenIsCheckedOnlyWithAKeyOfItsOwnAlgorithm() throws {
        // The RS256 token's header rewritten to ES256 meets the P-256 key, which refuses the RSA signature.
        let rsa = try JSONWebKey(members: RFC7515.A2.jwk), ec = try JSONWebKey(members: RFC7515.A3.jwk)
        let swapped = RFC7515.A3.header + "." + RFC7515.payload + "." + RFC7515.A2.signature
        #expect(throws: JOSEError.badSignature) { try JWS.verified(swapped, keys: [rsa, ec]) }
        #expect(throws: JOSEError.noKey(kid: nil, alg: "ES256")) { try JWS.verified(swapped, keys: [rsa]) }
        #expect(!(try JWS(RFC7515.A2.token)).isSigned(by: ec))
    }

    @Test func noneAndHMACAreNeverAccepted() throws {
        let rsa = try JSONWebKey(members: RFC7515.A2.jwk)
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + RFC7515.payload + "."
        #expect(try JWS(none).signature.isEmpty)
        #expect(throws: JOSEError.unsupportedAlgorithm("none")) { try JWS.verified(none, keys: [rsa]) }
        #expect(throws: JOSEError.unsupportedAlgorithm("HS256")) { try JWS.verified(RFC7515.hs256Token, keys: [rsa]) }
        // The RS256 signature under a header that says "none" is refused too.
        let relabelled = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + RFC7515.payload + "." + RFC7515.A2.signature
        #expect(throws: JOSEError.unsupportedAlgorithm("none")) { try JWS.verified(relabelled, keys: [rsa]) }
    }

    @Test func theKidChoosesTheKey() throws {
        let signer = try Self.a2Key(), other = try JWSSigningKey.generate(.rs256)
        let token = try JWS.sign(["n": 1], key: signer, keyID: "a", type: "JWT")
        let jws = try JWS(token)
        #expect(jws.keyID == "a" && jws.type == "JWT" && jws.algorithm == "RS256")
        #expect(try JWS.verified(token, keys: [other.publicKey.with(kid: "b"), signer.publicKey.with(kid: "a")]).keyID == "a")
        #expect(throws: JOSEError.noKey(kid: "a", alg: "RS256")) { try JWS.verified(token, keys: [signer.publicKey.with(kid: "b")]) }
        #expect(throws: JOSEError.badSignature) { try JWS.verified(token, keys: [other.publicKey.with(kid: "a")]) }
    }

    @Test func signingWritesSortedKeysAndUnescapedSlashes() throws {
        let token = try JWS.sign(["iss": "http://localhost:8080/account", "aud": "x"], key: try Self.a3Key(), keyID: "k1", type: "logout+jwt")
        let parts = token.split(separator: ".")
        #expect(String(decoding: Base64URL.decode(parts[0])!, as: UTF8.self) == #"{"alg":"ES256","kid":"k1","typ":"logout+jwt"}"#)
        #expect(String(decoding: Base64URL.decode(parts[1])!, as: UTF8.self) == #"{"aud":"x","iss":"http://localhost:8080/account"}"#)
    }

    @Test func aPayloadJSONCannotHoldIsRefusedBeforeSigning() throws {
        #expect(throws: JOSEError.notJSONObjects) { try JWS.sign(["exp": Date()], key: try Self.a3Key()) }
        #expect(throws: JOSEError.notJSONObjects) { try JWS.sign(["exp": Double.nan], key: try Self.a3Key()) }
    }

    @Test(arguments: ["", "a.b", "a.b.c.d", "!!.e30.", "e30.e30.", "W10.e30.", "e30.W10.", "eyJhbGciOjF9.e30.", "e30.e30.e30="])
    func malformedTokensAreRefused(token: String) {
        #expect(throws: JOSEError.self) { try JWS(token) }
    }

    @Test func critHeadersAreRefused() {
        let header = Base64URL.encode(Array(#"{"alg":"RS256","crit":["exp"],"exp":1}"#.utf8))
        #expect(throws: JOSEError.criticalHeader) { try JWS(header + "." + RFC7515.payload + "." + RFC7515.A2.signature) }
    }
}

/// Cutting at a separator byte: empty parts kept, and a slice of a longer string cut at its own offsets.
struct CompactPartsTests {
    @Test(arguments: ["", "a", "a.b.c", "..", ".a.", "é.日本.😀", "header.payload."])
    func splitsLikeTheStandardLibrary(text: String) {
        #expect(CompactParts.split(text[...], separator: UInt8(ascii: ".")) == text.split(separator: ".", omittingEmptySubsequences: false))
    }

    @Test func aSliceIsCutWithinItself() {
        let text = "skip~cert.a.b~assertion.c.d~tail"
        let slice = text.dropFirst(5).dropLast(5)
        let parts = CompactParts.split(slice, separator: UInt8(ascii: "~"))
        #expect(parts == ["cert.a.b", "assertion.c.d"])
        #expect(CompactParts.split(parts[1], separator: UInt8(ascii: ".")) == ["assertion", "c", "d"])
    }
}
