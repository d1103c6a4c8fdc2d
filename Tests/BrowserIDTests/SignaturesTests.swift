// SignaturesTests.swift: RSA signatures with leading zero bytes dropped (as jwcrypto makes them) still verify; RS64 never
// verifies, RS128 goes through libcrypto (DSA: VerifierTests' known answers); keys parse.
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

    /// RSA keys made by `openssl genrsa` and signatures by `openssl dgst -sha256 -sign` over `legacyMessage`.
    static let legacyMessage = Array("frontdoor legacy vector".utf8)
    static let rs64 = PublicKey.rsa(n: BigUInt("10672276871102891917522840215707511308212325718238739833327317358922453524103003123973461027973819748868736092121773683869539696384184711928533633875642311", radix: 10)!, e: 65537)
    static let rs64Signature = hex("c15e541bb3928123af6f4226ef868343a04ccbe7860d2db27209fe8ebd4d89a97ea779da64c826b159f801a01aaeb341d07ed16c9360efbd02ea5172586b2c28")
    static let rs128 = PublicKey.rsa(n: BigUInt("119856315420501819513836658653720054712952992933192966882287658492530202765557608290229216440203326700988453089045676916995053937343496683437835123442445869770713938582945527273479199916770381107781645229014171874789131153125310663721995971203314920539353902767599571381393570652768612064116402496351966556903", radix: 10)!, e: 65537)
    static let rs128Signature = hex("0bc1d9404b822c258702b8dea492dda6b5a2cee275793aa8fcfbf83a6feea724b9a66fcc5250a4ac9f7d68ba342d5affd6f3ebe4c377d23745754ad949837098e20ce88989da2b0e24cf8f03239ee6cbdea44f729c47783a8985d54fda780ff0590803a95786ef3418f6444fba982a4daa092c7a5060b6896a046451049e72cf")

    @Test func rs64IsNeverCheckedEvenWithAValidSignature() {
        #expect(Self.rs64.algorithm == "RS64")
        #expect(!Signatures.isValid(Self.rs64Signature, message: Self.legacyMessage, key: Self.rs64, alg: "RS64"))
        #expect(!Signatures.legacyAlgorithms.contains("RS64"))
        #expect(VerifierPolicy(legacyAlgorithms: ["RS64", "RS128"]).acceptedAlgorithms == ["RS256", "RS128"])
    }

    @Test func rs128IsCheckedByLibcrypto() {
        #expect(Self.rs128.algorithm == "RS128")
        #expect(Signatures.isValid(Self.rs128Signature, message: Self.legacyMessage, key: Self.rs128, alg: "RS128"))
        #expect(!Signatures.isValid(Self.rs128Signature, message: Array("frontdoor legacy vectoR".utf8), key: Self.rs128, alg: "RS128"))
        var flipped = Self.rs128Signature
        flipped[40] ^= 1
        #expect(!Signatures.isValid(flipped, message: Self.legacyMessage, key: Self.rs128, alg: "RS128"))
    }

    static func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map { UInt8(text.dropFirst($0).prefix(2), radix: 16)! }
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
}
