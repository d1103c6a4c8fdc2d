// RSASigningKey.swift: an RSA private key that signs RS256, with its public half in BrowserID form: Frontdoor's root
// key, or a user key in tests. The key and the signing are JOSE's (JWSSigningKey); BrowserID only adds its key form.
import BigInt
import Foundation
import JOSE

/// A private RSA key (2048 bits when generated) and its BrowserID public key.
public struct RSASigningKey: Sendable {
    /// The JOSE key that signs.
    let signingKey: JWSSigningKey
    /// The public half, in BrowserID form.
    public let publicKey: PublicKey

    /// A new RSA-2048 key.
    public static func generate() throws -> RSASigningKey {
        try RSASigningKey(key: JWSSigningKey.generate(.rs256))
    }

    /// A key from PEM (PKCS#1 or PKCS#8).
    public init(pemRepresentation: String) throws {
        guard let key = try? JWSSigningKey(pemRepresentation: pemRepresentation), key.algorithm == .rs256 else {
            throw BrowserIDError(reason: "malformed private key")
        }
        try self.init(key: key)
    }

    private init(key: JWSSigningKey) throws {
        guard let (modulus, exponent) = key.publicKey.rsaComponents else { throw BrowserIDError(reason: "malformed private key") }
        signingKey = key
        publicKey = .rsa(n: BigUInt(Data(modulus)), e: BigUInt(Data(exponent)))
    }

    /// PKCS#1 PEM of the private key: keep it secret.
    public var pemRepresentation: String { signingKey.pemRepresentation }

    /// RS256 signature of `message`.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        try signingKey.sign(message)
    }
}
