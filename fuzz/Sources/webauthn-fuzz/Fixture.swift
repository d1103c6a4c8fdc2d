// Fixture.swift: webauthn-fuzz's fixed relying party, challenge and authenticators (an Ed25519 and a P-256 key from
// fixed bytes, so seeds signed in one run verify in every later one), the responses they sign, and the harness's own
// CBOR writer (canonical heads; floats as doubles) for the round-trip property and the seeds.
import Crypto
import Foundation
@_spi(Testing) import WebAuthn

struct Fixture: @unchecked Sendable {
    static let rpId = "id.example.com"
    static let origin = "https://id.example.com"
    static let party = RelyingParty(id: rpId, origins: ["https://other.example.com", origin])
    static let challenge: [UInt8] = Array(0xC0..<0xD0)

    let ed25519 = try! Curve25519.Signing.PrivateKey(rawRepresentation: Array(1...32))
    let p256 = try! P256.Signing.PrivateKey(rawRepresentation: Array(1...32))

    /// The COSE public keys: index 0 Ed25519, 1 P-256.
    var coseKeys: [[UInt8]] {
        let ed = encode(.map([CBOR.Pair(key: .unsigned(1), value: .unsigned(1)), CBOR.Pair(key: .unsigned(3), value: .negative(7)),
                              CBOR.Pair(key: .negative(0), value: .unsigned(6)),
                              CBOR.Pair(key: .negative(1), value: .bytes(Array(ed25519.publicKey.rawRepresentation)))]))
        let raw = Array(p256.publicKey.rawRepresentation)
        let ec = encode(.map([CBOR.Pair(key: .unsigned(1), value: .unsigned(2)), CBOR.Pair(key: .unsigned(3), value: .negative(6)),
                              CBOR.Pair(key: .negative(0), value: .unsigned(1)),
                              CBOR.Pair(key: .negative(1), value: .bytes(Array(raw[0..<32]))),
                              CBOR.Pair(key: .negative(2), value: .bytes(Array(raw[32...])))]))
        return [ed, ec]
    }

    static func clientData(_ type: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(base64url(challenge))","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    static func authenticatorData(flags: UInt8, signCount: UInt32, rest: [UInt8] = []) -> [UInt8] {
        Array(SHA256.hash(data: Array(rpId.utf8))) + [flags] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: signCount >> (8 * $0)) } + rest
    }

    /// The only messages (authenticatorData ‖ SHA-256(clientDataJSON)) this harness ever signs, per key.
    static let signedAuthenticatorData: [[UInt8]] = [authenticatorData(flags: 0x05, signCount: 7), authenticatorData(flags: 0x01, signCount: 0),
                                                     authenticatorData(flags: 0x1D, signCount: 0x0102_0304)]

    func sign(key: Int, _ message: [UInt8]) -> [UInt8] {
        key == 0 ? Array(try! ed25519.signature(for: message)) : Array(try! p256.signature(for: message).derRepresentation)
    }

    /// A registration's attestation object for key `key`, with extensions when `extensions` is not empty.
    func attestationObject(key: Int, format: String = "none", extensions: [UInt8] = []) -> [UInt8] {
        let credentialId: [UInt8] = Array(repeating: 0x42, count: 16)
        let attested = Array(repeating: 0xAA, count: 16) + [0, 16] + credentialId + coseKeys[key] + extensions
        let authData = Self.authenticatorData(flags: extensions.isEmpty ? 0x45 : 0xC5, signCount: 0, rest: attested)
        return encode(.map([CBOR.Pair(key: .text("fmt"), value: .text(format)), CBOR.Pair(key: .text("attStmt"), value: .map([])),
                            CBOR.Pair(key: .text("authData"), value: .bytes(authData))]))
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// The harness's CBOR writer: shortest heads, pairs in the order given, floats as 8-byte doubles.
func encode(_ item: CBOR) -> [UInt8] {
    func head(_ major: UInt8, _ value: UInt64) -> [UInt8] {
        let m = major << 5
        switch value {
        case 0..<24: return [m | UInt8(value)]
        case 24...0xFF: return [m | 24, UInt8(value)]
        case 0x100...0xFFFF: return [m | 25] + bigEndian(value, 2)
        case 0x1_0000...0xFFFF_FFFF: return [m | 26] + bigEndian(value, 4)
        default: return [m | 27] + bigEndian(value, 8)
        }
    }
    func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] { (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    switch item {
    case .unsigned(let n): return head(0, n)
    case .negative(let n): return head(1, n)
    case .bytes(let b): return head(2, UInt64(b.count)) + b
    case .text(let t): return head(3, UInt64(t.utf8.count)) + Array(t.utf8)
    case .array(let items): return head(4, UInt64(items.count)) + items.flatMap(encode)
    case .map(let pairs): return head(5, UInt64(pairs.count)) + pairs.flatMap { encode($0.key) + encode($0.value) }
    case .bool(let b): return [b ? 0xF5 : 0xF4]
    case .null: return [0xF6]
    case .undefined: return [0xF7]
    case .float(let bits): return [0xFB] + bigEndian(bits, 8)
    }
}

/// How deep arrays and maps nest in `item` (a scalar is 0).
func depth(_ item: CBOR) -> Int {
    switch item {
    case .array(let items): 1 + (items.map(depth).max() ?? 0)
    case .map(let pairs): 1 + (pairs.map { max(depth($0.key), depth($0.value)) }.max() ?? 0)
    default: 0
    }
}
