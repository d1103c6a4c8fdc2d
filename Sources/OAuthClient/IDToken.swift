// IDToken.swift: checking an OpenID Connect ID token (a compact JWS) as OpenID Connect Core 3.1.3.7 asks.
// Accepted: alg RS256 (RSASSA-PKCS1-v1_5, SHA-256) and ES256 (P-256, SHA-256); never "none" or HS*.
// Checks: the key named by kid (or, without kid, any key of the alg) verifies the signature; iss == issuer
// (`alternateIssuers` too: Google also writes "accounts.google.com"); aud holds client_id; azp, when present or when
// there are several audiences, == client_id; exp after now - leeway; iat not after now + leeway; nonce == expected;
// sub present. Options: leeway (default 60 s). Every failure → OAuthError.invalidIDToken(reason).
// The JWS is parsed and its signature checked by JOSE, the project's one JWS implementation.
import Foundation
import JOSE

/// The claims of a checked ID token.
struct IDTokenClaims: Sendable {
    var subject: String
    var email: String?
    var emailVerified: Bool
    var name: String?
    var preferredUsername: String?
}

/// What an ID token must match.
struct IDTokenCheck: Sendable {
    var issuer: String
    var alternateIssuers: [String] = []
    var clientID: String
    var nonce: String?
    var now: Date
    var leeway: TimeInterval = 60

    /// The claims of `token` once every check passed; `keys(refetch)` gives the issuer's keys.
    func verify(_ token: String, keys: (_ refetch: Bool) throws -> [JSONWebKey]) throws -> IDTokenClaims {
        func refuse(_ reason: String) -> OAuthError { .invalidIDToken(reason) }
        let jws: JWS
        do { jws = try JWS(token) } catch {
            switch error {
            case .notCompact: throw refuse("not a compact JWS")
            case .noAlgorithm: throw refuse("alg (none) is not accepted (RS256 or ES256 only)")
            case .criticalHeader: throw refuse("crit header parameters are not supported")
            default: throw refuse("header or claims are not JSON objects")
            }
        }
        guard let claims = try? JSONValue.object(jws.payloadBytes, what: "claims") else { throw refuse("header or claims are not JSON objects") }
        guard let alg = JSONWebKey.Algorithm(rawValue: jws.algorithm) else {
            throw refuse("alg \(jws.algorithm) is not accepted (RS256 or ES256 only)")
        }
        let kid = jws.keyID
        func candidates(_ set: [JSONWebKey]) -> [JSONWebKey] {
            set.filter { $0.algorithm == alg && (kid == nil || $0.kid == kid) }
        }
        var matching = candidates(try keys(false))
        if matching.isEmpty { matching = candidates(try keys(true)) }
        guard !matching.isEmpty else { throw refuse("no \(alg.rawValue) key \(kid ?? "(no kid)") in the issuer's JWKS") }
        guard matching.contains(where: { jws.isSigned(by: $0) }) else { throw refuse("bad signature") }
        return try checkClaims(claims)
    }

    private func checkClaims(_ claims: [String: JSONValue]) throws -> IDTokenClaims {
        func refuse(_ reason: String) -> OAuthError { .invalidIDToken(reason) }
        let iss = claims["iss"]?.string ?? "(none)"
        guard iss == issuer || alternateIssuers.contains(iss) else { throw refuse("iss \(iss) is not \(issuer)") }
        let audiences: [String]
        switch claims["aud"] {
        case let .string(one)?: audiences = [one]
        case let .array(many)?: audiences = many.compactMap(\.string)
        default: audiences = []
        }
        guard audiences.contains(clientID) else { throw refuse("aud \(audiences) does not hold the client id") }
        let azp = claims["azp"]?.string
        if azp != nil || audiences.count > 1 {
            guard azp == clientID else { throw refuse("azp \(azp ?? "(none)") is not the client id") }
        }
        let time = now.timeIntervalSince1970
        guard let exp = claims["exp"]?.number else { throw refuse("no exp") }
        guard exp > time - leeway else { throw refuse("expired at \(Int64(exp))") }
        guard let iat = claims["iat"]?.number else { throw refuse("no iat") }
        guard iat <= time + leeway else { throw refuse("issued in the future (\(Int64(iat)))") }
        guard claims["nonce"]?.string == nonce else { throw refuse("nonce does not match") }
        guard let subject = claims["sub"]?.string, !subject.isEmpty else { throw refuse("no sub") }
        return IDTokenClaims(subject: subject, email: claims["email"]?.string, emailVerified: claims["email_verified"]?.bool ?? false,
                             name: claims["name"]?.string, preferredUsername: claims["preferred_username"]?.string)
    }
}
