// SignaturesTests.swift: RSA signatures with leading zero bytes dropped (as jwcrypto makes them) still verify; keys parse.
import BigInt
import Foundation
import Testing
@testable import BrowserID

struct SignaturesTests {
    @Test func aShortRSASignatureIsLeftPadded() throws {
        var found = false
        for i in 0..<2000 {
            let message = Array("message \(i)".utf8)
            let signature = try Keys.issuer.sign(message)
            guard signature[0] == 0 else { continue }
            #expect(Signatures.isValid(Array(signature.drop { $0 == 0 }), message: message, key: Keys.issuer.publicKey, alg: "RS256"))
            found = true
            break
        }
        #expect(found, "one signature in 256 starts with a zero byte")
    }

    @Test func theAlgorithmMustMatchTheKey() throws {
        let message = Array("hello".utf8)
        let signature = try Keys.issuer.sign(message)
        #expect(Signatures.isValid(signature, message: message, key: Keys.issuer.publicKey, alg: "RS256"))
        #expect(!Signatures.isValid(signature, message: message, key: Keys.issuer.publicKey, alg: "RS128"))
        #expect(!Signatures.isValid(signature, message: Array("hellO".utf8), key: Keys.issuer.publicKey, alg: "RS256"))
    }

    @Test func smallRSAKeysAreCheckedWithBigInt() throws {
        // A 512-bit modulus (RS64 size): a signature that is not the PKCS#1 encoding is refused on the BigInt path.
        let n = BigUInt("c6c8f1a8e0b1d9b1b2a7b7b0f7f1c2f7c5d5d0c9a8b6e3a1f5c2d9e8b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2", radix: 16)!
        let key = PublicKey.rsa(n: n, e: 65537)
        #expect(key.algorithm == "RS64")
        #expect(!Signatures.isValid([UInt8](repeating: 1, count: 64), message: Array("abc".utf8), key: key, alg: "RS64"))
    }

    @Test func keysRoundTripThroughJSON() throws {
        let key = Keys.user.publicKey
        #expect(try PublicKey(jsonText: key.jsonText) == key)
        #expect(key.json["algorithm"] == "RS" && key.json["e"] == "65537" && key.bitLength == 2048)
        let dsa = try PublicKey(jsonText: KnownAnswerVectors.ds128IssuerKey)
        #expect(try PublicKey(jsonText: dsa.jsonText) == dsa)
        for bad in ["{}", "[]", #"{"algorithm":"RS","n":"x","e":"3"}"#, #"{"algorithm":"EC","x":"1"}"#, #"{"algorithm":"DS","y":"zz","p":"1","q":"1","g":"1"}"#] {
            #expect(throws: BrowserIDError.self) { try PublicKey(jsonText: bad) }
        }
    }

    @Test func base64URLIsStrict() {
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xfb, 0xff])
        #expect(Base64URL.decode("-_8=") == nil)
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("+/8") == nil)
    }
}
