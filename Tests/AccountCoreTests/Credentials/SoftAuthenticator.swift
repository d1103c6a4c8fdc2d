// SoftAuthenticator.swift: a software passkey authenticator for the passkeys tests: it answers PasskeyOptions as a
// browser's navigator.credentials would (an ES256 key from swift-crypto, attestation "none", the little canonical CBOR
// WebAuthn needs), and lies when asked: another RP ID, another origin, no user verification, a counter set back.
import Crypto
import Encodings
import Foundation
@testable import AccountCore

struct SoftAuthenticator {
    let key = P256.Signing.PrivateKey()
    var credentialId: [UInt8]
    var origin = "http://127.0.0.1:8080"
    var rpId = "127.0.0.1"
    var signCount: UInt32 = 0
    var userHandle: [UInt8] = []
    var aaguid = [UInt8](repeating: 0, count: 16)

    init(credentialId: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255) }) { self.credentialId = credentialId }

    /// flags: UP 0x01, UV 0x04.
    mutating func create(_ options: PasskeyOptions, rpId: String? = nil, origin: String? = nil, flags: UInt8 = 0x05) -> PasskeyAttestation {
        userHandle = options.userHandle
        let authData = authenticatorData(rpId: rpId, flags: flags | 0x40) + aaguid + [UInt8(credentialId.count >> 8), UInt8(credentialId.count & 0xff)]
            + credentialId + coseKey()
        let attestation = Self.map([(Self.text("fmt"), Self.text("none")), (Self.text("attStmt"), Self.map([])), (Self.text("authData"), Self.bytes(authData))])
        return PasskeyAttestation(clientDataJSON: clientData("webauthn.create", options.challenge, origin), attestationObject: attestation)
    }

    mutating func get(_ options: PasskeyOptions, rpId: String? = nil, origin: String? = nil, flags: UInt8 = 0x05) -> PasskeyAssertion {
        signCount += 1
        let client = clientData("webauthn.get", options.challenge, origin)
        let authData = authenticatorData(rpId: rpId, flags: flags)
        let signature = try! key.signature(for: authData + SHA256.hash(data: client)).derRepresentation
        return PasskeyAssertion(credentialId: credentialId, clientDataJSON: client, authenticatorData: authData,
                                signature: [UInt8](signature), userHandle: userHandle.isEmpty ? nil : userHandle)
    }

    func clientData(_ type: String, _ challenge: [UInt8], _ origin: String?) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(origin ?? self.origin)","crossOrigin":false}"#.utf8)
    }

    func authenticatorData(rpId: String?, flags: UInt8) -> [UInt8] {
        [UInt8](SHA256.hash(data: Array((rpId ?? self.rpId).utf8))) + [flags]
            + [UInt8(signCount >> 24), UInt8((signCount >> 16) & 0xff), UInt8((signCount >> 8) & 0xff), UInt8(signCount & 0xff)]
    }

    func coseKey() -> [UInt8] {
        let raw = [UInt8](key.publicKey.rawRepresentation)   // x ‖ y
        return Self.map([(Self.int(1), Self.int(2)), (Self.int(3), Self.int(-7)), (Self.int(-1), Self.int(1)),
                         (Self.int(-2), Self.bytes(Array(raw[0..<32]))), (Self.int(-3), Self.bytes(Array(raw[32..<64])))])
    }

    // MARK: CBOR (canonical: keys sorted by their encoded bytes; lengths below 65536)

    static func head(_ major: UInt8, _ length: Int) -> [UInt8] {
        switch length {
        case ..<24: [major << 5 | UInt8(length)]
        case ..<256: [major << 5 | 24, UInt8(length)]
        default: [major << 5 | 25, UInt8(length >> 8), UInt8(length & 0xff)]
        }
    }
    static func int(_ value: Int) -> [UInt8] { value >= 0 ? head(0, value) : head(1, -1 - value) }
    static func bytes(_ value: [UInt8]) -> [UInt8] { head(2, value.count) + value }
    static func text(_ value: String) -> [UInt8] { head(3, value.utf8.count) + Array(value.utf8) }
    static func map(_ pairs: [([UInt8], [UInt8])]) -> [UInt8] {
        head(5, pairs.count) + pairs.sorted { $0.0.lexicographicallyPrecedes($1.0) }.flatMap { $0.0 + $0.1 }
    }
}
