// RSASigningKey.swift: an RSA private key that signs RS256 (RSASSA-PKCS1-v1_5, SHA-256) with swift-crypto:
// Frontdoor's root key, or a user key in tests. Signatures are always full width.
import BigInt
import Crypto
import _CryptoExtras
import Foundation

/// A private RSA key (2048 bits when generated) and its BrowserID public key.
public struct RSASigningKey: Sendable {
    private let key: _RSA.Signing.PrivateKey
    /// The public half, in BrowserID form.
    public let publicKey: PublicKey

    /// A new RSA-2048 key.
    public static func generate() throws -> RSASigningKey {
        try RSASigningKey(key: _RSA.Signing.PrivateKey(keySize: .bits2048))
    }

    /// A key from PEM (PKCS#1 or PKCS#8).
    public init(pemRepresentation: String) throws {
        do { try self.init(key: _RSA.Signing.PrivateKey(pemRepresentation: pemRepresentation)) } catch {
            throw BrowserIDError(reason: "malformed private key")
        }
    }

    private init(key: _RSA.Signing.PrivateKey) throws {
        self.key = key
        let primitives = try key.publicKey.getKeyPrimitives()
        publicKey = .rsa(n: BigUInt(primitives.modulus), e: BigUInt(primitives.publicExponent))
    }

    /// PKCS#1 PEM of the private key: keep it secret.
    public var pemRepresentation: String { key.pemRepresentation }

    /// RS256 signature of `message`.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        [UInt8](try key.signature(for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5).rawRepresentation)
    }
}
