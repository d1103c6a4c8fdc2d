// JWSSigningKey.swift: a private key that signs JWS: RSA (2048 bits when generated, RS256 with RSASSA-PKCS1-v1_5 and
// SHA-256, signatures always full width) or P-256 (ES256, r‖s in 64 bytes). PEM in and out: RSA as PKCS#1 (or read
// from PKCS#8), P-256 as PKCS#8 (or read from SEC 1). Keep the PEM secret: it is stored in the database, never logged.
import Crypto
import Foundation
import _CryptoExtras

/// A private signing key and its public JWK.
public struct JWSSigningKey: Sendable {
    enum Material: Sendable {
        case rsa(_RSA.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
    }

    let material: Material
    /// The public half (no kid).
    public let publicKey: JSONWebKey

    /// A new key for `algorithm` (RSA-2048 for RS256, P-256 for ES256).
    public static func generate(_ algorithm: JSONWebKey.Algorithm) throws -> JWSSigningKey {
        switch algorithm {
        case .rs256: JWSSigningKey(material: .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048)))
        case .es256: JWSSigningKey(material: .p256(P256.Signing.PrivateKey()))
        }
    }

    /// A key from PEM: RSA (PKCS#1 or PKCS#8, 2048 bits or more) or P-256 (PKCS#8 or SEC 1).
    public init(pemRepresentation pem: String) throws(JOSEError) {
        if let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) {
            self.init(material: .rsa(key))
        } else if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
            self.init(material: .p256(key))
        } else {
            throw .unusableKey("malformed private key")
        }
    }

    /// An RSA key from its parts (big-endian), as a JWK's n, e, d, p, q give them (test vectors).
    public init(modulus n: [UInt8], exponent e: [UInt8], privateExponent d: [UInt8], p: [UInt8], q: [UInt8]) throws(JOSEError) {
        guard let key = try? _RSA.Signing.PrivateKey(n: n, e: e, d: d, p: p, q: q) else { throw .unusableKey("RSA parts") }
        self.init(material: .rsa(key))
    }

    /// A P-256 key from its 32-byte private scalar (a JWK's d).
    public init(p256Scalar d: [UInt8]) throws(JOSEError) {
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: d) else { throw .unusableKey("P-256 scalar") }
        self.init(material: .p256(key))
    }

    init(material: Material) {
        self.material = material
        switch material {
        case let .rsa(key): publicKey = JSONWebKey(material: .rsa(key.publicKey))
        case let .p256(key): publicKey = JSONWebKey(material: .p256(key.publicKey))
        }
    }

    public var algorithm: JSONWebKey.Algorithm { publicKey.algorithm }

    /// The private key as PEM: keep it secret.
    public var pemRepresentation: String {
        switch material {
        case let .rsa(key): key.pemRepresentation
        case let .p256(key): key.pemRepresentation
        }
    }

    /// The JWS signature of `message` under `algorithm`.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        switch material {
        case let .rsa(key):
            [UInt8](try key.signature(for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5).rawRepresentation)
        case let .p256(key):
            [UInt8](try key.signature(for: SHA256.hash(data: message)).rawRepresentation)
        }
    }
}
