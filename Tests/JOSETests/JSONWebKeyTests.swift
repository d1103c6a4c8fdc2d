// JSONWebKeyTests.swift: JWKs read and written (RSA n/e, EC P-256 x/y, kid), refused when they cannot verify RS256 or
// ES256, RFC 7638 thumbprints, and signing keys round-tripping through PEM.
import Encodings
import Foundation
import JOSE
import Testing

@Suite struct JSONWebKeyTests {
    @Test func rfc7638ThumbprintMatches() throws {
        let key = try JSONWebKey(members: RFC7638.jwk)
        #expect(key.thumbprint == RFC7638.thumbprint)
        #expect(key.kid == "2011-04-29" && key.algorithm == .rs256)
        // kid, alg and use are not part of it.
        #expect(key.with(kid: "other").thumbprint == RFC7638.thumbprint)
    }

    @Test func membersRoundTrip() throws {
        for members in [RFC7515.A2.jwk, RFC7515.A3.jwk] {
            let key = try JSONWebKey(members: members)
            #expect(key.requiredMembers == members)
            let published = key.with(kid: key.thumbprint)
            #expect(published.members["use"] == "sig" && published.members["kid"] == key.thumbprint)
            #expect(try JSONWebKey(jsonText: published.jsonText) == published)
        }
    }

    @Test(arguments: [
        ["kty": "oct", "k": "AyM1"],
        ["kty": "EC", "crv": "P-384", "x": RFC7515.A3.x, "y": RFC7515.A3.y],
        ["kty": "EC", "crv": "P-256", "x": RFC7515.A3.x, "y": "AAAA"],
        ["kty": "EC", "crv": "P-256", "x": RFC7515.A3.x, "y": RFC7515.A3.x],   // not on the curve
        ["kty": "RSA", "n": RFC7515.A2.n, "e": "AQAB", "use": "enc"],
        ["kty": "RSA", "n": RFC7515.A2.n, "e": "AQAB", "alg": "ES256"],
        ["kty": "RSA", "n": RFC7515.A2.n, "e": "AQAB", "alg": "RS512"],
        ["kty": "RSA", "n": String(RFC7515.A2.n.prefix(171)), "e": "AQAB"],   // 1024 bits
        ["kty": "RSA", "e": "AQAB"],
        ["n": RFC7515.A2.n, "e": "AQAB"],
    ])
    func unusableKeysAreRefused(members: [String: String]) {
        #expect(throws: JOSEError.self) { try JSONWebKey(members: members) }
    }

    @Test(arguments: JSONWebKey.Algorithm.allCases)
    func signingKeysRoundTripThroughPEM(algorithm: JSONWebKey.Algorithm) throws {
        let key = try JWSSigningKey.generate(algorithm)
        let again = try JWSSigningKey(pemRepresentation: key.pemRepresentation)
        #expect(again.publicKey == key.publicKey && again.algorithm == algorithm)
        let token = try JWS.sign(["x": true], key: again)
        #expect(try JWS.verified(token, keys: [key.publicKey]).payload["x"] as? Bool == true)
        if algorithm == .rs256 {
            #expect(Base64URL.decode(key.publicKey.requiredMembers["n"]!)!.count == 256)
        }
    }

    @Test func garbagePEMIsRefused() {
        #expect(throws: JOSEError.unusableKey("malformed private key")) { try JWSSigningKey(pemRepresentation: "-----BEGIN NOTHING-----") }
    }
}
