// TestAuthenticator.swift: an authenticator and a browser in a few lines, so the tests check real responses: keys from
// swift-crypto (P-256, Ed25519, RSA 2048), COSE keys and attestation objects written by CBOREncoder, clientDataJSON as
// a browser writes it, and assertions signed over authenticatorData ‖ SHA-256(clientDataJSON).
import Crypto
import Encodings
import Foundation
import _CryptoExtras
@testable @_spi(Testing) import WebAuthn

struct TestAuthenticator {
    enum Kind: CaseIterable, CustomStringConvertible {
        case es256, edDSA, rs256
        var description: String { "\(self == .es256 ? "ES256" : self == .edDSA ? "EdDSA" : "RS256")" }
        var algorithm: Int { self == .es256 ? -7 : self == .edDSA ? -8 : -257 }
    }

    enum Key {
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    static let rpId = "id.example.com"
    static let origin = "https://id.example.com"
    static let party = RelyingParty(id: rpId, origins: ["https://other.example.com", origin])
    /// One RSA key for every test: generating one costs a noticeable fraction of a second.
    static let rsaKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    let kind: Kind
    let key: Key
    let credentialId: [UInt8]
    let aaguid: [UInt8] = Array(0x10...0x1F)

    init(_ kind: Kind) {
        self.kind = kind
        switch kind {
        case .es256: key = .p256(P256.Signing.PrivateKey())
        case .edDSA: key = .ed25519(Curve25519.Signing.PrivateKey())
        case .rs256: key = .rsa(Self.rsaKey)
        }
        credentialId = (0..<32).map { UInt8($0 * 7 & 0xFF) }
    }

    /// The credential's public key as COSE.
    var coseKey: CBORValue {
        switch key {
        case .p256(let key):
            let raw = Array(key.publicKey.rawRepresentation)
            return .map([(.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
                         (.int(-2), .bytes(Array(raw[0..<32]))), (.int(-3), .bytes(Array(raw[32...])))])
        case .ed25519(let key):
            return .map([(.int(1), .int(1)), (.int(3), .int(-8)), (.int(-1), .int(6)),
                         (.int(-2), .bytes(Array(key.publicKey.rawRepresentation)))])
        case .rsa(let key):
            let (n, e) = Self.rsaParameters(key.publicKey)
            return .map([(.int(1), .int(3)), (.int(3), .int(-257)), (.int(-1), .bytes(n)), (.int(-2), .bytes(e))])
        }
    }

    /// n and e of an RSA public key, read from its PKCS#1 DER (SEQUENCE { INTEGER n, INTEGER e }).
    static func rsaParameters(_ key: _RSA.Signing.PublicKey) -> ([UInt8], [UInt8]) {
        let der = Array(key.pkcs1DERRepresentation)
        var index = 0
        func length() -> Int {
            let first = Int(der[index]); index += 1
            guard first & 0x80 != 0 else { return first }
            var value = 0
            for _ in 0..<(first & 0x7F) { value = value << 8 | Int(der[index]); index += 1 }
            return value
        }
        index += 1; _ = length()                        // SEQUENCE
        index += 1; let nLength = length()              // INTEGER n
        let n = Array(der[index..<index + nLength].drop { $0 == 0 }); index += nLength
        index += 1; let eLength = length()              // INTEGER e
        return (n, Array(der[index..<index + eLength]))
    }

    static func clientData(type: String, challenge: [UInt8], origin: String = origin, crossOrigin: Bool? = false) -> [UInt8] {
        var json = #"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(origin)""#
        if let crossOrigin { json += #","crossOrigin":\#(crossOrigin)"# }
        return Array((json + "}").utf8)
    }

    static func authenticatorData(rpId: String = rpId, flags: UInt8, signCount: UInt32, attested: [UInt8] = [],
                                  extensions: [UInt8] = []) -> [UInt8] {
        Array(SHA256.hash(data: Array(rpId.utf8))) + [flags] + CBORValue.bigEndian(UInt64(signCount), 4) + attested + extensions
    }

    /// aaguid · credentialIdLength · credentialId · COSE key.
    var attestedCredentialData: [UInt8] {
        aaguid + CBORValue.bigEndian(UInt64(credentialId.count), 2) + credentialId + coseKey.encoded
    }

    /// A registration response: (clientDataJSON, attestationObject).
    func register(challenge: [UInt8], type: String = "webauthn.create", origin: String = origin, rpId: String = rpId,
                  flags: UInt8 = 0x45, format: String = "none", statement: CBORValue = .map([])) -> ([UInt8], [UInt8]) {
        let authData = Self.authenticatorData(rpId: rpId, flags: flags, signCount: 0,
                                              attested: flags & 0x40 != 0 ? attestedCredentialData : [])
        let object = CBORValue.map([(.text("fmt"), .text(format)), (.text("attStmt"), statement),
                                    (.text("authData"), .bytes(authData))])
        return (Self.clientData(type: type, challenge: challenge, origin: origin), object.encoded)
    }

    /// An assertion response: (clientDataJSON, authenticatorData, signature).
    func assert(challenge: [UInt8], type: String = "webauthn.get", origin: String = origin, rpId: String = rpId,
                flags: UInt8 = 0x05, signCount: UInt32 = 1) throws -> ([UInt8], [UInt8], [UInt8]) {
        let clientData = Self.clientData(type: type, challenge: challenge, origin: origin)
        let authData = Self.authenticatorData(rpId: rpId, flags: flags, signCount: signCount)
        return (clientData, authData, try sign(authData + Array(SHA256.hash(data: clientData))))
    }

    func sign(_ message: [UInt8]) throws -> [UInt8] {
        switch key {
        case .p256(let key): Array(try key.signature(for: message).derRepresentation)
        case .ed25519(let key): Array(try key.signature(for: message))
        case .rsa(let key): Array(try key.signature(for: message, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }
}
