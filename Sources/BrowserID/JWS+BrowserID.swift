// JWS+BrowserID.swift: compact JWS as BrowserID uses it, on the one implementation (module JOSE): Persona's wording for
// a token that does not parse ("malformed signature", also for an empty signature), signatures checked with BrowserID's
// own keys (Signatures: RS256 and the legacy algorithms), and times in milliseconds. Signing is JOSE's: header {"alg"}.
import Foundation
import JOSE

extension JWS {
    /// Parses `token`, worded as Persona words a token it cannot read.
    static func browserID(_ token: Substring) throws -> JWS {
        guard let jws = try? JWS(token), !jws.signature.isEmpty else { throw BrowserIDError(reason: "malformed signature") }
        return jws
    }

    /// Whether the signature is valid for BrowserID `key` (under the token's alg, which must be the key's).
    func isSigned(by key: PublicKey) -> Bool {
        Signatures.isValid(signature, message: signingInput, key: key, alg: algorithm)
    }

    /// The same with a key prepared once for many checks.
    func isSigned(by key: PreparedKey) -> Bool {
        Signatures.isValid(signature, message: signingInput, key: key, alg: algorithm)
    }

    /// A signed compact token for `payload` (RS256 with `key`).
    static func sign(_ payload: [String: Any], key: RSASigningKey) throws -> String {
        try sign(payload, key: key.signingKey)
    }

    /// A JSON number of milliseconds as a date (integers and whole doubles).
    static func milliseconds(_ value: Any?) -> Date? {
        guard let number = value as? NSNumber else { return nil }
        let ms = number.doubleValue
        guard ms.isFinite, ms >= 0 else { return nil }
        return Date(timeIntervalSince1970: ms / 1000)
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}

/// An identity certificate: the identity provider (`iss`) vouches that `public-key` speaks for `principal.email`.
public struct IdentityCertificate: Sendable {
    public let issuer: String
    public let issuedAt: Date?
    public let expiresAt: Date
    public let publicKey: PublicKey
    public let email: String?
    let token: String

    /// Parses a certificate without checking its signature.
    public init(token: String) throws {
        let jws = try JWS.browserID(token[...])
        try self.init(jws: jws, token: token)
    }

    init(jws: JWS, token: String) throws {
        let payload = jws.payload
        guard let issuer = payload["iss"] as? String, !issuer.isEmpty else { throw BrowserIDError(reason: "missing issuer") }
        guard let expiresAt = JWS.milliseconds(payload["exp"]) else { throw BrowserIDError(reason: "missing expiration") }
        guard let key = payload["public-key"] as? [String: Any] else { throw BrowserIDError(reason: "missing public key") }
        self.issuer = issuer
        self.issuedAt = JWS.milliseconds(payload["iat"])
        self.expiresAt = expiresAt
        self.publicKey = try PublicKey(jsonObject: key)
        self.email = (payload["principal"] as? [String: Any])?["email"] as? String
        self.token = token
    }

    /// A signed certificate (RS256, `iat`/`exp` in milliseconds).
    public static func sign(email: String, publicKey: PublicKey, issuer: String, issuedAt: Date, expiresAt: Date,
                            key: RSASigningKey) throws -> String {
        try JWS.sign(["iss": issuer, "iat": JWS.milliseconds(issuedAt), "exp": JWS.milliseconds(expiresAt),
                      "public-key": publicKey.json, "principal": ["email": email]], key: key)
    }
}

/// Identity assertions (`{"aud","exp"}` signed by the user's key) and backed assertions (`cert~assertion`).
public enum IdentityAssertion {
    /// An assertion for `audience`, signed RS256 with a user key.
    public static func sign(audience: String, expiresAt: Date, key: RSASigningKey) throws -> String {
        try JWS.sign(["aud": audience, "exp": JWS.milliseconds(expiresAt)], key: key)
    }

    /// `cert~…~assertion`.
    public static func bundle(certificates: [String], assertion: String) -> String {
        (certificates + [assertion]).joined(separator: "~")
    }
}
