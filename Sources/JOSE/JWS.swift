// JWS.swift: compact JSON Web Signatures (RFC 7515 §7.1), the project's one implementation: BrowserID's certificates
// and assertions, the ID tokens social sign-in checks (OAuthClient), and the ID and logout tokens the OpenID provider
// signs (WebFront). Base64url without padding; the signature is checked over the raw `header.payload` text, so no
// JSON canonicalisation is needed. The header must be an object with an `alg` string and no `crit`.
// Signing writes {"alg", "kid"?, "typ"?} and the payload with sorted keys. Verification (`isSigned(by:)`,
// `verified(_:keys:)`) knows RS256 and ES256 only; "none" and HS* never verify. Other algorithms (BrowserID's legacy
// DS128/DS256/RS128) are parsed and left to their caller's own check.
import Encodings
import Foundation

/// A parsed compact JWS: its header, payload object, the signed text and the signature.
///
/// ```swift
/// let token = try JWS.sign(["sub": "42"], key: key, keyID: key.publicKey.thumbprint, type: "JWT")
/// let jws = try JWS.verified(token, keys: [key.publicKey.with(kid: key.publicKey.thumbprint)])
/// jws.payload["sub"]   // "42"
/// ```
public struct JWS {
    /// The protected header (`alg` always a string).
    public let header: [String: Any]
    public let algorithm: String
    public let payload: [String: Any]
    /// The decoded payload bytes (a JSON object), for callers that read it with their own decoder.
    public let payloadBytes: [UInt8]
    /// `header.payload` as sent: what the signature covers.
    public let signingInput: [UInt8]
    /// Possibly empty (alg "none"): callers refuse it by never verifying it.
    public let signature: [UInt8]

    /// The header's `kid`, if a string.
    public var keyID: String? { header["kid"] as? String }
    /// The header's `typ`, if a string.
    public var type: String? { header["typ"] as? String }

    /// Parses `token` without checking its signature.
    public init(_ token: Substring) throws(JOSEError) {
        let parts = CompactParts.split(token, separator: UInt8(ascii: "."))
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]) else { throw .notCompact }
        guard let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
              let payload = try? JSONSerialization.jsonObject(with: Data(payloadBytes)) as? [String: Any] else { throw .notJSONObjects }
        guard let algorithm = header["alg"] as? String else { throw .noAlgorithm }
        guard header["crit"] == nil else { throw .criticalHeader }
        self.header = header
        self.algorithm = algorithm
        self.payload = payload
        self.payloadBytes = payloadBytes
        self.signingInput = Array(token[..<parts[1].endIndex].utf8)
        self.signature = signature
    }

    public init(_ token: String) throws(JOSEError) {
        try self.init(token[...])
    }

    /// Whether `key` verifies the signature under the token's own alg (which must be the key's).
    public func isSigned(by key: JSONWebKey) -> Bool {
        key.algorithm.rawValue == algorithm && key.isValidSignature(signature, for: signingInput)
    }

    /// `token` once a key of `keys` verified it: alg RS256 or ES256; the key named by kid, or without kid any key of
    /// the alg. Claims (exp, aud…) are the caller's to check.
    public static func verified(_ token: String, keys: [JSONWebKey]) throws(JOSEError) -> JWS {
        let jws = try JWS(token)
        guard let alg = JSONWebKey.Algorithm(rawValue: jws.algorithm) else { throw .unsupportedAlgorithm(jws.algorithm) }
        let kid = jws.keyID
        let candidates = keys.filter { $0.algorithm == alg && (kid == nil || $0.kid == kid) }
        guard !candidates.isEmpty else { throw .noKey(kid: kid, alg: alg.rawValue) }
        guard candidates.contains(where: { jws.isSigned(by: $0) }) else { throw .badSignature }
        return jws
    }

    /// A signed compact token for `payload`: header {"alg": key's, "kid"?, "typ"?}, keys sorted, slashes unescaped.
    /// A payload JSON cannot hold (a Date, a non-finite number…) throws `JOSEError.notJSONObjects`.
    public static func sign(_ payload: [String: Any], key: JWSSigningKey, keyID: String? = nil, type: String? = nil) throws -> String {
        var header: [String: Any] = ["alg": key.algorithm.rawValue]
        if let keyID { header["kid"] = keyID }
        if let type { header["typ"] = type }
        guard JSONSerialization.isValidJSONObject(payload) else { throw JOSEError.notJSONObjects }
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        let input = Base64URL.encode(try JSONSerialization.data(withJSONObject: header, options: options)) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: payload, options: options))
        return input + "." + Base64URL.encode(try key.sign(Array(input.utf8)))
    }
}
