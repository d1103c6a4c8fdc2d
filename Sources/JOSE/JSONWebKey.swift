// JSONWebKey.swift: public signing keys as JWKs (RFC 7517): RSA {"kty":"RSA","n","e"} and P-256
// {"kty":"EC","crv":"P-256","x","y"}, with optional kid, alg and use. Reading refuses what cannot verify RS256/ES256:
// other key types and curves, `use` other than "sig", an `alg` other than the key type's, RSA under 2048 bits
// (swift-crypto's floor). Signatures: RSASSA-PKCS1-v1_5 with SHA-256, full width; ECDSA P-256 with SHA-256 as
// JWS writes it, r‖s in 64 bytes (RFC 7518 §3.4), not the DER WebAuthn uses. `thumbprint` is RFC 7638's, a stable kid.
import Crypto
import Encodings
import Foundation
import _CryptoExtras

/// A public key that verifies JWS signatures.
public struct JSONWebKey: Sendable, Equatable {
    /// The JWS algorithms JOSE verifies and signs with.
    public enum Algorithm: String, Sendable, CaseIterable {
        case rs256 = "RS256"
        case es256 = "ES256"
    }

    public enum Material: Sendable {
        case rsa(_RSA.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
    }

    public let material: Material
    /// The key id published with it (JWKS `kid`).
    public var kid: String?

    public init(material: Material, kid: String? = nil) {
        self.material = material
        self.kid = kid
    }

    /// An RSA key from its big-endian modulus and exponent.
    public init(modulus: [UInt8], exponent: [UInt8], kid: String? = nil) throws(JOSEError) {
        guard let key = try? _RSA.Signing.PublicKey(n: modulus, e: exponent) else { throw .unusableKey("RSA key (under 2048 bits?)") }
        self.init(material: .rsa(key), kid: kid)
    }

    /// A key from a JWK's members (string-valued; others are ignored by the caller's conversion).
    public init(members: [String: String]) throws(JOSEError) {
        if let use = members["use"], use != "sig" { throw .unusableKey("use \(use)") }
        func bytes(_ name: String) throws(JOSEError) -> [UInt8] {
            guard let text = members[name], let value = Base64URL.decode(text), !value.isEmpty else { throw .unusableKey("no \(name)") }
            return value
        }
        switch members["kty"] {
        case "RSA":
            try self.init(modulus: try bytes("n"), exponent: try bytes("e"), kid: members["kid"])
        case "EC":
            guard members["crv"] == "P-256" else { throw .unusableKey("curve \(members["crv"] ?? "(none)")") }
            let x = try bytes("x"), y = try bytes("y")
            guard x.count == 32, y.count == 32, let key = try? P256.Signing.PublicKey(rawRepresentation: x + y) else {
                throw .unusableKey("P-256 point")
            }
            self.init(material: .p256(key), kid: members["kid"])
        default:
            throw .unusableKey("kty \(members["kty"] ?? "(none)")")
        }
        if let alg = members["alg"], alg != algorithm.rawValue { throw .unusableKey("alg \(alg) for a \(algorithm.rawValue) key") }
    }

    /// A key from a JWK object (JSONSerialization's form); non-string members are ignored.
    public init(jsonObject: [String: Any]) throws(JOSEError) {
        try self.init(members: jsonObject.compactMapValues { $0 as? String })
    }

    /// A key from JWK JSON text.
    public init(jsonText: String) throws(JOSEError) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(jsonText.utf8)) as? [String: Any] else {
            throw .unusableKey("not a JSON object")
        }
        try self.init(jsonObject: object)
    }

    /// The algorithm this key verifies.
    public var algorithm: Algorithm {
        switch material {
        case .rsa: .rs256
        case .p256: .es256
        }
    }

    /// An RSA key's modulus and exponent (big-endian, no leading zeros); nil for P-256.
    public var rsaComponents: (modulus: [UInt8], exponent: [UInt8])? {
        guard case let .rsa(key) = material, let primitives = try? key.getKeyPrimitives() else { return nil }
        return (Self.trimmed(primitives.modulus), Self.trimmed(primitives.publicExponent))
    }

    /// The members RFC 7638 hashes: the key type's required ones only.
    public var requiredMembers: [String: String] {
        switch material {
        case let .rsa(key):
            let primitives = try? key.getKeyPrimitives()
            return ["kty": "RSA", "n": Base64URL.encode(Self.trimmed(primitives?.modulus)),
                    "e": Base64URL.encode(Self.trimmed(primitives?.publicExponent))]
        case let .p256(key):
            let raw = [UInt8](key.rawRepresentation)
            return ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(raw[0..<32]), "y": Base64URL.encode(raw[32..<64])]
        }
    }

    /// The JWK as published in a JWKS: required members, `use` "sig", `alg`, and `kid` when set.
    public var members: [String: String] {
        var members = requiredMembers
        members["use"] = "sig"
        members["alg"] = algorithm.rawValue
        if let kid { members["kid"] = kid }
        return members
    }

    /// `members` as JSON text, keys sorted.
    public var jsonText: String {
        let data = (try? JSONSerialization.data(withJSONObject: members, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The RFC 7638 thumbprint: base64url SHA-256 of the required members in lexicographic order, no whitespace.
    public var thumbprint: String {
        let required = requiredMembers
        let json = "{" + required.keys.sorted().map { "\"\($0)\":\"\(required[$0]!)\"" }.joined(separator: ",") + "}"
        return Base64URL.encode(SHA256.hash(data: Data(json.utf8)))
    }

    /// This key with `kid`.
    public func with(kid: String?) -> JSONWebKey {
        var copy = self
        copy.kid = kid
        return copy
    }

    /// Whether `signature` over `message` verifies under the key's algorithm.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch material {
        case let .rsa(key):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: message),
                                        padding: .insecurePKCS1v1_5)
        case let .p256(key):
            guard signature.count == 64, let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(ecdsa, for: SHA256.hash(data: message))
        }
    }

    public static func == (lhs: JSONWebKey, rhs: JSONWebKey) -> Bool {
        lhs.kid == rhs.kid && lhs.requiredMembers == rhs.requiredMembers
    }

    /// Big-endian bytes without leading zeros (JWK integers are minimal, RFC 7518 §6.3.1).
    static func trimmed(_ data: Data?) -> [UInt8] {
        let bytes = [UInt8](data ?? Data())
        let trimmed = Array(bytes.drop { $0 == 0 })
        return trimmed.isEmpty ? [0] : trimmed
    }
}
