// JWS.swift: compact JSON Web Signatures as BrowserID uses them: header {"alg"} only, base64url without padding,
// the signature checked over the raw `header.payload` text (no JSON canonicalisation needed).
import Encodings
import Foundation

/// A parsed compact JWS: its algorithm, payload object, the signed text and the signature.
struct JWS {
    let algorithm: String
    let payload: [String: Any]
    let signingInput: [UInt8]
    let signature: [UInt8]

    /// Parses `token`; throws "malformed signature" style reasons for anything that is not a JWS.
    init(_ token: Substring) throws {
        let parts = Base64URL.parts(token, separator: UInt8(ascii: "."))
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]), !signature.isEmpty,
              let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
              let algorithm = header["alg"] as? String,
              let payload = try? JSONSerialization.jsonObject(with: Data(payloadBytes)) as? [String: Any] else {
            throw BrowserIDError(reason: "malformed signature")
        }
        self.algorithm = algorithm
        self.payload = payload
        self.signingInput = Array(token[..<parts[1].endIndex].utf8)
        self.signature = signature
    }

    /// Whether the signature is valid for `key`.
    func isSigned(by key: PublicKey) -> Bool {
        Signatures.isValid(signature, message: signingInput, key: key, alg: algorithm)
    }

    /// A signed compact token for `payload` (RS256 with `key`).
    static func sign(_ payload: [String: Any], key: RSASigningKey) throws -> String {
        let header = try JSONSerialization.data(withJSONObject: ["alg": "RS256"], options: [.sortedKeys])
        let body = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys, .withoutEscapingSlashes])
        let input = Base64URL.encode(header) + "." + Base64URL.encode(body)
        return input + "." + Base64URL.encode(try key.sign(Array(input.utf8)))
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
        let jws = try JWS(token[...])
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
