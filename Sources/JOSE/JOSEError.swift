// JOSEError.swift: why a compact JWS or a JWK was refused. Each case names one rule, so callers (BrowserID's
// Persona-worded reasons, OAuthClient's ID-token refusals, the OpenID provider's own checks) word it their way.

/// A token or key JOSE will not read, sign with, or accept.
public enum JOSEError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not three base64url parts separated by dots (RFC 7515 §7.1).
    case notCompact
    /// The header or the payload is not a JSON object.
    case notJSONObjects
    /// The header has no `alg` string (RFC 7515 §4.1.1).
    case noAlgorithm
    /// The header names `crit` extensions: JOSE understands none, so it must refuse (RFC 7515 §4.1.11).
    case criticalHeader
    /// An algorithm JOSE does not verify or sign with (only RS256 and ES256; never "none" or HS*).
    case unsupportedAlgorithm(String)
    /// No published key has the token's kid and alg.
    case noKey(kid: String?, alg: String)
    /// The signature does not verify with the key(s).
    case badSignature
    /// A JWK or PEM key JOSE cannot use (the reason says why).
    case unusableKey(String)

    public var description: String {
        switch self {
        case .notCompact: "not a compact JWS"
        case .notJSONObjects: "header or payload is not a JSON object"
        case .noAlgorithm: "no alg in the header"
        case .criticalHeader: "crit header parameters are not supported"
        case let .unsupportedAlgorithm(alg): "alg \(alg) is not accepted (RS256 or ES256 only)"
        case let .noKey(kid, alg): "no \(alg) key \(kid ?? "(no kid)")"
        case .badSignature: "bad signature"
        case let .unusableKey(reason): "unusable key: \(reason)"
        }
    }
}
