// OpenIDKeysTests.swift: the provider's signing keys (OpenIDKeys): made once and shared by every host of a database,
// kid = the RFC 7638 thumbprint, tokens signed RS256 with kid and typ, the JWKS holding the current key and the keys
// retired within the grace (so a token signed before a rotation verifies after it, and stops once the grace is over),
// a rotation on one host followed by the other's next signature, the JWKS rebuilt only when its key ids change.
import AccountCore
import Encodings
import Foundation
import JOSE
import StorageTestKit
import Testing
@testable import WebFront

@Suite struct OpenIDKeysTests {
    let clock = FixedClock()
    let database: AppDatabase
    let keys: OpenIDKeys

    init() throws {
        database = try TestDatabase.make()
        keys = OpenIDKeys(database: database, clock: clock, grace: 86400)
    }

    /// The protected header of `token`.
    func header(_ token: String) throws -> [String: Any] { try JWS(token).header }

    @Test func theFirstKeyIsMadeOnceAndSharedByEveryHost() throws {
        let first = try keys.ensureKey()
        let otherHost = OpenIDKeys(database: database, clock: clock, grace: 86400)
        #expect(try otherHost.ensureKey().id == first.id)
        #expect(try keys.keys.all().count == 1)
        let published = try JSONWebKey(jsonText: first.publicKey)
        #expect(published.algorithm == .rs256 && published.kid == published.thumbprint)
        #expect(try otherHost.publishedKeys() == [published])
        #expect(!first.publicKey.contains("\"d\""), "the public JWK holds no private part")
    }

    @Test func aTokenIsSignedWithTheCurrentKeyAndItsKid() throws {
        try keys.ensureKey()
        let token = try keys.sign(["iss": "http://localhost:8080/account", "sub": "42"], type: "JWT")
        let kid = try #require(try keys.publishedKeys().first?.kid)
        let header = try header(token)
        #expect(header["alg"] as? String == "RS256" && header["kid"] as? String == kid && header["typ"] as? String == "JWT")
        #expect(try keys.verify(token)["sub"] as? String == "42")
        #expect(try self.header(try keys.sign(["sub": "42"]))["typ"] == nil)
    }

    @Test func signingWithoutAKeyMakesOne() throws {
        let token = try keys.sign(["sub": "1"])
        #expect(try keys.keys.all().count == 1)
        #expect(try keys.verify(token)["sub"] as? String == "1")
    }

    @Test func aTokenSignedBeforeARotationVerifiesWithinTheGraceOnly() throws {
        try keys.ensureKey()
        let before = try keys.sign(["sub": "42"])
        let oldKid = try header(before)["kid"] as? String
        clock.advance(by: 60)
        let rotated = try keys.rotate()
        let after = try keys.sign(["sub": "43"])
        let newKid = try header(after)["kid"] as? String
        let rotatedKid = try JSONWebKey(jsonText: rotated.publicKey).kid
        #expect(newKid != oldKid && newKid == rotatedKid)
        // Both are published, the current one first, and both tokens verify.
        let listed = try #require(try keys.jwks()["keys"] as? [[String: String]])
        #expect(listed.map { $0["kid"] } == [newKid, oldKid])
        #expect(listed.allSatisfy { $0["use"] == "sig" && $0["alg"] == "RS256" && $0["kty"] == "RSA" && $0["d"] == nil })
        #expect(try keys.verify(before)["sub"] as? String == "42")
        #expect(try keys.verify(after)["sub"] as? String == "43")
        // Once the grace has passed the old key is gone, and so is its token.
        clock.advance(by: 86400 + 1)
        #expect(try keys.publishedKeys().map(\.kid) == [newKid])
        #expect(throws: JOSEError.noKey(kid: oldKid, alg: "RS256")) { try keys.verify(before) }
        #expect(try keys.verify(after)["sub"] as? String == "43")
    }

    @Test func aRotationOnOneHostIsUsedByTheOthersNextSignature() throws {
        let hostB = OpenIDKeys(database: database, clock: clock, grace: 86400)
        try keys.ensureKey()
        let first = try header(try hostB.sign(["sub": "1"]))["kid"] as? String
        try keys.rotate()
        let second = try header(try hostB.sign(["sub": "1"]))["kid"] as? String
        let current = try keys.publishedKeys().first?.kid
        #expect(first != second && second == current)
    }

    @Test func theJWKSIsRebuiltOnlyWhenItsKeysChange() throws {
        try keys.ensureKey()
        let one = try keys.jwksJSON()
        #expect(try keys.jwksJSON() == one)
        let parsed = try #require(try JSONSerialization.jsonObject(with: one) as? [String: [[String: String]]])
        #expect(parsed["keys"]?.count == 1)
        try keys.rotate()
        let two = try keys.jwksJSON()
        #expect(two != one)
        #expect((try JSONSerialization.jsonObject(with: two) as? [String: [[String: String]]])?["keys"]?.count == 2)
    }

    @Test func tokensNotSignedByAPublishedKeyAreRefused() throws {
        try keys.ensureKey()
        let kid = try #require(try keys.publishedKeys().first?.kid)
        // Another key under our kid, and an unsigned token.
        let stranger = try JWS.sign(["sub": "42"], key: try JWSSigningKey.generate(.rs256), keyID: kid)
        #expect(throws: JOSEError.badSignature) { try keys.verify(stranger) }
        let payload = Base64URL.encode(Array(#"{"sub":"42"}"#.utf8))
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + payload + "."
        #expect(throws: JOSEError.unsupportedAlgorithm("none")) { try keys.verify(none) }
        let es256 = try JWS.sign(["sub": "42"], key: try JWSSigningKey.generate(.es256), keyID: kid)
        #expect(throws: JOSEError.noKey(kid: kid, alg: "ES256")) { try keys.verify(es256) }
    }
}
